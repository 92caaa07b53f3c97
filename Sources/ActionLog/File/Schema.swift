/// The journal's SQL schema and its forward migrations. The file-format article of the DocC catalog documents it for people.
enum Schema {
    /// `PRAGMA application_id` of every journal: "ACLG" in ASCII. Tells a journal from another SQLite file.
    static let applicationID: Int64 = 0x4143_4C47

    /// The schema version this library writes (`PRAGMA user_version`).
    static let currentVersion: Int64 = 3

    /// The oldest version a reader reads as it is, without migrating: version 2 only added tables
    /// (`handlers`, `calls`), so a version-1 file reads as a journal whose sessions have none;
    /// version 3 only allows more (a delta after a gap), so a version-2 file reads as it is.
    static let oldestReadableVersion: Int64 = 1

    /// The page size of a journal this library creates (`PRAGMA page_size`), in bytes; SQLite's
    /// default is 4,096. Set once, before the file's first write: an existing journal keeps its own.
    ///
    /// A keyframe of more than about 1,000 bytes does not fit in a 4 KiB page of the `entries`
    /// table: SQLite moves the rest to an overflow page of its own, which it fills only partly. At
    /// 16 KiB a state of up to about 4,000 bytes stays in its row, a larger one spreads over four
    /// times fewer pages, and a reader asks the operating system for four times fewer pages. Measured
    /// on journals of the benchmark's sessions: a search session whose every entry is a 2.4 KB
    /// keyframe takes 41% less space and rebuilds faster; a session of small deltas (a counter, a
    /// 100-item cart) grows by a few percent or a few pages. A commit writes whole pages to the log,
    /// so a commit of one small entry writes 16 KiB instead of 4 KiB; the writer commits by batches.
    static let pageSize = 16_384

    /// The UTF-8 bytes of the texts of one `calls` row (a service call or an output event), as an
    /// SQL expression over its columns: what retention and `Journal.statistics(in:)` count of it.
    static let callTextBytes = """
        coalesce(length(CAST(service AS BLOB)), 0) + coalesce(length(CAST(name AS BLOB)), 0)
            + coalesce(length(CAST(arguments AS BLOB)), 0) + coalesce(length(CAST(result AS BLOB)), 0)
            + coalesce(length(CAST(error AS BLOB)), 0) + coalesce(length(CAST(event AS BLOB)), 0)
        """

    /// Migrations by the version they produce. Each runs in the transaction that sets `user_version`;
    /// one without SQL changes what the file may hold, not its tables.
    static let migrations: [(version: Int64, sql: String)] = [
        (1, """
            CREATE TABLE sessions (
                id              INTEGER PRIMARY KEY,
                name            TEXT    NOT NULL,
                started_at      REAL    NOT NULL,
                ended_at        REAL,
                status          TEXT    NOT NULL CHECK (status IN ('recording', 'closed', 'interrupted')),
                library_version TEXT    NOT NULL,
                app_version     TEXT,
                state_type      TEXT    NOT NULL,
                action_type     TEXT    NOT NULL,
                effect_type     TEXT,
                metadata        TEXT    NOT NULL DEFAULT '{}',
                dropped         INTEGER NOT NULL DEFAULT 0
            );
            CREATE TABLE entries (
                session_id  INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
                seq         INTEGER NOT NULL,
                kind        TEXT    NOT NULL CHECK (kind IN ('keyframe', 'delta', 'gap')),
                time        REAL    NOT NULL,
                label       TEXT,
                action      TEXT,
                state       TEXT,
                effect      TEXT,
                duration_ns INTEGER,
                dropped     INTEGER,
                note        TEXT,
                PRIMARY KEY (session_id, seq)
            ) WITHOUT ROWID;
            """),
        // Version 2: the records of asynchronous handlers (actor ViewModels, event MVVM). Additive:
        // a synchronous session has no rows in either table.
        (2, """
            CREATE TABLE handlers (
                session_id  INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
                seq         INTEGER NOT NULL,
                started     INTEGER NOT NULL,
                PRIMARY KEY (session_id, seq)
            ) WITHOUT ROWID;
            CREATE TABLE calls (
                session_id  INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
                seq         INTEGER NOT NULL,
                idx         INTEGER NOT NULL,
                kind        TEXT    NOT NULL CHECK (kind IN ('call', 'output')),
                service     TEXT,
                name        TEXT    NOT NULL,
                arguments   TEXT,
                result      TEXT,
                error       TEXT,
                event       TEXT,
                answered    INTEGER,
                PRIMARY KEY (session_id, seq, idx)
            ) WITHOUT ROWID;
            """),
        // Version 3: the entry after a gap may be a delta, from the state of the last entry before the
        // gap (a recorder no longer stores a keyframe after every gap of dropped actions). No table
        // changes: the version is what keeps an older ActionLog, whose readers take a delta after a
        // gap for damage ("a delta with no keyframe before it"), from reading or writing the file;
        // it says instead that the file was written by a newer ActionLog.
        (3, ""),
    ]

    /// What a writer adds to a journal of the current version when it is missing, without changing its
    /// version: the change index (which entries changed which paths, ``ChangeIndex``) and an index
    /// of the gap entries (for action numbers, ``ActionNumbers``). Both are for speed only: a reader
    /// answers the same questions without them, by walking the session, and an older ActionLog
    /// reads and writes the file as before (it neither reads these nor minds them). A writer of an
    /// older ActionLog leaves its sessions out of the change index: ``ChangeIndex`` tells them by
    /// `change_index`, and the next writer of this version to open the file indexes them.
    static let additions = """
        CREATE TABLE IF NOT EXISTS change_paths (
            id          INTEGER PRIMARY KEY,
            path        TEXT    NOT NULL UNIQUE
        );
        CREATE TABLE IF NOT EXISTS changes (
            session_id  INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            path_id     INTEGER NOT NULL,
            seq         INTEGER NOT NULL,
            PRIMARY KEY (session_id, path_id, seq)
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS change_index (
            session_id  INTEGER PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
            started_at  REAL    NOT NULL
        );
        CREATE INDEX IF NOT EXISTS entries_gaps ON entries (session_id, seq, dropped) WHERE kind = 'gap';
        """

    /// The names ``additions`` creates, to tell whether a file has them all.
    static let additionNames = ["change_paths", "changes", "change_index", "entries_gaps"]

    /// The column added to `sessions` after version 2, without a version bump either: each session's
    /// globally unique id (``SessionHeader/uuid``), a UUID in lowercase text. `NULL` in the rows of a
    /// session recorded before it existed (or by an older ActionLog since), whose id is derived from
    /// its header when read. Not unique: two files' copies of one old recording imported into one
    /// journal derive the same id; an import or copy refuses a session whose id is there already.
    static let sessionUUIDColumn = """
        ALTER TABLE sessions ADD COLUMN uuid TEXT;
        CREATE INDEX IF NOT EXISTS sessions_uuid ON sessions (uuid);
        """

    /// Whether the journal's `sessions` table has the `uuid` column.
    static func hasSessionUUIDs(_ connection: Connection) throws -> Bool {
        try connection.scalarInt("SELECT count(*) FROM pragma_table_info('sessions') WHERE name = 'uuid'") == 1
    }

    /// Each table of a journal and its primary key, in order: what a reader relies on to read a page
    /// of rows by key. A table of the version the file declares that is missing is left to the
    /// statements that read it, which name it.
    static let tableKeys: [(table: String, key: [String], since: Int64)] = [
        ("sessions", ["id"], 1),
        ("entries", ["session_id", "seq"], 1),
        ("handlers", ["session_id", "seq"], 2),
        ("calls", ["session_id", "seq", "idx"], 2),
        // The additions: optional, checked when present.
        ("change_paths", ["id"], 2),
        ("changes", ["session_id", "path_id", "seq"], 2),
        ("change_index", ["session_id"], 2),
    ]

    /// What is wrong with the shape of a journal's schema, as a sentence, or `nil` when it is the
    /// shape this library writes: each of its tables a table (not a view, whose rows a query may
    /// compute without end), with its primary key (without it every page of rows is a scan, and two
    /// rows may share a sequence number), and no column computed on read (a generated column can
    /// make megabytes of every row of a small file). Called on every open, before anything is read:
    /// a few reads of `sqlite_schema` and `PRAGMA table_xinfo`.
    ///
    /// - Parameter version: the file's `user_version`, which says which tables it has.
    static func shapeProblem(_ connection: Connection, version: Int64) throws -> String? {
        for (table, key, since) in tableKeys where version >= since {
            let type = try connection.prepare("SELECT type FROM sqlite_schema WHERE name = ?1 COLLATE NOCASE")
                .firstRow([.text(table)]) { $0.text(0) ?? "" }
            guard let type else { continue }
            guard type == "table" else {
                return "its \(table) table is a \(type), where a journal has a table; ActionLog does not read it (a view may compute rows without end)"
            }
            let columns = try connection.prepare("SELECT name, pk, hidden FROM pragma_table_xinfo(?1)")
                .rows([.text(table)]) { (name: $0.text(0) ?? "", pk: $0.int(1), hidden: $0.int(2)) }
            if let generated = columns.first(where: { $0.hidden != 0 }) {
                return "its \(table) table computes the column \(JSONValue.string(generated.name).canonicalText) on read, which a journal never does; ActionLog does not read it"
            }
            let primaryKey = columns.filter { $0.pk > 0 }.sorted { $0.pk < $1.pk }.map(\.name)
            guard primaryKey == key else {
                let stored = primaryKey.isEmpty ? "has no primary key" : "has the primary key (\(primaryKey.joined(separator: ", ")))"
                return "its \(table) table \(stored), where a journal's is (\(key.joined(separator: ", "))); ActionLog does not read it (every page of rows would be a scan of the table)"
            }
        }
        return nil
    }

    /// The triggers the journal holds, with their tables: a journal has none. One would run on
    /// ActionLog's own writes and could drop or change what it stores, so writers refuse the file
    /// and `verify` reports each.
    static func triggers(_ connection: Connection) throws -> [(name: String, table: String)] {
        try connection.prepare("SELECT name, tbl_name FROM sqlite_schema WHERE type = 'trigger' ORDER BY name")
            .rows { (name: $0.text(0) ?? "", table: $0.text(1) ?? "") }
    }
}
