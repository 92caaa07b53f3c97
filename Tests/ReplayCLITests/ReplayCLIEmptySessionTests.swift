import Foundation
import Testing

/// Adds session 5 to the demo journal: a session row without entries, as a recorder killed before its
/// first batch leaves it, with `status`.
private func addEmptySession(status: String, in directory: URL) throws {
    try runSQLite("""
        INSERT INTO sessions (name, started_at, ended_at, status, library_version, state_type, action_type, metadata, dropped)
        VALUES ('killed', 1000, \(status == "closed" ? "1001" : "NULL"), '\(status)', '0.1.0', 'S', 'A', '{}', 0);
        """, on: "demo.actionlog", in: directory)
}

@Suite("replay-cli on a session without entries")
struct EmptySessionTests {
    @Test("state, diff, log and export say the session has no entries and why, with exit 1", arguments: [
        ["state", "demo.actionlog", "--session", "5"], ["state", "demo.actionlog", "--session", "killed", "--at", "0"],
        ["diff", "demo.actionlog", "--session", "5", "0", "1"], ["log", "demo.actionlog", "--session", "5"],
        ["log", "demo.actionlog", "--session", "5", "--json"], ["export", "demo.actionlog", "--session", "5"],
        ["export", "demo.actionlog", "--session", "5", "--output", "killed.jsonl"],
    ])
    func interrupted(arguments: [String]) throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            // Left `recording` by a process that died: no recorder holds its lock, so it reads as interrupted.
            try addEmptySession(status: "recording", in: directory)
            let result = try runCLI(arguments, in: directory)
            #expect(result.status == 1)
            #expect(result.stdout == "")
            #expect(result.stderr == """
                error: demo.actionlog, session 5: the session has no entries: its recording stopped before the first entry \
                (the initial state) was written

                """)
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("killed.jsonl").path))
        }
    }

    @Test("sessions lists it with 0 entries, and verify accepts it")
    func listedAndValid() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            try addEmptySession(status: "interrupted", in: directory)
            let sessions = try runCLI(["sessions", "demo.actionlog"], in: directory)
            #expect(sessions.status == 0)
            #expect(lines(sessions.stdout).last.map { matches($0, #"5\s+killed\s+interrupted\s+0\s+1970-01-01T00:16:40\.000000Z\s+-"#) } == true, "\(sessions.stdout)")
            let verify = try runCLI(["verify", "demo.actionlog"], in: directory)
            #expect(verify.status == 0)
            #expect(verify.stdout == "demo.actionlog: 5 sessions, 50 entries: OK\n")
        }
    }

    @Test("a closed session without entries is told as missing its first entry")
    func closed() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            try addEmptySession(status: "closed", in: directory)
            let result = try runCLI(["state", "demo.actionlog", "--session", "5"], in: directory)
            #expect(result.status == 1)
            #expect(result.stderr == """
                error: demo.actionlog, session 5: the session has no entries, though it was closed: its first entry \
                (the initial state) is missing

                """)
        }
    }
}
