import CSQLite
import Foundation

/// A prepared statement (`sqlite3_stmt`), finalized when released.
///
/// Values are always bound, never spliced into SQL. Hot statements are prepared once with
/// `SQLITE_PREPARE_PERSISTENT` and reused through ``reset()``.
/// See <https://www.sqlite.org/c3ref/stmt.html>.
final class Statement {
    let handle: OpaquePointer
    /// The SQL that error messages name: the statement's own, or the shorter form it was prepared
    /// with (see ``init(connection:sql:describedAs:persistent:)``).
    let sql: String
    private unowned let connection: Connection

    /// Prepares `sql`.
    ///
    /// - Parameters:
    ///   - connection: the connection the statement runs on.
    ///   - sql: the statement.
    ///   - description: the SQL that error messages name, when not `sql` itself: a statement that
    ///     repeats one row many times (`INSERT ... VALUES (...), (...), ...`) is named as the one-row
    ///     statement it repeats, so that a failure reads the same whatever the number of rows.
    ///   - persistent: `SQLITE_PREPARE_PERSISTENT`, for a statement kept and reused.
    init(connection: Connection, sql: String, describedAs description: String? = nil, persistent: Bool) throws(SQLiteError) {
        precondition(!connection.isClosed, "a closed connection was used")
        let shown = description ?? sql
        var statement: OpaquePointer?
        let flags: UInt32 = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let code = sqlite3_prepare_v3(connection.handle, sql, -1, flags, &statement, nil)
        guard code == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw SQLiteError(code: code, connection: connection.handle, sql: shown)
        }
        self.handle = statement
        self.sql = shown
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(handle)
    }

    // MARK: - Binding

    /// Binds `values` to the parameters `?1`, `?2`, ... after clearing earlier bindings.
    func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    private func bind(_ value: SQLiteValue, at index: Int32) throws(SQLiteError) {
        switch value {
        case .null: try bindNull(at: index)
        case .integer(let int): try bind(int, at: index)
        case .real(let double): try bind(double, at: index)
        case .text(let string): try bind(string, at: index)
        case .blob(let bytes):
            try check(
                bytes.withUnsafeBytes { buffer in
                    sqlite3_bind_blob(handle, index, buffer.baseAddress, Int32(buffer.count), actionlog_sqlite_transient())
                })
        }
    }

    // MARK: - Binding one parameter
    //
    // For a statement run many times in a row: bind every parameter (`?1` is index 1), then ``run()``.
    // Nothing is allocated per value, unlike an array of ``SQLiteValue``s.
    // See <https://www.sqlite.org/c3ref/bind_blob.html>.

    func bindNull(at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_null(handle, index))
    }

    func bind(_ value: Int64, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_int64(handle, index, value))
    }

    func bind(_ value: Double, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_double(handle, index, value))
    }

    /// Binds `text`, all of its UTF-8 bytes (a NUL inside included); SQLite copies it.
    func bind(_ text: String, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_text(handle, index, text, Int32(text.utf8.count), actionlog_sqlite_transient()))
    }

    /// Binds the `count` UTF-8 bytes at `text` *without copying them* (`SQLITE_STATIC`): the bytes
    /// must stay as they are until the statement has run and been bound again. For many texts bound
    /// at once from one buffer the caller keeps.
    func bind(borrowing text: UnsafePointer<CChar>, count: Int, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_text(handle, index, text, Int32(count), nil))
    }

    /// Binds `value`, or NULL when it is `nil`.
    func bind(_ value: Int64?, at index: Int32) throws(SQLiteError) {
        if let value { try bind(value, at: index) } else { try bindNull(at: index) }
    }

    /// Runs the statement with its current bindings to completion, and resets it (bindings are kept).
    func run() throws(SQLiteError) {
        defer { reset() }
        while try step() {}
    }

    @inline(__always)
    private func check(_ code: Int32) throws(SQLiteError) {
        guard code == SQLITE_OK else { throw SQLiteError(code: code, connection: connection.handle, sql: sql) }
    }

    // MARK: - Stepping

    /// Advances to the next row. Returns `false` when the statement is done.
    func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw SQLiteError(code: code, connection: connection.handle, sql: sql)
        }
    }

    /// Resets the statement so that it can run again; bindings are kept.
    func reset() {
        sqlite3_reset(handle)
    }

    /// Binds `values`, runs the statement to completion and resets it.
    func execute(_ values: [SQLiteValue] = []) throws(SQLiteError) {
        try bind(values)
        try run()
    }

    /// Binds `values` and returns every row, decoded by `row`; `expected` rows are made room for
    /// at once (a page's limit), so that the list does not grow step by step.
    func rows<T>(_ values: [SQLiteValue] = [], expected: Int = 0, _ row: (Row) throws -> T) throws -> [T] {
        try bind(values)
        defer { reset() }
        var result: [T] = []
        result.reserveCapacity(expected)
        while try step() {
            result.append(try row(Row(statement: self)))
        }
        return result
    }

    /// Binds `values` and returns the first row, decoded by `row`, if there is one.
    func firstRow<T>(_ values: [SQLiteValue] = [], _ row: (Row) throws -> T) throws -> T? {
        try bind(values)
        defer { reset() }
        guard try step() else { return nil }
        return try row(Row(statement: self))
    }
}

/// A value bound to a statement parameter.
enum SQLiteValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    static func optional(_ string: String?) -> SQLiteValue { string.map(SQLiteValue.text) ?? .null }
    static func optional(_ int: Int64?) -> SQLiteValue { int.map(SQLiteValue.integer) ?? .null }
    static func optional(_ double: Double?) -> SQLiteValue { double.map(SQLiteValue.real) ?? .null }
}

/// The current row of a stepping statement. Valid only inside the row closure.
struct Row {
    let statement: Statement

    func isNull(_ column: Int32) -> Bool {
        sqlite3_column_type(statement.handle, column) == SQLITE_NULL
    }

    /// Whether the column holds an integer or a real number, which SQLite orders before any text or blob.
    func isNumber(_ column: Int32) -> Bool {
        let type = sqlite3_column_type(statement.handle, column)
        return type == SQLITE_INTEGER || type == SQLITE_FLOAT
    }

    /// What the column holds, when it is not an integer: `"a real number"`, `"text"`, `"a blob"`,
    /// `"NULL"`; `nil` for an integer. SQLite converts anything to an integer when asked, so a reader
    /// that must not take `1.5` for `1` asks this first.
    func nonIntegerType(_ column: Int32) -> String? {
        switch sqlite3_column_type(statement.handle, column) {
        case SQLITE_INTEGER: nil
        case SQLITE_FLOAT: "a real number"
        case SQLITE_TEXT: "text"
        case SQLITE_BLOB: "a blob"
        default: "NULL"
        }
    }

    func int(_ column: Int32) -> Int64 {
        sqlite3_column_int64(statement.handle, column)
    }

    func optionalInt(_ column: Int32) -> Int64? {
        isNull(column) ? nil : int(column)
    }

    func double(_ column: Int32) -> Double {
        sqlite3_column_double(statement.handle, column)
    }

    func optionalDouble(_ column: Int32) -> Double? {
        isNull(column) ? nil : double(column)
    }

    /// The column as UTF-8 text; `nil` for NULL. Blobs are read as their bytes.
    func text(_ column: Int32) -> String? {
        withBytes(column) { String(decoding: $0, as: UTF8.self) }
    }

    /// The column's bytes (text or blob); `nil` for NULL.
    func bytes(_ column: Int32) -> [UInt8]? {
        // Reserved and appended, which is specialized here: `init(unsafeUninitializedCapacity:)`
        // goes through the standard library's unspecialized allocation, which looks up the array's
        // metadata on every call (583 instructions to copy 57 bytes, against 830).
        withBytes(column) { stored in
            var bytes: [UInt8] = []
            bytes.reserveCapacity(stored.count)
            bytes.append(contentsOf: stored)
            return bytes
        }
    }

    /// Gives `body` the column's bytes (text or blob) where SQLite holds them, valid only during the
    /// call; `nil` for NULL, without calling `body`.
    private func withBytes<Result>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        guard !isNull(column) else { return nil }
        // Ask for the text form first: calling `sqlite3_column_bytes` after it gives the length of that form.
        let pointer = sqlite3_column_blob(statement.handle, column)
        let count = Int(sqlite3_column_bytes(statement.handle, column))
        guard let pointer, count > 0 else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        return body(UnsafeBufferPointer(start: pointer.assumingMemoryBound(to: UInt8.self), count: count))
    }
}
