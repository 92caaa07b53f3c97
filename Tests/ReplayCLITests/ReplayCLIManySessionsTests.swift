import Foundation
import Testing

@Suite("replay-cli on a journal of many sessions")
struct ManySessionsTests {
    /// The demo journal (sessions 1–4) and 1,200 sessions without entries after it (5…1204), made by
    /// SQL; session 700's start time is stored as text. More sessions than a page of rows holds.
    private func manySessions(in directory: URL) throws {
        try runDemo(in: directory)
        try runSQLite("""
            WITH RECURSIVE n(id) AS (SELECT 5 UNION ALL SELECT id + 1 FROM n WHERE id < 1204)
            INSERT INTO sessions (id, name, started_at, ended_at, status, library_version, state_type, action_type)
            SELECT id, 'copy ' || id, 1795579429.5, 1795579430.5, 'closed', '0.1.0', 'S', 'A' FROM n;
            UPDATE sessions SET started_at = 'yesterday' WHERE id = 700
            """, on: "demo.actionlog", in: directory)
    }

    private let rowError = "error: demo.actionlog, session 700: the session's start time is stored as text, not as a number of seconds\n"

    @Test("sessions and stats list every readable session, a page of rows at a time, name the damaged one and exit 1")
    func lists() throws {
        try withTemporaryDirectory { directory in
            try manySessions(in: directory)
            let table = try runCLI(["sessions", "demo.actionlog"], in: directory)
            #expect(table.status == 1)
            #expect(table.stderr == rowError)
            let rows = lines(table.stdout)
            #expect(rows.count == 1 + 1_203)
            #expect(rows.dropFirst().map { Int($0.prefix { $0 != " " }) } == Array(1...1_204).filter { $0 != 700 })
            for command in [["sessions"], ["stats"]] {
                let json = try runCLI(command + ["demo.actionlog", "--json"], in: directory)
                #expect(json.status == 1, "\(command)")
                #expect(json.stderr == rowError, "\(command)")
                let objects = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
                #expect(objects.count == 1_203, "\(command)")
                #expect(int(objects.last?["session"]) == 1_204, "\(command)")
            }
        }
    }

    @Test("a session named from the last page is found; a command that needs one session says how many there are")
    func resolves() throws {
        try withTemporaryDirectory { directory in
            try manySessions(in: directory)
            let named = try runCLI(["stats", "demo.actionlog", "--session", "copy 1204"], in: directory)
            #expect(named.status == 0)
            #expect(lines(named.stdout).first == #"session 1204 "copy 1204" (closed)"#)
            let unknown = try runCLI(["stats", "demo.actionlog", "--session", "nothing"], in: directory)
            #expect(unknown.status == 64)
            #expect(unknown.stderr == """
                error: demo.actionlog: no session named "nothing" (the journal holds "city search", "checkout", "product card", "sign in", "copy 5", "copy 6", "copy 7", "copy 8" and 1196 more)

                """)
            let export = try runCLI(["export", "demo.actionlog"], in: directory)
            #expect(export.status == 64)
            #expect(export.stderr == "error: demo.actionlog: 1204 sessions; choose one with --session\n")
        }
    }

    @Test("verify counts every session and reports the damaged row among its findings")
    func verifies() throws {
        try withTemporaryDirectory { directory in
            try manySessions(in: directory)
            let result = try runCLI(["verify", "demo.actionlog"], in: directory)
            #expect(result.status == 1)
            #expect(result.stdout.hasPrefix("demo.actionlog: 1204 sessions, 50 entries: "))
            #expect(lines(result.stdout).contains("  session 700: the session's start time is stored as text, not as a number of seconds"))
        }
    }
}
