import CSQLite
import Foundation

/// One SQLite connection (`sqlite3*`). Not thread-safe: a connection lives on one executor
/// (the recorder's writer thread) or behind a `Mutex` (a ``Journal``), and its handle never leaves it.
///
/// Opening follows <https://www.sqlite.org/c3ref/open.html>; a writable connection is switched to
/// WAL (<https://www.sqlite.org/wal.html>) and the answer is checked, uses `synchronous=NORMAL`
/// and a busy timeout.
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
    private var statementCache: [String: Statement] = [:]

    /// Opens the database at `path`.
    ///
    /// - Throws: ``SQLiteError`` when SQLite cannot open the file or configure the connection.
    init(path: String, mode: Mode, busyTimeout: Duration = .seconds(5)) throws(SQLiteError) {
        var handle: OpaquePointer?
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
        switch mode {
        case .readWrite: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        }
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let error = SQLiteError(code: code, connection: handle)
            // A handle is returned even when opening fails, and must be closed.
            sqlite3_close_v2(handle)
            throw error
        }
        self.handle = handle
        self.path = path
        self.mode = mode
        sqlite3_extended_result_codes(handle, 1)
        let milliseconds = busyTimeout.components.seconds * 1000 + busyTimeout.components.attoseconds / 1_000_000_000_000_000
        sqlite3_busy_timeout(handle, Int32(clamping: milliseconds))
        // Never let the file be read as if it were trusted: a corrupt schema cannot run triggers or views.
        var ignored: Int32 = 0
        _ = actionlog_db_config_int(handle, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, &ignored)
        _ = actionlog_db_config_int(handle, SQLITE_DBCONFIG_DEFENSIVE, 1, &ignored)
    }

    deinit {
        statementCache.removeAll()
        sqlite3_close_v2(handle)
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

    /// The rowid of the last successful `INSERT`.
    var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    // MARK: - Transactions

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
