import Foundation
import Testing
@testable import ActionLog

@Suite("Checksums: every entry, handler and call row carries a CRC-32C of its content")
struct ChecksumTests {
    let directory = TemporaryDirectory()

    @Test("CRC-32C matches the published test vectors (RFC 3720 B.4, and the check value of \"123456789\")")
    func vectors() {
        #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
        #expect(CRC32C.checksum([UInt8](repeating: 0, count: 32)) == 0x8A91_36AA)
        #expect(CRC32C.checksum([UInt8](repeating: 0xFF, count: 32)) == 0x62A8_AB43)
        #expect(CRC32C.checksum((0..<32).map(UInt8.init)) == 0x46DD_794E)
        #expect(CRC32C.checksum((0..<32).reversed().map(UInt8.init)) == 0x113F_DB5C)
        #expect(CRC32C.checksum([UInt8]()) == 0)
        // Every length around the eight-byte steps gives what a byte at a time gives.
        let bytes = (0..<100).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        for count in 0...bytes.count {
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes.prefix(count) {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
            }
            #expect(CRC32C.checksum(bytes.prefix(count)) == ~crc, "length \(count)")
        }
    }

    /// A closed session of `count` counter actions, its effects every third entry.
    private func record(_ path: String, count: Int = 5) throws -> JournalSession.ID {
        let recorder = try Recorder<Counter, CounterAction, CounterEffect>(
            path: path, sessionName: "checked", initialState: Counter(), configuration: configuration(ErrorLog()))
        let reduce = recorder.recording(reduceCounter)
        var state = Counter()
        for index in 0..<count { _ = reduce(&state, index.isMultiple(of: 3) ? .add(index) : .increment) }
        recorder.close()
        return recorder.sessionID
    }

    @Test("a recorder stores a checksum with every entry; every reader reads the file as before")
    func written() throws {
        let path = directory.path("written.actionlog")
        let id = try record(path)
        let connection = try Connection(path: path, mode: .readOnly)
        let unchecked = try connection.scalarInt("SELECT count(*) FROM entries WHERE checksum IS NULL")
        #expect(unchecked == 0)
        let journal = try Journal(path: path)
        #expect(try journal.entries(in: id).count == 6)
        var walk = StateWalk(file: "written", session: id)
        for entry in try journal.entries(in: id) { try walk.advance(past: entry) }
        #expect(try journal.state(at: 5, in: id) == walk.state)
        let verification = try journal.verify()
        #expect(verification.isValid && verification.notes.isEmpty)
    }

    @Test("a changed action, label, time or state: each reader of the row names the file, the session and the entry")
    func mismatch() throws {
        let path = directory.path("mismatch.actionlog")
        let id = try record(path)
        // A change SQLite's checks accept and the JSON still parses: only the checksum tells.
        try sql(path, #"UPDATE entries SET action = '{"increment":{}}' WHERE session_id = \#(id) AND seq = 4"#)
        let journal = try Journal(path: path)
        let expected = "mismatch.actionlog, session \(id), entry 4: the entry does not match its checksum: its bytes changed after ActionLog wrote it"
        #expect(throws: ActionLogError.self) { try journal.entries(in: id) }
        do {
            _ = try journal.entry(4, in: id)
            Issue.record("the changed entry was read")
        } catch {
            #expect(error.description == expected)
            #expect(error.code == .corrupt)
        }
        var timeline = try journal.timelineCursor(in: id, from: 4)
        #expect(throws: ActionLogError.self) { _ = try timeline.next() }
        // The state walk reads no action: its half of the checksum matches.
        _ = try journal.state(at: 4, in: id)
        let verification = try journal.verify()
        #expect(verification.findings.map(\.description) == [
            "session \(id), entry 4: the entry does not match its checksum: its bytes changed after ActionLog wrote it"
        ])

        try sql(path, "UPDATE entries SET time = time + 1 WHERE session_id = \(id) AND seq = 2")
        // A state's bytes: its JSON parses and its delta applies, to another state.
        try sql(path, #"UPDATE entries SET state = replace(replace(state, '"count":', '"count":1'), '"value":', '"value":1') WHERE session_id = \#(id) AND seq = 3"#)
        let changed = try Journal(path: path)
        do {
            _ = try changed.state(at: 3, in: id)
            Issue.record("the changed state was read")
        } catch {
            #expect(error.description == "mismatch.actionlog, session \(id), entry 3: the entry does not match its checksum: its bytes changed after ActionLog wrote it")
        }
        #expect(try changed.verify().findings.map(\.entry) == [2, 3, 4])
    }

    @Test("a checksum stored as text is refused, naming the entry")
    func misstored() throws {
        let path = directory.path("misstored.actionlog")
        let id = try record(path)
        try sql(path, "UPDATE entries SET checksum = 'x' WHERE session_id = \(id) AND seq = 1")
        #expect(throws: ActionLogError.self) { try Journal(path: path).entries(in: id) }
        #expect(try Journal(path: path).verify().findings.map(\.description) == [
            "session \(id), entry 1: the checksum of the entry is not stored as an integer: the row changed after ActionLog wrote it"
        ])
    }

    @Test("rows written before checksums read and verify as before; verify says they have none, and a writer adds the column")
    func older() throws {
        let path = directory.path("older.actionlog")
        let id = try record(path, count: 3)
        // As an ActionLog before checksums leaves the file: rows without one.
        try sql(path, "UPDATE entries SET checksum = NULL")
        let journal = try Journal(path: path)
        #expect(try journal.entries(in: id).count == 4)
        let verification = try journal.verify()
        #expect(verification.isValid)
        #expect(verification.notes.map(\.description) == [
            "session \(id): 4 entries without checksums (written before ActionLog checksummed its rows): a change to their bytes that SQLite's checks accept goes unnoticed"
        ])
        // A file without the column at all (made before it existed): read as it is.
        let bare = directory.path("bare.actionlog")
        try FileManager.default.copyItem(atPath: path, toPath: bare)
        for table in ["entries", "handlers", "calls"] { try sql(bare, "ALTER TABLE \(table) DROP COLUMN checksum") }
        #expect(try Journal(path: bare).entries(in: id).count == 4)
        #expect(try Journal(path: bare).verify().notes.count == 1)
        // A writer of this version adds the column, and checksums what it writes from then on.
        let second = try record(bare, count: 2)
        let connection = try Connection(path: bare, mode: .readOnly)
        #expect(try connection.scalarInt("SELECT count(*) FROM entries WHERE session_id = \(second) AND checksum IS NOT NULL") == 3)
        #expect(try Journal(path: bare).verify().notes.map(\.session) == [id])
    }

    @Test("a file cut short by one byte: verify names the damage")
    func truncated() throws {
        let path = directory.path("cut.actionlog")
        _ = try record(path)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes.removeLast()
        let cut = directory.path("cut-short.actionlog")
        try bytes.write(to: URL(fileURLWithPath: cut))
        let findings = try Journal(path: cut).verify().findings.map(\.description)
        let pages = (bytes.count + 1) / 16_384
        #expect(findings.first == """
            the file is \(Journal.grouped(bytes.count)) bytes, where its header says \(pages) pages of 16,384 bytes \
            (\(Journal.grouped(bytes.count + 1)) bytes): it was cut short, and SQLite reads the missing byte as zeros
            """)
    }

    @Test("a changed call or handler row is refused by every reader of handler records, naming the entry and the call")
    func handlerRows() throws {
        let path = directory.path("handlers.actionlog")
        let journal = try Journal(path: path, mode: .readWrite)
        let call = ServiceCall(service: "Prices", method: "quote", arguments: [.string("tea")], outcome: .returned(.number("2")), answered: 2)
        var session = tinySession()
        session.handlers = [HandlerRecord(seq: 1, started: 0, records: [.call(call)])]
        let id = try journal.insert(session)
        #expect(try journal.handlerRecords(in: id).count == 1)
        try sql(path, "UPDATE calls SET answered = 0 WHERE session_id = \(id)")
        do {
            _ = try Journal(path: path).handlerRecords(in: id)
            Issue.record("the changed call was read")
        } catch {
            #expect(error.description == "handlers.actionlog, session \(id), entry 1: call 0 does not match its checksum: its bytes changed after ActionLog wrote it")
        }
        try sql(path, "UPDATE calls SET answered = 2 WHERE session_id = \(id)")
        try sql(path, "UPDATE handlers SET started = 1 WHERE session_id = \(id)")
        #expect(try Journal(path: path).verify().findings.map(\.description) == [
            "session \(id), entry 1: the handler record does not match its checksum: its bytes changed after ActionLog wrote it"
        ])
    }
}
