import Foundation
import Testing
@testable import ActionLog

@Suite("Schema version 2: handler records, and version-1 journals")
struct SchemaMigrationTests {
    let directory = TemporaryDirectory()

    /// `fixtures/checkout.actionlog`, a journal written with schema version 1.
    private var versionOneFixture: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("fixtures/checkout.actionlog")
    }

    private func copyOfFixture() throws -> String {
        let path = directory.path("checkout-v1.actionlog")
        try FileManager.default.copyItem(atPath: versionOneFixture.path, toPath: path)
        #expect(try Connection(path: path, mode: .readOnly).scalarInt("PRAGMA user_version") == 1)
        return path
    }

    @Test("a version-1 journal reads as it is, without migrating: its sessions have no handler records")
    func readsVersionOne() throws {
        let path = try copyOfFixture()
        let journal = try Journal(path: path)
        let recorded = try journal.recordedSession(1)
        #expect(recorded.entries.count == 15)
        #expect(recorded.handlers.isEmpty)
        #expect(try journal.handlerRecords(in: 1).isEmpty)
        #expect(try Connection(path: path, mode: .readOnly).scalarInt("PRAGMA user_version") == 1)
    }

    @Test("a writer migrates a version-1 journal forward, keeping its sessions, and records handlers into it")
    func migratesVersionOne() async throws {
        let path = try copyOfFixture()
        let before = try Journal(path: path).recordedSession(1)
        let recorder = try await ViewModelRecorder<Counter, CounterAction>(
            path: path, sessionName: "async", handle: { _ in }, snapshot: { Counter() })
        recorder.send(.increment)
        await recorder.settle()
        recorder.close()
        let connection = try Connection(path: path, mode: .readOnly)
        #expect(try connection.scalarInt("PRAGMA user_version") == 2)
        let tables = try connection.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").rows { $0.text(0) }
        #expect(tables == ["calls", "entries", "handlers", "sessions"])
        let journal = try Journal(path: path)
        #expect(try journal.recordedSession(1) == before)
        #expect(try journal.handlerRecords(in: 2) == [HandlerRecord(seq: 1, started: 0, records: [])])
    }

    @Test("damaged handler rows are refused naming the file, the session and the entry")
    func damagedRows() async throws {
        let path = directory.path("damaged.actionlog")
        let recorder = try await ViewModelRecorder<Counter, CounterAction>(
            path: path, sessionName: "async", handle: { _ in }, snapshot: { Counter() })
        recorder.send(.increment)
        await recorder.settle()
        recorder.close()
        let connection = try Connection(path: path, mode: .readWrite)
        try connection.execute("""
            INSERT INTO calls (session_id, seq, idx, kind, service, name, arguments, result, answered)
            VALUES (1, 1, 0, 'call', 'S', 'm', '{}', 'null', 1)
            """)
        connection.close()
        let error = #expect(throws: JournalError.self) { try Journal(path: path).handlerRecords(in: 1) }
        #expect(error?.description == "damaged.actionlog, session 1, entry 1: the arguments of call 0 are not a JSON array")
        #expect(try Journal(path: path).verify().findings.map(\.description) == ["session 1, entry 1: the arguments of call 0 are not a JSON array"])
    }
}
