import ActionLogViewer
import Foundation
import Testing

/// Damage a hostile or broken file can hold, each as SQL on the demo journal: numbers at the edges of
/// `Int64` and of `Double`, text where numbers belong, bytes that are not UTF-8. The library's readers
/// meet the same in `HostileFileTests`; here every command's own arithmetic and printing meets it.
private let damages: [(name: String, sql: String)] = [
    ("an entry at seq Int64.max", "UPDATE entries SET checksum = NULL, seq = 9223372036854775807 WHERE session_id = 2 AND seq = 5"),
    ("the last entry of an asynchronous session at seq Int64.max", """
        UPDATE entries SET checksum = NULL, seq = 9223372036854775807 WHERE session_id = 4 AND seq = (SELECT max(seq) FROM entries WHERE session_id = 4)
        """),
    ("a sequence number stored as text", "UPDATE entries SET checksum = NULL, seq = 'soon' WHERE session_id = 2 AND seq = 5"),
    ("a sequence number at Int64.min", "UPDATE entries SET checksum = NULL, seq = -9223372036854775808 WHERE session_id = 2 AND seq = 5"),
    ("a gap that lost Int64.max actions", """
        UPDATE entries SET checksum = NULL, kind = 'gap', state = NULL, action = NULL, label = NULL, dropped = 9223372036854775807
        WHERE session_id = 2 AND seq = 6
        """),
    ("times past any date, and infinite", """
        UPDATE entries SET checksum = NULL, time = 1e300 WHERE session_id = 2 AND seq = 3;
        UPDATE entries SET checksum = NULL, time = 9e999 WHERE session_id = 2 AND seq = 4;
        UPDATE sessions SET started_at = -1e300, ended_at = 9e999 WHERE id = 2
        """),
    ("durations at Int64.min and Int64.max", """
        UPDATE entries SET checksum = NULL, duration_ns = -9223372036854775808 WHERE session_id = 2 AND seq = 3;
        UPDATE entries SET checksum = NULL, duration_ns = 9223372036854775807 WHERE session_id = 2 AND seq <> 3
        """),
    ("a label and a session name of control characters and bytes that are not UTF-8", """
        UPDATE entries SET checksum = NULL, label = X'1B5B33316DFF0A07' WHERE session_id = 2 AND seq = 3;
        UPDATE sessions SET name = X'1B5D303B6F776E6564071B5B324A' WHERE id = 2
        """),
    ("handler records at seq Int64.max and started at Int64.max", """
        UPDATE handlers SET checksum = NULL, started = 9223372036854775807 WHERE session_id = 4;
        UPDATE handlers SET checksum = NULL, seq = 9223372036854775807 WHERE session_id = 4 AND seq = (SELECT max(seq) FROM handlers WHERE session_id = 4)
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

@Suite("replay-cli on a journal with a damaged session row")
struct DamagedSessionRowTests {
    /// The demo journal with session 3's start time stored as text (SQLite would read it as 1970)
    /// and session 4's metadata not JSON.
    private func damagedDemo(in directory: URL) throws {
        try runDemo(in: directory)
        try runSQLite("""
            UPDATE sessions SET started_at = 'yesterday' WHERE id = 3;
            UPDATE sessions SET metadata = 'not json' WHERE id = 4
            """, on: "demo.actionlog", in: directory)
    }

    private let rowErrors = """
        error: demo.actionlog, session 3: the session's start time is stored as text, not as a number of seconds
        error: demo.actionlog, session 4: the session metadata is not valid JSON: invalid JSON at byte 1: unexpected character "o"

        """

    @Test("sessions lists the rows it can read, names each damaged one on standard error, and exits 1")
    func sessionsGoesOn() throws {
        try withTemporaryDirectory { directory in
            try damagedDemo(in: directory)
            let listed = try runCLI(["sessions", "demo.actionlog"], in: directory)
            #expect(listed.status == 1)
            #expect(lines(listed.stdout).map { $0.split(separator: " ").prefix(2).joined(separator: " ") } == ["ID NAME", "1 city", "2 checkout"])
            #expect(listed.stderr == rowErrors)
            let json = try runCLI(["sessions", "demo.actionlog", "--json"], in: directory)
            #expect(json.status == 1)
            let objects = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
            #expect(objects.map { int($0["session"]) } == [1, 2])
        }
    }

    @Test("a duration past any clock shows in seconds with an exponent, an infinite one as ∞")
    func farDurations() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            try runSQLite("""
                UPDATE sessions SET started_at = -1e300, ended_at = 1e300 WHERE id = 2;
                UPDATE sessions SET started_at = -1.7e308, ended_at = 1.7e308 WHERE id = 3
                """, on: "demo.actionlog", in: directory)
            let listed = try runCLI(["sessions", "demo.actionlog"], in: directory)
            #expect(listed.status == 0)
            let durations = lines(listed.stdout).dropFirst().map { $0.split(separator: " ").last.map(String.init) }
            #expect(durations[1] == "2.000e+300s" && durations[2] == "∞", "\(listed.stdout)")
        }
    }

    @Test("verify reports each damaged row as a finding of its session and checks the other sessions")
    func verifyFindsRows() throws {
        try withTemporaryDirectory { directory in
            try damagedDemo(in: directory)
            try runSQLite("UPDATE entries SET checksum = NULL, time = 'later' WHERE session_id = 1 AND seq = 2", on: "demo.actionlog", in: directory)
            let result = try runCLI(["verify", "demo.actionlog"], in: directory)
            #expect(result.status == 1)
            #expect(result.stdout.hasPrefix("demo.actionlog: 4 sessions, "))
            #expect(lines(result.stdout).dropFirst() == [
                "  session 1, entry 2: the entry's time is stored as text, not as a number of seconds",
                "  session 3: the session's start time is stored as text, not as a number of seconds",
                #"  session 4: the session metadata is not valid JSON: invalid JSON at byte 1: unexpected character "o""#,
                // The row the test edited has no checksum left, as a writer before checksums leaves it.
                "  note: session 1: 1 entry without checksums (written before ActionLog checksummed its rows): a change to their bytes that SQLite's checks accept goes unnoticed",
            ])
            let json = try runCLI(["verify", "demo.actionlog", "--json"], in: directory)
            #expect(json.status == 1)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            #expect((object["findings"] as? [[String: Any]])?.map { $0["code"] as? String } == ["entry", "session", "session"])
        }
    }

    @Test("stats summarises the readable sessions and exits 1; copy copies the file as it is, warns, and exits 0")
    func statsAndCopy() throws {
        try withTemporaryDirectory { directory in
            try damagedDemo(in: directory)
            let stats = try runCLI(["stats", "demo.actionlog"], in: directory)
            #expect(stats.status == 1)
            #expect(lines(stats.stdout).filter { $0.hasPrefix("session ") }.count == 2)
            #expect(stats.stderr == rowErrors)
            let copied = try runCLI(["copy", "demo.actionlog", "copy.actionlog"], in: directory)
            #expect(copied.status == 0)
            #expect(copied.stdout.hasPrefix("Copied demo.actionlog to copy.actionlog (4 sessions, "))
            #expect(copied.stderr == """
                warning: copy.actionlog, session 3: the session's start time is stored as text, not as a number of seconds \
                (copied as it is; `replay-cli verify` lists what is damaged)
                warning: copy.actionlog, session 4: the session metadata is not valid JSON: invalid JSON at byte 1: unexpected \
                character "o" (copied as it is; `replay-cli verify` lists what is damaged)

                """)
            // The sessions that can be read still read, by id and by name.
            #expect(try runCLI(["log", "demo.actionlog", "--session", "checkout", "--limit", "1"], in: directory).status == 0)
        }
    }

    @Test("the viewer lists the readable sessions, and the damaged rows with their errors")
    func viewerListsTheRest() throws {
        try withTemporaryDirectory { directory in
            try damagedDemo(in: directory)
            let (process, url, _) = try startServe(["serve", "demo.actionlog", "--port", "0"], in: directory)
            defer { if process.isRunning { process.terminate() } }
            let port = try servedPort(url)
            let response = try LoopbackClient.get(port: port, "/api/sessions")
            #expect(response.status == 200)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(response.bytes)) as? [String: Any])
            #expect((object["sessions"] as? [[String: Any]])?.map { $0["id"] as? String } == ["1", "2"])
            #expect((object["damaged"] as? [[String: Any]])?.map { $0["error"] as? String } == [
                "demo.actionlog, session 3: the session's start time is stored as text, not as a number of seconds",
                #"demo.actionlog, session 4: the session metadata is not valid JSON: invalid JSON at byte 1: unexpected character "o""#,
            ])
        }
    }
}
