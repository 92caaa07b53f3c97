import Foundation
import Testing
@testable import ActionLog

/// Readers that walk a long asynchronous session in order read its handler records a window of
/// entries at a time; they must find every record, whichever window it falls in.
@Suite("Handler records of a long session, read a window at a time")
struct HandlerRecordPagingTests {
    let directory = TemporaryDirectory()

    /// An asynchronous session of `count` actions whose handler calls a service once per action.
    private func record(_ count: Int, name: String) async throws -> String {
        let path = directory.path("\(name).actionlog")
        let service = RecordedService("Numbers")
        let recorder = try await ViewModelRecorder<Counter, CounterAction>(
            path: path, sessionName: name, handle: { _ in _ = try? await service.call("next") { 7 } }, snapshot: { Counter() })
        for _ in 0..<count { recorder.send(.increment) }
        await recorder.settle()
        recorder.close()
        return path
    }

    @Test("the pager finds each entry's record across windows, and export writes all of them")
    func pagerAndExport() async throws {
        let count = HandlerRecordPager.windowSize * 2 + 100
        let path = try await record(count, name: "long")
        let journal = try Journal(path: path)
        let whole = try journal.handlerRecords(in: 1)
        #expect(whole.count == count)
        var pager = HandlerRecordPager(journal: journal, session: 1)
        var paged: [HandlerRecord] = []
        for seq in 0...count {
            if let record = try pager.record(at: seq) { paged.append(record) }
        }
        #expect(paged == whole)

        // Export streams (a window of records at a time); the text holds what the whole session holds.
        var exported: [UInt8] = []
        try journal.exportJSONL(1, write: { exported += $0 })
        let expected = try journal.recordedSession(1).jsonl()
        #expect(String(decoding: exported, as: UTF8.self) == expected)
    }

    /// What verify finds in a 10-action session of its own after `statement` changed the file.
    private func findings(after statement: String, name: String) async throws -> [String] {
        let path = try await record(10, name: name)
        let connection = try Connection(path: path, mode: .readWrite)
        try connection.execute(statement)
        connection.close()
        return try Journal(path: path).verify().findings.map(\.description)
    }

    @Test("verify reports the handler record of a missing entry, and not the records of the entries after it")
    func verifyWithAMissingEntry() async throws {
        let findings = try await findings(after: "DELETE FROM entries WHERE session_id = 1 AND seq = 5", name: "hole")
        #expect(findings == [
            "session 1, entry 5: missing: the entry is not in the file",
            "session 1, entry 5: a handler record for an entry the session does not have",
        ])
    }

    @Test("verify reports a handler record past the session's last entry, in a later window")
    func verifyFindsOrphanInLaterWindow() async throws {
        let findings = try await findings(after: "INSERT INTO handlers (session_id, seq, started) VALUES (1, 9000, 0)", name: "orphan")
        #expect(findings == ["session 1, entry 9000: a handler record for an entry the session does not have"])
    }
}
