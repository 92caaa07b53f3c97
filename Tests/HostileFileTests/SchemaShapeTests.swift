import ActionLog
import Foundation
import HostileFileSupport
import Testing

/// Journals whose schema ActionLog did not write: a view where a table belongs, a table without its
/// primary key, a column computed on read, a trigger. Each made from the hostile fixture by SQL.
@Suite("Hostile files: schemas ActionLog did not write")
struct SchemaShapeTests {
    let directory: TemporaryDirectory
    let maker: MutantMaker

    init() throws {
        directory = try TemporaryDirectory()
        maker = MutantMaker(fixture: try HostileFixture(in: directory), directory: directory)
    }

    private func journal(_ name: String, _ statements: [String]) throws -> String {
        let path = directory.path(name)
        try Data(try maker.apply(statements.map { SQLEdit($0, []) })).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func openError(_ path: String, mode: Journal.AccessMode = .readOnly) -> String? {
        do {
            _ = try Journal(path: path, mode: mode)
            return nil
        } catch {
            return error.description
        }
    }

    @Test("a view, a table without its primary key or a computed column is refused by name before anything is read")
    func refusedShapes() throws {
        let endless = try journal("endless.actionlog", [
            "ALTER TABLE entries RENAME TO stored",
            """
            CREATE VIEW entries AS WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n)
            SELECT 1 AS session_id, i AS seq, 'delta' AS kind, 1.0 AS time, 'x' AS label, NULL AS action, '[]' AS state,
                   NULL AS effect, NULL AS duration_ns, NULL AS dropped, NULL AS note FROM n
            """,
        ])
        let unkeyed = try journal("unkeyed.actionlog", [
            "CREATE TABLE copied AS SELECT * FROM entries", "DROP TABLE entries", "ALTER TABLE copied RENAME TO entries",
        ])
        let rekeyed = try journal("rekeyed.actionlog", [
            "CREATE TABLE copied (session_id INTEGER, seq INTEGER PRIMARY KEY, kind TEXT, time REAL, label TEXT, action TEXT, state TEXT, effect TEXT, duration_ns INTEGER, dropped INTEGER, note TEXT)",
            "DROP TABLE entries", "ALTER TABLE copied RENAME TO entries",
        ])
        let computed = try journal("computed.actionlog", [
            "ALTER TABLE sessions ADD COLUMN padding TEXT GENERATED ALWAYS AS (printf('%.*c', 100000000, 'a')) VIRTUAL",
        ])
        let expected = [
            (endless, "endless.actionlog: its entries table is a view, where a journal has a table; ActionLog does not read it (a view may compute rows without end)"),
            (unkeyed, "unkeyed.actionlog: its entries table has no primary key, where a journal's is (session_id, seq); ActionLog does not read it (every page of rows would be a scan of the table)"),
            (rekeyed, "rekeyed.actionlog: its entries table has the primary key (seq), where a journal's is (session_id, seq); ActionLog does not read it (every page of rows would be a scan of the table)"),
            (computed, #"computed.actionlog: its sessions table computes the column "padding" on read, which a journal never does; ActionLog does not read it"#),
        ]
        for (path, message) in expected {
            #expect(openError(path) == message)
            #expect(openError(path, mode: .readWrite) == message)
        }
    }

    @Test("a trigger: readers read the journal, verify reports it, every writer refuses the file and stores nothing")
    func trigger() throws {
        let path = try journal("triggered.actionlog", [
            "CREATE TRIGGER \"swallow\" BEFORE INSERT ON entries BEGIN SELECT RAISE(IGNORE); END",
        ])
        let refusal = """
            the trigger "swallow" on "entries": a journal never has one; it would run on ActionLog's writes and could \
            drop or change them, so ActionLog does not write to the file (remove it with `sqlite3 FILE 'DROP TRIGGER "swallow"'`)
            """
        let journal = try Journal(path: path)
        let sessions = try journal.sessions().count
        #expect(try journal.verify().findings.map(\.description) == [refusal])
        #expect(openError(path, mode: .readWrite) == "triggered.actionlog: " + refusal)
        let text = directory.path("session.jsonl")
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: text, isDirectory: false).creatingEmpty())
        try journal.exportJSONL(1, to: handle)
        try handle.close()
        let imported = #expect(throws: ActionLogError.self) { try Journal.importJSONL(at: URL(fileURLWithPath: text), into: path) }
        #expect(imported?.description == "triggered.actionlog: " + refusal)
        #expect(try Journal(path: path).sessions().count == sessions)
    }
}

extension URL {
    /// Creates an empty file here (replacing one) and returns the URL.
    fileprivate func creatingEmpty() -> URL {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        return self
    }
}
