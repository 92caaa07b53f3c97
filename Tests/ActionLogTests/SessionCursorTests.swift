import Foundation
import Testing
@testable import ActionLog

@Suite("Journal: reading the sessions a page at a time")
struct SessionCursorTests {
    let directory = TemporaryDirectory()

    /// A journal with one recorded session and `extra` more rows copied from it by SQL (ids 2…), the
    /// row `damaged` given a status no journal writes.
    private func journal(extra: Int, damaged: Int) throws -> String {
        let path = directory.path("many.actionlog")
        let recorder = try CounterRecorder(path: path, sessionName: "first", initialState: Counter())
        recorder.close()
        try sql(path, """
            WITH RECURSIVE n(id) AS (SELECT 2 UNION ALL SELECT id + 1 FROM n WHERE id <= \(extra))
            INSERT INTO sessions (id, name, started_at, status, library_version, state_type, action_type)
            SELECT id, 'copy ' || id, 1000, 'closed', '0.1.0', 'Counter', 'CounterAction' FROM n;
            UPDATE sessions SET started_at = 'yesterday' WHERE id = \(damaged)
            """)
        return path
    }

    @Test("the cursor reads every session across pages in id order, and goes on past a damaged row after naming it")
    func pages() throws {
        let path = try journal(extra: 1_200, damaged: 700)
        var cursor = try Journal(path: path).sessionCursor()
        var ids: [JournalSession.ID] = []
        var errors: [String] = []
        while true {
            do {
                guard let session = try cursor.next() else { break }
                ids.append(session.id)
            } catch {
                errors.append(error.description)
            }
        }
        #expect(ids.count == 1_200)
        #expect(ids == Array(1...1_201).filter { $0 != 700 })
        #expect(errors == ["many.actionlog, session 700: the session's start time is stored as text, not as a number of seconds"])
        // The array reader stops at the damaged row, as it always has.
        let error = #expect(throws: ActionLogError.self) { try Journal(path: path).sessions() }
        #expect(error?.session == 700)
    }

    @Test("a session with the least or the greatest id there is is read, and nothing after the greatest")
    func extremeIDs() throws {
        let path = try journal(extra: 3, damaged: 0)
        try sql(path, """
            UPDATE sessions SET id = -9223372036854775808 WHERE id = 2;
            UPDATE sessions SET id = 9223372036854775807 WHERE id = 3
            """)
        let ids = try Journal(path: path).sessions().map(\.id)
        #expect(ids == [.min, 1, 4, .max])
    }

    @Test("the newest sessions first, a window at a time, for a list that pages back")
    func newestFirst() throws {
        let path = try journal(extra: 9, damaged: 0)
        let journal = try Journal(path: path)
        #expect(try journal.sessionPage(before: nil, limit: 4).map(\.id) == [10, 9, 8, 7])
        #expect(try journal.sessionPage(before: 7, limit: 4).map(\.id) == [6, 5, 4, 3])
        #expect(try journal.sessionPage(before: 3, limit: 4).map(\.id) == [2, 1])
        #expect(try journal.sessionCount() == 10)
        #expect(try journal.quotedSessionNames(limit: 2) == #""first", "copy 2" and 8 more"#)
    }
}
