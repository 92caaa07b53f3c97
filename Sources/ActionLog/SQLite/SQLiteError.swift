import CSQLite

/// An error reported by SQLite, with the statement that caused it.
///
/// The message reads like a sentence and never contains bound values, which may hold user data:
///
///     SQLite error 19: UNIQUE constraint failed: entries.session_id, entries.seq — while executing INSERT INTO entries ...
///
/// See <https://www.sqlite.org/rescode.html> for the codes.
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The primary result code (`SQLITE_BUSY`, `SQLITE_FULL`, ...), without extended bits.
    public var code: Int32 { extendedCode & 0xFF }
    /// The extended result code, as SQLite reported it.
    public let extendedCode: Int32
    /// SQLite's own explanation (`sqlite3_errmsg`), or the generic text of the code.
    public let message: String
    /// The SQL being prepared or executed, if any. Never contains bound values.
    public let sql: String?

    init(code: Int32, message: String? = nil, sql: String? = nil) {
        self.extendedCode = code
        self.message = message ?? String(cString: sqlite3_errstr(code))
        self.sql = sql
    }

    init(code: Int32, connection handle: OpaquePointer?, sql: String? = nil) {
        let message = handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
        self.init(code: code, message: message, sql: sql)
    }

    /// `SQLite error 19: … — while executing INSERT …`, on one line: the statement's line breaks and
    /// indentation are written as single spaces, so a message stays one line of a log or a terminal.
    public var description: String {
        var text = "SQLite error \(code): \(message)"
        if let sql { text += " — while executing \(sql.split(whereSeparator: \.isWhitespace).joined(separator: " "))" }
        return text
    }
}
