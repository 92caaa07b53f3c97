import CSQLite

/// An error reported by SQLite, with the statement that caused it.
///
/// The message reads like a sentence and never contains bound values, which may hold user data:
///
///     SQLite error 19: UNIQUE constraint failed: entries.session_id, entries.seq — while executing INSERT INTO entries ...
///
/// See <https://www.sqlite.org/rescode.html> for the codes.
package struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The primary result code (`SQLITE_BUSY`, `SQLITE_FULL`, ...), without extended bits.
    package var code: Int32 { extendedCode & 0xFF }
    /// The extended result code, as SQLite reported it.
    package let extendedCode: Int32
    /// SQLite's own explanation (`sqlite3_errmsg`), or the generic text of the code.
    package let message: String
    /// The SQL being prepared or executed, if any. Never contains bound values.
    package let sql: String?

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
    package var description: String {
        var text = "SQLite error \(code): \(message)"
        if let sql { text += " — while executing \(sql.split(whereSeparator: \.isWhitespace).joined(separator: " "))" }
        return text
    }
}

extension ActionLogError {
    /// An error of `code` caused by SQLite's `sqlite`, whose extended result code it keeps.
    package init(
        _ code: Code, file: String?, session: Int64? = nil, entry: Int? = nil, reason: String, sqlite: SQLiteError?
    ) {
        self.init(code, file: file, session: session, entry: entry, reason: reason, sqliteCode: sqlite?.extendedCode)
    }
}
