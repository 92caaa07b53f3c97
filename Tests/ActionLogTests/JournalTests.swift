import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import ActionLog

@Suite("Journal: schema, opening, refusal")
struct JournalTests {
    let directory = TemporaryDirectory()

    @Test("a new journal gets schema v2 and the application id; WAL while open for writing, a rollback journal once closed")
    func createsSchema() throws {
        let path = directory.path("new.actionlog")
        var writer: Journal? = try Journal(path: path, mode: .readWrite)
        #expect(try Connection(path: path, mode: .readOnly).scalarText("PRAGMA journal_mode") == "wal")
        _ = writer
        writer = nil
        let connection = try Connection(path: path, mode: .readOnly)
        #expect(try connection.scalarInt("PRAGMA user_version") == 3)
        #expect(try connection.scalarInt("PRAGMA application_id") == 0x4143_4C47)
        #expect(try connection.scalarText("PRAGMA journal_mode") == "delete")
        let tables = try connection.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").rows { $0.text(0) }
        #expect(tables == ["calls", "change_index", "change_paths", "changes", "entries", "handlers", "sessions"])
        #expect(try Journal(path: path).sessions().isEmpty)
    }

    @Test("opening an existing journal for writing again keeps it")
    func reopens() throws {
        let path = directory.path("again.actionlog")
        let recorder = try CounterRecorder(path: path, sessionName: "one", initialState: Counter())
        recorder.close()
        _ = try Journal(path: path, mode: .readWrite)
        #expect(try Journal(path: path).sessions().map(\.name) == ["one"])
    }

    @Test("a reader never creates a file")
    func missingFile() throws {
        let path = directory.path("missing.actionlog")
        let error = #expect(throws: ActionLogError.self) { try Journal(path: path) }
        #expect(error?.description == "missing.actionlog: no such file (looked for \(path))")
        #expect(error?.code == .fileNotFound)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("a file that is not SQLite is refused by name, for reading and for writing")
    func notSQLite() throws {
        let path = directory.path("notes.actionlog")
        try Data(String(repeating: "these are not the bytes of a database\n", count: 200).utf8).write(to: URL(fileURLWithPath: path))
        for mode in [Journal.AccessMode.readOnly, .readWrite] {
            let error = #expect(throws: ActionLogError.self) { try Journal(path: path, mode: mode) }
            #expect(error?.description == "notes.actionlog: not an SQLite database, so not an ActionLog journal")
            #expect(error?.code == .notADatabase)
        }
        let recorderError = #expect(throws: ActionLogError.self) {
            try CounterRecorder(path: path, sessionName: "s", initialState: Counter())
        }
        #expect(recorderError?.code == .notADatabase)
    }

    @Test("a named pipe or a device is refused by name, for reading and for writing, without waiting on it")
    func specialFiles() throws {
        let pipe = directory.path("pipe.actionlog")
        #expect(mkfifo(pipe, 0o600) == 0)
        for mode in [Journal.AccessMode.readOnly, .readWrite] {
            let error = #expect(throws: ActionLogError.self) { try Journal(path: pipe, mode: mode) }
            #expect(error?.description == "pipe.actionlog: a named pipe, not an ActionLog journal (\(pipe))")
            #expect(error?.code == .notAJournal)
        }
        let device = #expect(throws: ActionLogError.self) { try Journal(path: "/dev/null") }
        #expect(device?.description == "null: a character device, not an ActionLog journal (/dev/null)")
    }

    @Test("an SQLite database that is not a journal is refused and left unchanged")
    func foreignDatabase() throws {
        let path = directory.path("accounts.db")
        try sql(path, "CREATE TABLE accounts (id INTEGER PRIMARY KEY, owner TEXT); CREATE TABLE users (id INTEGER);")
        for mode in [Journal.AccessMode.readOnly, .readWrite] {
            let error = #expect(throws: ActionLogError.self) { try Journal(path: path, mode: mode) }
            #expect(error?.description == "accounts.db: an SQLite database, but not an ActionLog journal (application_id 0, tables: accounts, users)")
            #expect(error?.code == .notAJournal)
        }
        let connection = try Connection(path: path, mode: .readOnly)
        #expect(try connection.scalarText("PRAGMA journal_mode") == "delete")
        #expect(try connection.scalarInt("SELECT count(*) FROM sqlite_schema WHERE name = 'entries'") == 0)
    }

    @Test("an empty SQLite file is not a journal for a reader")
    func emptyFileForReader() throws {
        let path = directory.path("empty.actionlog")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let error = #expect(throws: ActionLogError.self) { try Journal(path: path) }
        #expect(error?.description == "empty.actionlog: an empty SQLite database, not an ActionLog journal")
    }

    @Test("a journal from a newer schema version is refused with what to do")
    func newerVersion() throws {
        let path = directory.path("future.actionlog")
        _ = try Journal(path: path, mode: .readWrite)
        try sql(path, "PRAGMA user_version = 7")
        for mode in [Journal.AccessMode.readOnly, .readWrite] {
            let error = #expect(throws: ActionLogError.self) { try Journal(path: path, mode: mode) }
            #expect(error?.description == "future.actionlog: written with journal schema version 7, but this ActionLog reads versions up to 3; update ActionLog to read it")
            #expect(error?.code == .newerSchema)
        }
    }

    @Test("unknown sessions and entries are named in the error")
    func unknownSessionAndEntry() throws {
        let path = directory.path("s.actionlog")
        let recorder = try CounterRecorder(path: path, sessionName: "s", initialState: Counter())
        recorder.record(action: .increment, state: Counter(count: 1, history: [1]), effect: nil)
        recorder.close()
        let journal = try Journal(path: path)
        #expect(throws: ActionLogError(.sessionNotFound, file: "s.actionlog", session: 42, reason: "no such session")) {
            try journal.session(42)
        }
        #expect(throws: ActionLogError(.entryNotFound, file: "s.actionlog", session: 1, entry: 9, reason: "no such entry")) {
            try journal.state(at: 9, in: 1)
        }
    }

    @Test("a damaged entry is reported with file, session and entry")
    func damagedEntry() throws {
        let path = directory.path("damaged.actionlog")
        let recorder = try CounterRecorder(path: path, sessionName: "s", initialState: Counter())
        recorder.record(action: .increment, state: Counter(count: 1, history: [1]), effect: nil)
        recorder.close()
        try sql(path, "UPDATE entries SET checksum = NULL, state = '{\"count\": 1,' WHERE seq = 1")
        let journal = try Journal(path: path)
        let error = #expect(throws: ActionLogError.self) { try journal.state(at: 1, in: 1) }
        #expect(error?.description == "damaged.actionlog, session 1, entry 1: the state is not valid JSON: invalid JSON at byte 12: unexpected end of text")
        let verification = try journal.verify()
        #expect(verification.findings.map(\.description) == [
            "session 1, entry 1: the state is not valid JSON: invalid JSON at byte 12: unexpected end of text"
        ])
    }

    @Test("verify reports missing entries and gap counts that do not add up")
    func verifyFindings() throws {
        let path = directory.path("v.actionlog")
        let recorder = try CounterRecorder(path: path, sessionName: "s", initialState: Counter())
        for _ in 0..<4 { recorder.record(action: .increment, state: Counter(), effect: nil) }
        recorder.close()
        #expect(try Journal(path: path).verify().isValid)
        try sql(path, "DELETE FROM entries WHERE seq = 2; UPDATE sessions SET dropped = 3;")
        let verification = try Journal(path: path).verify()
        #expect(verification.sessions == 1)
        #expect(verification.entries == 4)
        #expect(verification.findings.map(\.description) == [
            "session 1, entry 2: missing: the entry is not in the file",
            "session 1: the session counts 3 dropped actions, but its gaps add up to 0",
        ])
    }

    @Test("a message lists the sessions' distinct names in order, the first few and how many more")
    func quotedNames() {
        func sessions(_ names: [String]) -> [JournalSession] {
            names.enumerated().map { index, name in
                JournalSession(id: JournalSession.ID(index + 1), header: SessionHeader(
                    name: name, startedAt: Date(timeIntervalSince1970: 0), endedAt: nil, status: .closed,
                    libraryVersion: "0.1.0", appVersion: nil, stateType: "S", actionType: "A", effectType: nil, metadata: [:],
                    entryCount: 1, droppedCount: 0, lastEntryAt: nil))
            }
        }
        #expect(sessions([]).quotedNames() == "none")
        #expect(sessions(["checkout", "sign in", "checkout"]).quotedNames() == #""checkout", "sign in""#)
        #expect(sessions(["a", "b", "c", "d", "b"]).quotedNames(limit: 2) == #""a", "b" and 2 more"#)
        #expect(sessions(["a", "b"]).quotedNames(limit: 2) == #""a", "b""#)
    }
}
