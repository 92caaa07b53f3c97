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
        #expect(try connection.scalarInt("PRAGMA user_version") == 3)
        #expect(try connection.scalarInt("PRAGMA page_size") == 4_096, "a journal keeps the page size it was created with")
        let tables = try connection.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").rows { $0.text(0) }
        #expect(tables == ["calls", "change_index", "change_paths", "changes", "entries", "handlers", "sessions"])
        let journal = try Journal(path: path)
        #expect(try journal.recordedSession(1) == before)
        #expect(try journal.handlerRecords(in: 2) == [HandlerRecord(seq: 1, started: 0, records: [])])
    }

    @Test("removing a session removes its handler records with it")
    func pruneRemovesHandlerRecords() async throws {
        let path = directory.path("pruned.actionlog")
        for name in ["one", "two"] {
            let recorder = try await ViewModelRecorder<Counter, CounterAction>(
                path: path, sessionName: name, handle: { _ in }, snapshot: { Counter() })
            recorder.send(.increment)
            await recorder.settle()
            recorder.close()
        }
        let journal = try Journal(path: path, mode: .readWrite)
        let report = try journal.prune(RetentionPolicy(maximumSessions: 1))
        #expect(report.removed.map(\.id) == [1])
        let connection = try Connection(path: path, mode: .readOnly)
        #expect(try connection.scalarInt("SELECT count(*) FROM handlers WHERE session_id = 1") == 0)
        #expect(try connection.scalarInt("SELECT count(*) FROM handlers WHERE session_id = 2") == 1)
    }

    @Test(
        "damaged handler rows of every kind are refused naming the entry",
        arguments: [
            ("UPDATE calls SET checksum = NULL, kind = 'other'", #"entry 1: call 0 is of an unknown kind "other""#),
            ("UPDATE calls SET checksum = NULL, idx = 3", "entry 1: call 3 is out of order: call 0 was expected"),
            ("DELETE FROM handlers", "entry 1: call 0 belongs to no handler"),
            ("UPDATE calls SET checksum = NULL, error = '{}'", "entry 1: call 0 must hold a result or an error, not both or neither"),
            ("UPDATE calls SET checksum = NULL, answered = -1", "entry 1: answered -1 is out of range"),
            ("UPDATE calls SET checksum = NULL, result = '{bad'", "entry 1: the result of a handler record is not JSON: invalid JSON at byte 1: unexpected character \"b\""),
            ("UPDATE handlers SET checksum = NULL, started = 'x'", "entry 1: started holds text, not an integer"),
        ])
    func damagedRowKinds(edit: String, message: String) async throws {
        let path = directory.path("kinds.actionlog")
        let service = RecordedService("S")
        let recorder = try await ViewModelRecorder<Counter, CounterAction>(
            path: path, sessionName: "kinds", handle: { _ in _ = try? await service.call("m") { 1 } }, snapshot: { Counter() })
        recorder.send(.increment)
        await recorder.settle()
        recorder.close()
        #expect(try Journal(path: path).handlerRecords(in: 1).map(\.calls.count) == [1])
        let connection = try Connection(path: path, mode: .readWrite)
        try connection.execute("PRAGMA ignore_check_constraints = ON; " + edit)
        connection.close()
        let error = #expect(throws: ActionLogError.self) { try Journal(path: path).handlerRecords(in: 1) }
        #expect(error?.description == "kinds.actionlog, session 1, " + message)
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
        let error = #expect(throws: ActionLogError.self) { try Journal(path: path).handlerRecords(in: 1) }
        #expect(error?.description == "damaged.actionlog, session 1, entry 1: the arguments of call 0 are not a JSON array")
        #expect(try Journal(path: path).verify().findings.map(\.description) == ["session 1, entry 1: the arguments of call 0 are not a JSON array"])
    }
}
