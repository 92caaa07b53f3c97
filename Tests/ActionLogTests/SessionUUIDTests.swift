import Foundation
import Testing
@testable import ActionLog

@Suite("A session is one session everywhere: its uuid")
struct SessionUUIDTests {
    let directory = TemporaryDirectory()

    private func record(_ name: String, into path: String, actions: Int = 3) throws -> JournalSession.ID {
        let recorder = try CounterRecorder(path: path, sessionName: name, initialState: Counter(), configuration: configuration(ErrorLog()))
        var state = Counter()
        let reduce = recorder.recording(reduceCounter)
        for _ in 0..<actions { _ = reduce(&state, .increment) }
        recorder.close()
        return recorder.sessionID
    }

    /// `fixtures/checkout.actionlog`: a journal recorded before sessions had ids.
    private func copyOfOldFixture() throws -> String {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("fixtures/checkout.actionlog")
        let path = directory.path("old.actionlog")
        try FileManager.default.copyItem(atPath: fixture.path, toPath: path)
        return path
    }

    @Test("each recorded session has its own random uuid, stored with it, the same every time it is read and in a copy of the file")
    func recordedSessionsHaveUUIDs() throws {
        let path = directory.path("a.actionlog")
        let first = try record("one", into: path)
        let second = try record("one", into: path)
        let journal = try Journal(path: path)
        let (a, b) = (try journal.session(first), try journal.session(second))
        #expect(a.storedUUID == a.uuid && b.storedUUID == b.uuid)
        #expect(a.uuid != b.uuid)
        #expect(a.uuid.uuidString.dropFirst(14).first == "4", "a random, version-4 UUID: \(a.uuid)")
        #expect(try Journal(path: path).session(first).uuid == a.uuid)
        let copy = directory.path("copy.actionlog")
        try journal.copy(to: copy)
        #expect(try Journal(path: copy).sessions().map(\.uuid) == [a.uuid, b.uuid])
    }

    @Test("a session recorded before sessions had ids gets one derived from its header: the same read-only, after a writer adds the column, from its export and in a journal it is imported into")
    func oldSessionsDeriveTheirUUID() throws {
        let path = try copyOfOldFixture()
        let before = try Journal(path: path).session(1)
        #expect(before.storedUUID == nil)
        #expect(before.uuid.uuidString.dropFirst(14).first == "8", "a derived, version-8 UUID: \(before.uuid)")
        // A writer adds the column; the old row has no id stored, and derives the same one.
        let writer = try Journal(path: path, mode: .readWrite)
        #expect(try Connection(path: path, mode: .readOnly).scalarInt("SELECT count(*) FROM pragma_table_info('sessions') WHERE name = 'uuid'") == 1)
        #expect(try writer.session(1).uuid == before.uuid)
        // Its text form has no id either: whoever reads it derives the same one, and an import of it
        // into the journal it came from finds it there.
        let text = directory.path("old.jsonl")
        #expect(FileManager.default.createFile(atPath: text, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: text))
        try writer.exportJSONL(1, to: handle)
        try handle.close()
        let header = try #require(String(contentsOfFile: text, encoding: .utf8).split(separator: "\n").first)
        #expect(!header.contains("uuid"))
        #expect(try RecordedSession(contentsOfJSONL: URL(fileURLWithPath: text)).session.uuid == before.uuid)
        #expect(try Journal.importingJSONL(at: URL(fileURLWithPath: text), into: path).isAlreadyThere)
        let other = directory.path("other.actionlog")
        let imported = try Journal.importingJSONL(at: URL(fileURLWithPath: text), into: other)
        #expect(try Journal(path: other).session(imported.id).uuid == before.uuid)
    }

    @Test("importing a session the journal holds (by its uuid) is skipped and says which session it is; into another journal it keeps its uuid")
    func importKeepsAndChecksTheUUID() throws {
        let path = directory.path("source.actionlog")
        let id = try record("cart", into: path)
        let uuid = try Journal(path: path).session(id).uuid
        let text = directory.path("cart.jsonl")
        #expect(FileManager.default.createFile(atPath: text, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: text))
        try Journal(path: path).exportJSONL(id, to: handle)
        try handle.close()

        let again = try Journal.importingJSONL(at: URL(fileURLWithPath: text), into: path)
        #expect(again.isAlreadyThere && again.id == id)
        #expect(try Journal(path: path).sessions().count == 1)

        let other = directory.path("other.actionlog")
        let imported = try Journal.importingJSONL(at: URL(fileURLWithPath: text), into: other)
        #expect(!imported.isAlreadyThere)
        #expect(try Journal(path: other).session(imported.id).uuid == uuid)
        #expect(try Journal.importingJSONL(at: URL(fileURLWithPath: text), into: other).isAlreadyThere)

        // The same id with other entries (a session exported again after more were recorded, or
        // an edited file) is still that session: skipped, not stored twice.
        let edited = try String(contentsOfFile: text, encoding: .utf8).replacingOccurrences(of: "\"name\":\"cart\"", with: "\"name\":\"cart, renamed\"")
        try edited.write(toFile: text, atomically: true, encoding: .utf8)
        #expect(try Journal.importingJSONL(at: URL(fileURLWithPath: text), into: other).isAlreadyThere)

        // Inserting a session whose id the journal holds is refused, naming it.
        let recorded = try RecordedSession(contentsOfJSONL: URL(fileURLWithPath: text))
        let holder = try Journal(path: other).sessions()[0].id
        #expect(throws: ActionLogError(.invalidArgument, file: "other.actionlog", session: holder, reason: #"holds this session already: "cart" has the uuid \#(uuid.uuidString.lowercased())"#)) {
            try Journal(path: other, mode: .readWrite).insert(recorded)
        }
    }

    @Test("a text form without a uuid (written before sessions had ids) is stored without one, reading as the id derived from its header; or with a new one when a session of the journal has that id")
    func textFormWithoutUUID() throws {
        let path = directory.path("source.actionlog")
        let id = try record("search", into: path)
        var recorded = try Journal(path: path).recordedSession(id)
        recorded.session.storedUUID = nil
        let derived = recorded.session.derivedUUID
        let target = try Journal(path: directory.path("target.actionlog"), mode: .readWrite)
        let first = try target.insert(recorded)
        #expect(try target.session(first).uuid == derived)
        #expect(try target.session(first).storedUUID == nil, "stored as it was, without an id: its text exports unchanged")
        #expect(try target.recordedSession(first).jsonl() == recorded.jsonl())
        // Another recording with the same header (goldens recorded with times of zero, say).
        recorded.entries.removeLast()
        let second = try target.insert(recorded)
        let stored = try target.session(second).uuid
        #expect(stored != derived && stored.uuidString.dropFirst(14).first == "4")
    }

    @Test("a uuid column holding something else than a UUID is damage, named with the session")
    func damagedUUID() throws {
        let path = directory.path("damaged.actionlog")
        let id = try record("x", into: path)
        try sql(path, "UPDATE sessions SET uuid = 'not-a-uuid' WHERE id = \(id)")
        #expect(throws: ActionLogError(.corrupt, file: "damaged.actionlog", session: id, reason: #"the session's uuid "not-a-uuid" is not a UUID"#)) {
            try Journal(path: path).session(id)
        }
    }

    @Test("the derived id is FNV-1a over 128 bits: the published test vectors")
    func fnvVectors() {
        // FNV-1a 128 of "" is the offset basis; of "a" it is d228cb696f1a8caf78912b704e4a8964.
        var hash = FNV128()
        hash.addBytes([])
        #expect(hash.hex == "6c62272e07bb014262b821756295c58d")
        hash.addBytes(Array("a".utf8))
        #expect(hash.hex == "d228cb696f1a8caf78912b704e4a8964")
    }
}
