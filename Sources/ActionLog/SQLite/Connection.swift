import CSQLite
import Foundation

/// One SQLite connection (`sqlite3*`). Not thread-safe: a connection lives on one executor
/// (the recorder's writer thread) or behind a lock (a ``Journal``), and its handle never leaves it.
///
/// Opening follows <https://www.sqlite.org/c3ref/open.html>; a writable connection is switched to
/// WAL (<https://www.sqlite.org/wal.html>) and the answer is checked, uses `synchronous=NORMAL`
/// and a busy timeout. A reader opens the file `SQLITE_OPEN_READONLY` through a URI filename
/// (<https://www.sqlite.org/uri.html>), with `immutable=1` when ``JournalFile`` says so.
final class Connection {
    enum Mode: Sendable {
        /// Read and write; create the file if it does not exist.
        case readWrite
        /// `SQLITE_OPEN_READONLY`: used by readers such as the Replayer and the CLI.
        case readOnly
    }

    let handle: OpaquePointer
    let path: String
    let mode: Mode
    /// Opened with `immutable=1`: SQLite takes no lock and reads no `-wal`, and so creates no file.
    let isImmutable: Bool
    private var statementCache: [String: Statement] = [:]
    /// Which tables have a `checksum` column, once ``Checksums/tablesWithColumn(_:)`` has asked.
    var checksummedTables: Set<String>?
    /// Set by ``close()``: the handle is gone, and using the connection is a bug (it traps).
    private(set) var isClosed = false

    /// Opens the database at `path`.
    ///
    /// - Parameters:
    ///   - path: the database file.
    ///   - mode: read and write, or read-only.
    ///   - immutable: for a read-only connection, open with `immutable=1`
    ///     (<https://www.sqlite.org/uri.html#uriimmutable>): only for a file in WAL mode that has no
    ///     `-wal` beside it, which SQLite would otherwise create.
    ///   - busyTimeout: how long a statement waits for another connection's lock.
    /// - Throws: ``SQLiteError`` when SQLite cannot open the file or configure the connection.
    init(path: String, mode: Mode, immutable: Bool = false, busyTimeout: Duration = .seconds(5)) throws(SQLiteError) {
        var handle: OpaquePointer?
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
        let filename: String
        switch mode {
        case .readWrite:
            flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
            filename = path
        case .readOnly:
            flags |= SQLITE_OPEN_READONLY
            filename = Self.readOnlyURI(path, immutable: immutable)
        }
        let code = sqlite3_open_v2(filename, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let error = SQLiteError(code: code, connection: handle)
            // A handle is returned even when opening fails, and must be closed.
            sqlite3_close_v2(handle)
            throw error
        }
        self.handle = handle
        self.path = path
        self.mode = mode
        self.isImmutable = mode == .readOnly && immutable
        sqlite3_extended_result_codes(handle, 1)
        let milliseconds = busyTimeout.components.seconds * 1000 + busyTimeout.components.attoseconds / 1_000_000_000_000_000
        sqlite3_busy_timeout(handle, Int32(clamping: milliseconds))
        // Never let the file be read as if it were trusted: a corrupt schema cannot run triggers or views.
        var ignored: Int32 = 0
        _ = actionlog_db_config_int(handle, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, &ignored)
        _ = actionlog_db_config_int(handle, SQLITE_DBCONFIG_DEFENSIVE, 1, &ignored)
    }

    deinit {
        close()
    }

    /// A URI filename that opens `path` read-only: `file:` and the path with `%`, `?` and `#`
    /// escaped, then `?mode=ro`, and `&immutable=1` when asked.
    static func readOnlyURI(_ path: String, immutable: Bool) -> String {
        var escaped = ""
        for character in path.unicodeScalars {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3F"
            case "#": escaped += "%23"
            default: escaped.unicodeScalars.append(character)
            }
        }
        // An absolute path gets an empty authority (`file:///...`), so a path that starts with `//`
        // is not read as a host name.
        let prefix = path.hasPrefix("/") ? "file://" : "file:"
        return prefix + escaped + "?mode=ro" + (immutable ? "&immutable=1" : "")
    }

    /// Whether SQLite opened the database read-only: asked to open it for writing, SQLite opens a
    /// file this user may not write read-only, and says so only at the first write.
    var isReadOnly: Bool {
        sqlite3_db_readonly(handle, "main") == 1
    }

    /// Closes the connection; later calls do nothing, and the connection must not be used after.
    ///
    /// A writable connection to a file in WAL mode first folds the log into the database file
    /// (`PRAGMA wal_checkpoint(TRUNCATE)`) and, when no other connection has the file open, switches
    /// it back to a rollback journal (`PRAGMA journal_mode = DELETE`), which removes the `-wal` and
    /// `-shm` files: the journal is one self-contained file again, which readers open without
    /// creating anything beside it. With another connection open, the file stays in WAL mode and
    /// the last writer to close does it. Neither step waits for another connection: it is given up.
    /// See <https://www.sqlite.org/pragma.html#pragma_wal_checkpoint>.
    func close() {
        guard !isClosed else { return }
        if mode == .readWrite { foldWriteAheadLog() }
        isClosed = true
        statementCache.removeAll()
        sqlite3_close_v2(handle)
    }

    private func foldWriteAheadLog() {
        guard sqlite3_get_autocommit(handle) != 0, pragma("PRAGMA journal_mode")?.lowercased() == "wal" else { return }
        sqlite3_busy_timeout(handle, 0)
        // Both return a row, and `SQLITE_BUSY` (in the row or as the result) while another connection
        // reads or writes: the log then stays, and everything committed is in it.
        _ = pragma("PRAGMA wal_checkpoint(TRUNCATE)")
        _ = pragma("PRAGMA journal_mode = DELETE")
    }

    /// The first column of a pragma's first row, or `nil` on any error. Through the C API alone, no
    /// ``Statement``: ``close()`` runs from `deinit`, where no reference to `self` may be taken.
    private func pragma(_ sql: String) -> String? {
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement,
            sqlite3_step(statement) == SQLITE_ROW, let text = sqlite3_column_text(statement, 0)
        else { return nil }
        return String(cString: text)
    }

    // MARK: - Configuration

    /// Switches a writable connection to WAL with `synchronous=NORMAL`, and checks that SQLite agreed.
    ///
    /// - Throws: ``SQLiteError`` when the file refuses WAL (for example on a file system without shared memory).
    func enableWriteAheadLog() throws(SQLiteError) {
        let answer = try scalarText("PRAGMA journal_mode = WAL")
        guard answer?.lowercased() == "wal" else {
            throw SQLiteError(
                code: SQLITE_ERROR,
                message: "journal_mode is \(answer ?? "unknown") instead of wal",
                sql: "PRAGMA journal_mode = WAL"
            )
        }
        try execute("PRAGMA synchronous = NORMAL")
        try execute("PRAGMA foreign_keys = ON")
    }

    // MARK: - Executing

    /// Runs one or more statements that take no parameters (`sqlite3_exec`).
    func execute(_ sql: String) throws(SQLiteError) {
        precondition(!isClosed, "a closed connection was used")
        var errorMessage: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        defer { sqlite3_free(errorMessage) }
        guard code == SQLITE_OK else {
            throw SQLiteError(code: code, message: errorMessage.map { String(cString: $0) }, sql: sql)
        }
    }

    /// Prepares a one-off statement.
    func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        try Statement(connection: self, sql: sql, persistent: false)
    }

    /// Returns a prepared statement kept for the life of the connection: for statements that run often.
    ///
    /// - Parameters:
    ///   - sql: the statement, which is also the key it is kept under.
    ///   - description: the SQL that error messages name, when not `sql`; see ``Statement``.
    func cachedStatement(_ sql: String, describedAs description: String? = nil) throws(SQLiteError) -> Statement {
        if let statement = statementCache[sql] { return statement }
        let statement = try Statement(connection: self, sql: sql, describedAs: description, persistent: true)
        statementCache[sql] = statement
        return statement
    }

    /// The first column of the first row as an integer, or `nil` when there is no row.
    func scalarInt(_ sql: String, _ values: [SQLiteValue] = []) throws -> Int64? {
        try prepare(sql).firstRow(values) { $0.optionalInt(0) } ?? nil
    }

    /// The first column of the first row as text, or `nil` when there is no row.
    func scalarText(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> String? {
        let statement = try prepare(sql)
        try statement.bind(values)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        return Row(statement: statement).text(0)
    }

    /// Whether the file has a table named `name` (a version-1 journal read as it is has no `calls`).
    func hasTable(_ name: String) throws -> Bool {
        try scalarInt("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?1", [.text(name)]) != nil
    }

    /// The rowid of the last successful `INSERT`.
    var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    // MARK: - Transactions

    /// Begins a read transaction and starts reading, so that every statement until
    /// ``endReadTransaction()`` reads the same committed state of the file
    /// (<https://www.sqlite.org/isolation.html>).
    ///
    /// - Throws: ``SQLiteError`` when the file cannot be read.
    func beginReadTransaction() throws(SQLiteError) {
        try execute("BEGIN DEFERRED")
        do {
            // A deferred transaction takes its snapshot at its first read.
            _ = try scalarText("SELECT count(*) FROM sqlite_schema")
        } catch {
            endReadTransaction()
            throw error
        }
    }

    /// Ends the transaction ``beginReadTransaction()`` began.
    func endReadTransaction() {
        if (try? execute("COMMIT")) == nil, sqlite3_get_autocommit(handle) == 0 {
            try? execute("ROLLBACK")
        }
    }

    /// Runs `body` inside `BEGIN IMMEDIATE` ... `COMMIT`, rolling back if it throws.
    ///
    /// - Throws: whatever `body` throws, or ``SQLiteError`` when beginning or committing fails
    ///   (the transaction is then rolled back).
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            // After some errors (SQLITE_FULL, SQLITE_IOERR) SQLite has already rolled back.
            if sqlite3_get_autocommit(handle) == 0 {
                try? execute("ROLLBACK")
            }
            throw error
        }
    }
}
