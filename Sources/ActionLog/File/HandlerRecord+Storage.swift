import Foundation

/// Writes a ``HandlerRecord`` into the `handlers` and `calls` tables (schema version 2), inside the
/// transaction that writes its entry.
enum HandlerInserter {
    /// Inserts `handler` as entry `seq`'s; with checksums (``RowChecksum``) unless `checksums` is `false`
    /// (the benchmark's cost of them).
    static func insert(
        _ handler: HandlerRecord, connection: Connection, session: JournalSession.ID, seq: Int, checksums: Bool = true
    ) throws(SQLiteError) {
        let notes: [SQLiteValue] = [
            .optional(handler.releasedAt.map(Int64.init)), handler.untrackedOutputs > 0 ? .integer(Int64(handler.untrackedOutputs)) : .null,
        ]
        // The checksum covers the notes as a reader finds them: NULL where the columns are absent.
        let handlerChecksum = RowChecksum.of([.integer(Int64(seq)), .integer(Int64(handler.started))] + notes)
        try connection.cachedStatement("INSERT INTO handlers (session_id, seq, started, checksum) VALUES (?1, ?2, ?3, ?4)")
            .execute([.integer(session), .integer(Int64(seq)), .integer(Int64(handler.started)), checksums ? .integer(Int64(handlerChecksum)) : .null])
        if handler.releasedAt != nil || handler.untrackedOutputs > 0 {
            // The columns are added by the first record that needs them (rare): a file without them
            // reads as before, and older readers, which name the columns they read, do not see them.
            let present = try Journal.noteColumns(connection)
            for column in Journal.noteColumnNames where !present.contains(column) {
                try connection.execute("ALTER TABLE handlers ADD COLUMN \(column) INTEGER")
            }
            try connection.cachedStatement("UPDATE handlers SET released_at = ?3, untracked_outputs = ?4 WHERE session_id = ?1 AND seq = ?2")
                .execute([.integer(session), .integer(Int64(seq))] + notes)
        }
        guard !handler.records.isEmpty else { return }
        let statement = try connection.cachedStatement("""
            INSERT INTO calls (session_id, seq, idx, kind, service, name, arguments, result, error, event, answered, checksum)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
            """)
        for (index, record) in handler.records.enumerated() {
            var values: [SQLiteValue] = [.integer(session), .integer(Int64(seq)), .integer(Int64(index))]
            switch record {
            case .call(let call):
                var result: JSONValue?
                var error: JSONValue?
                switch call.outcome {
                case .returned(let value): result = value
                case .threw(let value): error = value
                }
                values += [
                    .text("call"), .text(call.service), .text(call.method), .text(JSONValue.array(call.arguments).canonicalText),
                    .optional(result?.canonicalText), .optional(error?.canonicalText), .null, .integer(Int64(call.answered)),
                ]
            case .output(let output):
                values += [.text("output"), .null, .text(output.label), .null, .null, .null, .text(output.event.canonicalText), .null]
            }
            // Every column but the session's id: seq, idx and the record.
            values.append(checksums ? .integer(Int64(RowChecksum.of(values.dropFirst()))) : .null)
            try statement.execute(values)
        }
    }
}

extension Journal {
    /// What the asynchronous handlers of a session did, entry by entry in order: their run order,
    /// service calls and output events. Empty for a reducer's session, and for every session of a
    /// journal written before schema version 2. The records are read at once (a replay needs the
    /// whole run order before it starts); they hold calls and events, not states.
    ///
    /// ```swift
    /// for handler in try journal.handlerRecords(in: 1) {
    ///     print("entry \(handler.seq):", handler.calls.map(\.description))
    /// }
    /// ```
    ///
    /// - Parameter session: the session's id.
    /// - Returns: one record per entry that has one, by seq.
    /// - Throws: ``ActionLogError`` with code ``ActionLogError/Code/sessionNotFound`` when there is no
    ///   such session, ``ActionLogError/Code/corrupt`` naming the entry when a row is damaged.
    package func handlerRecords(in session: JournalSession.ID) throws(ActionLogError) -> [HandlerRecord] {
        _ = try self.session(session)
        return try handlerRecords(in: session, seqs: 0...Int.max)
    }

    /// The handler records of the entries in `seqs`, by seq: one window of a session, for readers
    /// that walk it in order (see ``HandlerRecordPager``). Empty where the journal has no such tables.
    ///
    /// A window from seq 0 also reads the rows whose seq is not an integer (a damaged file), which no
    /// range holds: the first window of every walk refuses them, as reading the whole session does.
    /// That costs one scan of the session's rows per walk; the other windows read their range only.
    package func handlerRecords(in session: JournalSession.ID, seqs: ClosedRange<Int>) throws(ActionLogError) -> [HandlerRecord] {
        let file = fileName
        return try read(session: session) { connection in
            guard try Self.hasHandlerTables(connection) else { return [] }
            var reader = HandlerRowReader(file: file, session: session)
            let bounds: [SQLiteValue] = [.integer(session), .integer(Int64(seqs.lowerBound)), .integer(Int64(seqs.upperBound))]
            // Each window by its range of the primary key; the rows whose seq is not an integer (no
            // range holds them) by a scan of the session's rows, once per walk, with its first window.
            func select(_ columns: String, from table: String, orderedBy order: String, _ add: (Row) throws -> Void) throws {
                let rows = "SELECT \(columns) FROM \(table) WHERE session_id = ?1"
                _ = try connection.cachedStatement(rows + " AND seq BETWEEN ?2 AND ?3 ORDER BY \(order)").rows(bounds, add)
                if seqs.lowerBound == 0 {
                    _ = try connection.cachedStatement(rows + " AND typeof(seq) <> 'integer'").rows([.integer(session)], add)
                }
            }
            let present = try Self.noteColumns(connection)
            let notes = Self.noteColumnNames.map { present.contains($0) ? $0 : "NULL" }.joined(separator: ", ")
            let checksums = try Checksums.tablesWithColumn(connection)
            func checksum(_ table: String) -> String { checksums.contains(table) ? Checksums.column : "NULL" }
            try select("seq, started, \(notes), \(checksum("handlers"))", from: "handlers", orderedBy: "seq") { row in try reader.addHandler(row) }
            let calls = "seq, idx, kind, service, name, arguments, result, error, event, answered, \(checksum("calls"))"
            try select(calls, from: "calls", orderedBy: "seq, idx") { row in
                try reader.addRecord(row)
            }
            return reader.handlers
        }
    }

    /// The smallest seq from `seq` on that has a row in `handlers` or `calls` for `session`, or `nil`
    /// when none has: where a walk over the records in windows goes next, so that the windows it reads
    /// are as many as the rows at most, however far apart their seqs (a damaged row may hold
    /// `Int64.max`), and a call whose handler row is gone is still read (and found wanting).
    ///
    /// - Throws: ``ActionLogError`` with code ``ActionLogError/Code/corrupt`` naming the entry when the
    ///   file's index answers one before `seq`, which only a damaged index does: a walk going on
    ///   from there would read the same windows for ever.
    package func firstHandlerSeq(in session: JournalSession.ID, from seq: Int) throws(ActionLogError) -> Int? {
        let first = try read(session: session) { connection -> Int? in
            guard try Self.hasHandlerTables(connection) else { return nil }
            // Integers only: SQLite orders a text after every number, and reads it as 0. Each side
            // stops at its first row in key order (a `min()` with a second condition would read on).
            return try connection.scalarInt("""
                SELECT min(seq) FROM (
                    SELECT (SELECT seq FROM handlers WHERE session_id = ?1 AND seq >= ?2 AND typeof(seq) = 'integer' ORDER BY seq LIMIT 1) AS seq
                    UNION ALL
                    SELECT (SELECT seq FROM calls WHERE session_id = ?1 AND seq >= ?2 AND typeof(seq) = 'integer' ORDER BY seq LIMIT 1))
                """, [.integer(session), .integer(Int64(seq))]).map(Int.init)
        }
        if let first, first < seq {
            throw ActionLogError(.corrupt, file: fileName, session: session, entry: first, reason: """
                the handler records are out of order: the first from entry \(seq) on is entry \(first); the file's index is damaged
                """)
        }
        return first
    }

    /// The columns of `handlers` added by the first handler record that needs them (a turn taken
    /// from its handler, output events not journaled before it), in the order readers select them.
    static let noteColumnNames = ["released_at", "untracked_outputs"]

    /// Which of ``noteColumnNames`` the file's `handlers` table has.
    static func noteColumns(_ connection: Connection) throws(SQLiteError) -> Set<String> {
        let statement = try connection.cachedStatement(
            "SELECT name FROM pragma_table_info('handlers') WHERE name IN ('released_at', 'untracked_outputs')")
        defer { statement.reset() }
        var names: Set<String> = []
        while try statement.step() { names.insert(Row(statement: statement).text(0) ?? "") }
        return names
    }

    /// Whether the file has the tables of schema version 2 (a version-1 file has none until a recorder migrates it).
    private static func hasHandlerTables(_ connection: Connection) throws -> Bool {
        try connection.hasTable("handlers") && connection.hasTable("calls")
    }
}

/// Reads a session's handler records a window of entries at a time, for a reader that walks the
/// session in order (`log`, export): memory stays bounded however long the session, where
/// ``Journal/handlerRecords(in:)`` reads them all at once.
///
/// ```swift
/// var handlers = HandlerRecordPager(journal: journal, session: id)
/// while let entry = try cursor.next() {
///     let calls = try handlers.record(at: entry.seq)?.calls ?? []
/// }
/// ```
package struct HandlerRecordPager: Sendable {
    /// Entries per window: as many as a page of entries, so that each page of a walk costs one read.
    static let windowSize = 512

    private let journal: Journal
    private let session: JournalSession.ID
    /// The entries whose records ``records`` holds.
    private var window: ClosedRange<Int>?
    private var records: [Int: HandlerRecord] = [:]

    package init(journal: Journal, session: JournalSession.ID) {
        self.journal = journal
        self.session = session
    }

    /// The record of entry `seq`, or `nil` when its entry has none; reads the window of entries from
    /// `seq` on when `seq` is outside the one read last.
    ///
    /// - Throws: ``ActionLogError`` with code ``ActionLogError/Code/corrupt`` naming the entry when a row
    ///   of the window is damaged.
    package mutating func record(at seq: Int) throws(ActionLogError) -> HandlerRecord? {
        if window?.contains(seq) != true {
            let (last, overflow) = seq.addingReportingOverflow(Self.windowSize - 1)
            let seqs = seq...(overflow ? Int.max : last)
            let read = try journal.handlerRecords(in: session, seqs: seqs)
            records = read.bySeq
            window = seqs
        }
        return records[seq]
    }
}

/// Reads the rows of `handlers` and `calls`, checking what a damaged or hostile file could hold.
struct HandlerRowReader {
    let file: String
    let session: JournalSession.ID
    private(set) var handlers: [HandlerRecord] = []
    /// Where each entry's record is in ``handlers``.
    private var positions: [Int: Int] = [:]

    init(file: String, session: JournalSession.ID) {
        self.file = file
        self.session = session
    }

    private func damaged(_ entry: Int?, _ reason: String) -> ActionLogError {
        ActionLogError(.corrupt, file: file, session: session, entry: entry, reason: reason)
    }

    private func integer(_ row: Row, _ column: Int32, _ name: String, entry: Int?) throws(ActionLogError) -> Int {
        if let type = row.nonIntegerType(column) { throw damaged(entry, "\(name) holds \(type), not an integer") }
        let value = row.int(column)
        guard value >= 0, value <= Int64(Int32.max) else { throw damaged(entry, "\(name) \(value) is out of range") }
        return Int(value)
    }

    private func json(_ row: Row, _ column: Int32, _ name: String, entry: Int) throws(ActionLogError) -> JSONValue? {
        guard let text = row.text(column) else { return nil }
        do {
            return try JSONValue(parsing: text)
        } catch {
            throw damaged(entry, "the \(name) of a handler record is not JSON: \(error)")
        }
    }

    /// What the checksum in `column` says of the row, whose content is in the columns before it.
    private func checksum(_ row: Row, column: Int32) -> ChecksumCheck {
        ChecksumCheck(row, column: column, halves: [(shift: 0, columns: Array(0..<column))])
    }

    mutating func addHandler(_ row: Row) throws(ActionLogError) {
        // Before any other read of the row, which may convert a column to another type.
        let checksum = checksum(row, column: 4)
        let seq = try integer(row, 0, "a handler's seq", entry: nil)
        let started = try integer(row, 1, "started", entry: seq)
        let releasedAt = row.isNull(2) ? nil : try integer(row, 2, "released_at", entry: seq)
        let untracked = row.isNull(3) ? 0 : try integer(row, 3, "untracked_outputs", entry: seq)
        if let problem = checksum.problem("the handler record") { throw damaged(seq, problem) }
        positions[seq] = handlers.count
        handlers.append(HandlerRecord(seq: seq, started: started, records: [], releasedAt: releasedAt, untrackedOutputs: untracked))
    }

    mutating func addRecord(_ row: Row) throws(ActionLogError) {
        let checksum = checksum(row, column: 10)
        let seq = try integer(row, 0, "a call's seq", entry: nil)
        let index = try integer(row, 1, "idx", entry: seq)
        // Named by its index: reported when every other check of the row has passed.
        func checked() throws(ActionLogError) {
            if let problem = checksum.problem("call \(index)") { throw damaged(seq, problem) }
        }
        guard let position = positions[seq] else { throw damaged(seq, "call \(index) belongs to no handler") }
        guard index == handlers[position].records.count else {
            throw damaged(seq, "call \(index) is out of order: call \(handlers[position].records.count) was expected")
        }
        guard let name = row.text(4) else { throw damaged(seq, "call \(index) has no name") }
        switch row.text(2) {
        case "call":
            guard let service = row.text(3) else { throw damaged(seq, "call \(index) names no service") }
            guard case .array(let arguments)? = try json(row, 5, "arguments", entry: seq) else {
                throw damaged(seq, "the arguments of call \(index) are not a JSON array")
            }
            let outcome: ServiceCall.Outcome
            switch (try json(row, 6, "result", entry: seq), try json(row, 7, "error", entry: seq)) {
            case (let result?, nil): outcome = .returned(result)
            case (nil, let error?): outcome = .threw(error)
            default: throw damaged(seq, "call \(index) must hold a result or an error, not both or neither")
            }
            let answered = try integer(row, 9, "answered", entry: seq)
            try checked()
            handlers[position].records.append(
                .call(ServiceCall(service: service, method: name, arguments: arguments, outcome: outcome, answered: answered)))
        case "output":
            guard let event = try json(row, 8, "event", entry: seq) else { throw damaged(seq, "output \(index) holds no event") }
            try checked()
            handlers[position].records.append(.output(OutputEvent(label: name, event: event)))
        case let kind:
            throw damaged(seq, "call \(index) is of an unknown kind \(kind.map { "\"\($0)\"" } ?? "NULL")")
        }
    }
}
