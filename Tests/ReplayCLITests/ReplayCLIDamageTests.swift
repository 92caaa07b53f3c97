import Foundation
import Testing

/// Damage a hostile or broken file can hold, each as SQL on the demo journal: numbers at the edges of
/// `Int64` and of `Double`, text where numbers belong, bytes that are not UTF-8. The library's readers
/// meet the same in `HostileFileTests`; here every command's own arithmetic and printing meets it.
private let damages: [(name: String, sql: String)] = [
    ("an entry at seq Int64.max", "UPDATE entries SET seq = 9223372036854775807 WHERE session_id = 2 AND seq = 5"),
    ("the last entry of an asynchronous session at seq Int64.max", """
        UPDATE entries SET seq = 9223372036854775807 WHERE session_id = 4 AND seq = (SELECT max(seq) FROM entries WHERE session_id = 4)
        """),
    ("a sequence number stored as text", "UPDATE entries SET seq = 'soon' WHERE session_id = 2 AND seq = 5"),
    ("a sequence number at Int64.min", "UPDATE entries SET seq = -9223372036854775808 WHERE session_id = 2 AND seq = 5"),
    ("a gap that lost Int64.max actions", """
        UPDATE entries SET kind = 'gap', state = NULL, action = NULL, label = NULL, dropped = 9223372036854775807
        WHERE session_id = 2 AND seq = 6
        """),
    ("times past any date, and infinite", """
        UPDATE entries SET time = 1e300 WHERE session_id = 2 AND seq = 3;
        UPDATE entries SET time = 9e999 WHERE session_id = 2 AND seq = 4;
        UPDATE sessions SET started_at = -1e300, ended_at = 9e999 WHERE id = 2
        """),
    ("durations at Int64.min and Int64.max", """
        UPDATE entries SET duration_ns = -9223372036854775808 WHERE session_id = 2 AND seq = 3;
        UPDATE entries SET duration_ns = 9223372036854775807 WHERE session_id = 2 AND seq <> 3
        """),
    ("a label and a session name of control characters and bytes that are not UTF-8", """
        UPDATE entries SET label = X'1B5B33316DFF0A07' WHERE session_id = 2 AND seq = 3;
        UPDATE sessions SET name = X'1B5D303B6F776E6564071B5B324A' WHERE id = 2
        """),
    ("handler records at seq Int64.max and started at Int64.max", """
        UPDATE handlers SET started = 9223372036854775807 WHERE session_id = 4;
        UPDATE handlers SET seq = 9223372036854775807 WHERE session_id = 4 AND seq = (SELECT max(seq) FROM handlers WHERE session_id = 4)
        """),
]

/// Every command that reads a journal, with the arguments it needs besides the file.
private let readingCommands: [[String]] = [
    ["verify"], ["sessions"], ["sessions", "--json"], ["stats"], ["stats", "--session", "2"],
    ["log", "--session", "2"], ["log", "--session", "2", "--json"], ["log", "--session", "4"],
    ["export", "--session", "2", "--output", "session-2.jsonl"], ["export", "--session", "4", "--output", "session-4.jsonl"],
    ["state", "--session", "2", "--at", "7"], ["diff", "--session", "2", "2", "8"],
    ["report", "--session", "2", "--output", "report.html"],
]

@Suite("replay-cli on damaged journals")
struct DamageTests {
    @Test("no damage crashes a command: each reads what it can or fails naming the file", arguments: damages.map(\.name))
    func damagedJournal(damage: String) throws {
        let sql = try #require(damages.first { $0.name == damage }?.sql)
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            try runSQLite(sql, on: "demo.actionlog", in: directory)
            for command in readingCommands {
                let result = try runCLI([command[0], "demo.actionlog"] + command.dropFirst(), in: directory)
                let shown = command.joined(separator: " ")
                // 0: read; 1: a finding or an error (verify, or a damaged entry on the way); never a
                // trap, which `Process` reports as its signal's number (4 for the SIGILL of an overflow).
                #expect(result.status == 0 || result.status == 1, "\(shown): exit \(result.status)\n\(result.stderr)")
                if result.status == 1, command[0] != "verify" {
                    #expect(result.stderr.hasPrefix("error: demo.actionlog"), "\(shown): \(result.stderr)")
                }
                #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("runtime failure"), "\(shown): \(result.stderr)")
            }
        }
    }
}
