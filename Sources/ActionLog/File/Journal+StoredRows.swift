import CSQLite
import Foundation

/// A column's value as a journal stores it, unparsed: what moves a session's rows to another store
/// (the team store on PostgreSQL) and back, so that what a reader rebuilds from the copy is, byte for
/// byte, what it rebuilds from the file.
package enum StoredValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    /// Text, as its stored bytes (UTF-8 when the file is sound).
    case text([UInt8])
    /// A blob, which a sound journal never holds in the columns moved: the mover refuses it, naming the row.
    case blob([UInt8])

    /// What the value is, for a message about a value of the wrong type.
    package var typeName: String {
        switch self {
        case .null: "NULL"
        case .integer: "an integer"
        case .real: "a real number"
        case .text: "text"
        case .blob: "a blob"
        }
    }
}

extension StoredValue {
    /// Appends `row` as one line of PostgreSQL's `COPY` text format: values separated by tabs, `\N`
    /// for NULL, and in texts the bytes that format escapes (backslash, newline, carriage return,
    /// tab) escaped with a backslash.
    package static func appendCopyLine(_ row: [StoredValue], to bytes: inout [UInt8]) {
        for (index, value) in row.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: "\t")) }
            switch value {
            case .null: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "N")]
            case .integer(let int): bytes += Array(String(int).utf8)
            case .real(let double): bytes += Array(double.description.utf8)
            case .text(let text), .blob(let text):
                var start = 0
                for (offset, byte) in text.enumerated() {
                    let escaped: UInt8
                    switch byte {
                    case UInt8(ascii: "\\"): escaped = UInt8(ascii: "\\")
                    case UInt8(ascii: "\n"): escaped = UInt8(ascii: "n")
                    case UInt8(ascii: "\r"): escaped = UInt8(ascii: "r")
                    case UInt8(ascii: "\t"): escaped = UInt8(ascii: "t")
                    default: continue
                    }
                    bytes += text[start..<offset]
                    bytes += [UInt8(ascii: "\\"), escaped]
                    start = offset + 1
                }
                bytes += text[start...]
            }
        }
        bytes.append(UInt8(ascii: "\n"))
    }
}

/// A column of a session's rows that a mover carries, with the type a sound journal stores in it.
package struct StoredColumn: Sendable {
    package enum Kind: Sendable { case integer, real, text }
    package let name: String
    package let kind: Kind
    package let nullable: Bool

    init(_ name: String, _ kind: Kind, nullable: Bool = true) {
        self.name = name
        self.kind = kind
        self.nullable = nullable
    }

    /// The column's type in PostgreSQL, where the team store keeps the rows moved.
    package var postgresType: String {
        switch kind {
        case .integer: "bigint"
        case .real: "double precision"
        case .text: "text"
        }
    }

    /// Why `value` is not what this column holds in a sound journal, or `nil` when it is.
    package func problem(with value: StoredValue) -> String? {
        switch (value, kind) {
        case (.null, _): nullable ? nil : "its \(name) is NULL"
        case (.integer, .integer), (.real, .real), (.text, .text): nil
        // SQLite keeps a REAL column's whole numbers as integers on disk and reads them back as reals.
        case (.integer, .real): nil
        default: "its \(name) is stored as \(value.typeName)"
        }
    }
}

/// The tables of a session's rows, with the columns a mover carries, the key first.
package enum StoredTable: String, Sendable, CaseIterable {
    case entries, handlers, calls

    /// The columns after `session_id`, the key (`seq`, or `seq, idx`) first.
    package var columns: [StoredColumn] {
        switch self {
        case .entries:
            [
                StoredColumn("seq", .integer, nullable: false), StoredColumn("kind", .text, nullable: false),
                StoredColumn("time", .real, nullable: false), StoredColumn("label", .text), StoredColumn("action", .text),
                StoredColumn("state", .text), StoredColumn("effect", .text), StoredColumn("duration_ns", .integer),
                StoredColumn("dropped", .integer), StoredColumn("note", .text),
                // The row's checksum (``RowChecksum``), carried as it is: a copy read back checks it. NULL
                // in a file written before ActionLog checksummed its rows.
                StoredColumn(Checksums.column, .integer),
            ]
        case .handlers:
            [
                StoredColumn("seq", .integer, nullable: false), StoredColumn("started", .integer, nullable: false),
                // Added to a file by the first record that needs them (`HandlerInserter`): NULL where missing.
                StoredColumn("released_at", .integer), StoredColumn("untracked_outputs", .integer),
                StoredColumn(Checksums.column, .integer),
            ]
        case .calls:
            [
                StoredColumn("seq", .integer, nullable: false), StoredColumn("idx", .integer, nullable: false),
                StoredColumn("kind", .text, nullable: false), StoredColumn("service", .text),
                StoredColumn("name", .text, nullable: false), StoredColumn("arguments", .text), StoredColumn("result", .text),
                StoredColumn("error", .text), StoredColumn("event", .text), StoredColumn("answered", .integer),
                StoredColumn(Checksums.column, .integer),
            ]
        }
    }

    /// How many of ``columns`` make the key within a session.
    package var keyCount: Int { self == .calls ? 2 : 1 }

    /// The columns of a `sessions` row a mover carries: all but its id (a store numbers its own).
    package static let sessionColumns: [StoredColumn] = [
        StoredColumn("name", .text, nullable: false), StoredColumn("started_at", .real, nullable: false),
        StoredColumn("ended_at", .real), StoredColumn("status", .text, nullable: false),
        StoredColumn("library_version", .text, nullable: false), StoredColumn("app_version", .text),
        StoredColumn("state_type", .text, nullable: false), StoredColumn("action_type", .text, nullable: false),
        StoredColumn("effect_type", .text), StoredColumn("metadata", .text, nullable: false),
        StoredColumn("dropped", .integer, nullable: false),
    ]
}

extension Journal {
    /// The session's `sessions` row as stored, in the order of ``StoredTable/sessionColumns``.
    ///
    /// - Throws: ``ActionLogError`` (``ActionLogError/Code/sessionNotFound``) when there is no such session.
    package func storedSessionRow(_ id: JournalSession.ID) throws(ActionLogError) -> [StoredValue] {
        let names = StoredTable.sessionColumns.map(\.name).joined(separator: ", ")
        let row = try read(session: id) { connection in
            try connection.prepare("SELECT \(names) FROM sessions WHERE id = ?1").firstRow([.integer(id)]) { row in
                (0..<StoredTable.sessionColumns.count).map { Self.storedValue(row, Int32($0)) }
            }
        }
        guard let row else { throw ActionLogError(.sessionNotFound, file: fileName, session: id, reason: "no such session") }
        return row
    }

    /// Up to `limit` of the session's rows of `table`, as stored, in the order of their key, after
    /// the key `after` (from the first when `nil`): a page of a session that may be long. Each row
    /// holds ``StoredTable/columns`` in order; a column the file does not have reads as NULL, and a
    /// file without the table has no rows.
    ///
    /// - Throws: ``ActionLogError`` when the file cannot be read.
    package func storedRows(
        _ table: StoredTable, session: JournalSession.ID, after key: [Int64]?, limit: Int
    ) throws(ActionLogError) -> [[StoredValue]] {
        try read(session: session) { connection in
            guard try connection.hasTable(table.rawValue) else { return [] }
            let present = try Set(connection.prepare("SELECT name FROM pragma_table_info(?1)").rows([.text(table.rawValue)]) { $0.text(0) ?? "" })
            let selected = table.columns.map { present.contains($0.name) ? $0.name : "NULL" }.joined(separator: ", ")
            let keyNames = table.columns.prefix(table.keyCount).map(\.name)
            let keyList = keyNames.joined(separator: ", ")
            var condition = "session_id = ?1"
            var values: [SQLiteValue] = [.integer(session), .integer(Int64(Swift.max(0, limit)))]
            if let key, key.count == table.keyCount {
                let parameters = (0..<key.count).map { "?\($0 + 3)" }.joined(separator: ", ")
                condition += " AND (\(keyList)) > (\(parameters))"
                values += key.map(SQLiteValue.integer)
            }
            return try connection.cachedStatement(
                "SELECT \(selected) FROM \(table.rawValue) WHERE \(condition) ORDER BY \(keyList) LIMIT ?2"
            ).rows(values, expected: Swift.max(0, limit)) { row in
                (0..<table.columns.count).map { Self.storedValue(row, Int32($0)) }
            }
        }
    }

    /// Inserts a `sessions` row as stored (``StoredTable/sessionColumns``, in order), with the
    /// session's global id where the file has a `uuid` column; returns the new session's id. An id
    /// that is the one derived from the row (a session recorded before ActionLog stored ids) is
    /// left unstored, as in the file it came from, so that the copy reads and exports as the file.
    ///
    /// - Throws: ``ActionLogError`` when the journal was opened read-only or SQLite refuses the row.
    package func insertStoredSession(_ values: [StoredValue], uuid: UUID?) throws(ActionLogError) -> JournalSession.ID {
        let uuid = uuid == Self.derivedUUID(ofStored: values) ? nil : uuid
        return try writing { connection in
            var names = StoredTable.sessionColumns.map(\.name)
            var row = values
            if let uuid, try connection.scalarInt("SELECT 1 FROM pragma_table_info('sessions') WHERE name = 'uuid'") != nil {
                names.append("uuid")
                row.append(.text(Array(uuid.uuidString.lowercased().utf8)))
            }
            try connection.transaction {
                try Self.insert(row, into: "sessions", columns: names, connection: connection)
            }
            return connection.lastInsertedRowID
        }
    }

    /// ``SessionHeader/derivedUUID`` of a stored `sessions` row, or `nil` when a field it is derived
    /// from is not of its type.
    private static func derivedUUID(ofStored values: [StoredValue]) -> UUID? {
        func text(_ name: String) -> String? {
            guard let index = StoredTable.sessionColumns.firstIndex(where: { $0.name == name }), index < values.count,
                case .text(let bytes) = values[index] else { return nil }
            return String(decoding: bytes, as: UTF8.self)
        }
        guard let index = StoredTable.sessionColumns.firstIndex(where: { $0.name == "started_at" }), index < values.count else { return nil }
        let startedAt: Double
        switch values[index] {
        case .real(let seconds): startedAt = seconds
        case .integer(let seconds): startedAt = Double(seconds)
        default: return nil
        }
        guard let name = text("name"), let library = text("library_version"), let state = text("state_type"), let action = text("action_type") else {
            return nil
        }
        return SessionHeader.derivedUUID(
            name: name, startedAt: Date(timeIntervalSince1970: startedAt), libraryVersion: library, appVersion: text("app_version"),
            stateType: state, actionType: action)
    }

    /// Inserts rows of `table` as stored (``StoredTable/columns``, in order) into the session, in one transaction.
    ///
    /// - Throws: ``ActionLogError`` when the journal was opened read-only or SQLite refuses a row.
    package func insertStoredRows(_ table: StoredTable, session: JournalSession.ID, _ rows: [[StoredValue]]) throws(ActionLogError) {
        guard !rows.isEmpty else { return }
        try writing { connection in
            var names = table.columns.map(\.name)
            var rows = rows
            if table == .handlers {
                // The note columns exist only in files that needed them: added when a row needs them, left out when not.
                let needed = Journal.noteColumnNames.filter { name in
                    let index = names.firstIndex(of: name) ?? 0
                    return rows.contains { $0[index] != .null }
                }
                let present = try Journal.noteColumns(connection)
                for column in needed where !present.contains(column) {
                    try connection.execute("ALTER TABLE handlers ADD COLUMN \(column) INTEGER")
                }
                let kept = names.indices.filter { !Journal.noteColumnNames.contains(names[$0]) || needed.contains(names[$0]) }
                names = kept.map { names[$0] }
                rows = rows.map { row in kept.map { row[$0] } }
            }
            let columns = ["session_id"] + names
            try connection.transaction {
                for row in rows {
                    try Self.insert([.integer(session)] + row, into: table.rawValue, columns: columns, connection: connection)
                }
            }
        }
    }

    /// Runs `body` with the connection of a journal opened for writing.
    private func writing<T>(_ body: (Connection) throws -> T) throws(ActionLogError) -> T {
        let file = fileName
        return try read { connection in
            guard connection.mode == .readWrite else {
                throw ActionLogError(.fileSystem, file: file, reason: "opened read-only, so no session can be inserted; open it with mode: .readWrite")
            }
            return try body(connection)
        }
    }

    private static func insert(_ values: [StoredValue], into table: String, columns: [String], connection: Connection) throws {
        let parameters = (1...columns.count).map { "?\($0)" }.joined(separator: ", ")
        let statement = try connection.cachedStatement("INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(parameters))")
        sqlite3_reset(statement.handle)
        sqlite3_clear_bindings(statement.handle)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            switch value {
            case .null: try statement.bindNull(at: index)
            case .integer(let int): try statement.bind(int, at: index)
            case .real(let double): try statement.bind(double, at: index)
            case .text(let bytes), .blob(let bytes):
                let code = bytes.withUnsafeBytes { buffer in
                    if case .blob = value {
                        return sqlite3_bind_blob64(statement.handle, index, buffer.baseAddress, UInt64(buffer.count), actionlog_sqlite_transient())
                    }
                    // An empty text is bound as text, not as NULL: a base address of nil would bind NULL.
                    return buffer.baseAddress == nil
                        ? sqlite3_bind_text(statement.handle, index, "", 0, actionlog_sqlite_transient())
                        : sqlite3_bind_text64(
                            statement.handle, index, buffer.baseAddress?.assumingMemoryBound(to: CChar.self), UInt64(buffer.count),
                            actionlog_sqlite_transient(), UInt8(SQLITE_UTF8))
                }
                guard code == SQLITE_OK else { throw SQLiteError(code: code, connection: connection.handle, sql: statement.sql) }
            }
        }
        try statement.run()
    }

    /// The column's value as stored.
    private static func storedValue(_ row: Row, _ column: Int32) -> StoredValue {
        switch sqlite3_column_type(row.statement.handle, column) {
        case SQLITE_INTEGER: .integer(row.int(column))
        case SQLITE_FLOAT: .real(row.double(column))
        case SQLITE_TEXT: .text(row.bytes(column) ?? [])
        case SQLITE_BLOB: .blob(row.bytes(column) ?? [])
        default: .null
        }
    }
}

extension Journal {
    /// How many rows of `table` the session has, as stored: what a copy of the session must hold.
    ///
    /// - Throws: ``ActionLogError`` when the file cannot be read.
    package func storedRowCount(_ table: StoredTable, session: JournalSession.ID) throws(ActionLogError) -> Int {
        try read(session: session) { connection in
            guard try connection.hasTable(table.rawValue) else { return 0 }
            return Int(try connection.scalarInt("SELECT count(*) FROM \(table.rawValue) WHERE session_id = ?1", [.integer(session)]) ?? 0)
        }
    }
}
