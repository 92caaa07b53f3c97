import Foundation

/// Inserts the writer's rows into `entries`, many rows per statement.
///
/// Each run of an `INSERT` costs SQLite a fixed amount beyond the row itself (setting up and halting
/// the program, and evaluating the `kind` check's `IN` list, once per run), which is most of the cost
/// of a small row. So rows go in by statements of 32, 16, 8, 4, 2 and 1 rows (`VALUES (...), (...)`),
/// each prepared once: a batch of 256 rows is 8 runs instead of 256. The rows stored are the same as
/// one `INSERT` per row would store, and errors name the one-row statement, whatever the number of rows.
/// See <https://www.sqlite.org/lang_insert.html>.
final class EntryInserter {
    /// An entry to insert, with what its asynchronous handler did (stored in `handlers` and `calls`).
    struct Row {
        var entry: StoredEntry
        var handler: HandlerRecord?
        /// Entry 0's handler record (what an asynchronous ViewModel did before its first action),
        /// carried by the first entry written after it.
        var initialHandler: HandlerRecord?
        /// The paths of the state the entry's change touched, for the change index (``ChangeIndex``);
        /// `nil` for entry 0 and gaps.
        var changedPaths: [String]?
    }

    private let connection: Connection
    private let sessionID: JournalSession.ID
    private let changes: ChangeIndexWriter
    /// The statement inserting `1 << index` rows, once prepared.
    private var statements: [Statement?] = Array(repeating: nil, count: EntryInserter.largestRun + 1)

    /// At most `1 << largestRun` rows per statement: beyond 32 the gain is under 2%.
    private static var largestRun: Int { 5 }
    private static var columns: Int32 { 12 }

    /// Whether rows get a checksum (``StoredEntry/checksum(seq:)``); `false` only for the
    /// benchmark's cost of them, as an ActionLog before checksums wrote.
    private let checksums: Bool

    init(connection: Connection, session: JournalSession.ID, checksums: Bool = true) {
        self.checksums = checksums
        self.connection = connection
        self.sessionID = session
        self.changes = ChangeIndexWriter(connection: connection, session: session)
    }

    /// Finalizes the statements prepared so far, so that the connection can close at once.
    func finalizeStatements() {
        statements = Array(repeating: nil, count: statements.count)
    }

    /// Marks the session's change index complete (``ChangeIndexWriter/markComplete(startedAt:)``):
    /// a session this inserter writes from its entry 0 has every row.
    func markChangeIndexComplete(startedAt: Double) throws(SQLiteError) {
        try changes.markComplete(startedAt: startedAt)
    }

    /// Inserts `rows` as entries `firstSeq`, `firstSeq + 1`, ... of the session.
    ///
    /// - Throws: ``SQLiteError`` when an insert fails; some of the rows may then be inserted, so call
    ///   it inside a transaction.
    func insert(_ rows: [Row], firstSeq: Int) throws(SQLiteError) {
        var start = 0
        while start < rows.count {
            var run = Self.largestRun
            while 1 << run > rows.count - start { run -= 1 }
            try insert(rows[start..<(start + 1 << run)], firstSeq: firstSeq + start, with: try statement(run))
            start += 1 << run
        }
        for (offset, row) in rows.enumerated() {
            if let paths = row.changedPaths {
                try changes.insert(seq: firstSeq + offset, paths: paths)
            }
            if let initial = row.initialHandler {
                try HandlerInserter.insert(initial, connection: connection, session: sessionID, seq: 0, checksums: checksums)
            }
            guard let handler = row.handler else { continue }
            try HandlerInserter.insert(handler, connection: connection, session: sessionID, seq: firstSeq + offset, checksums: checksums)
        }
    }

    // Exclusivity is not checked at run time for the two buffers below, which are written byte by
    // byte, one access at a time.

    /// The texts of the rows being inserted, each followed by a NUL, bound without SQLite copying
    /// them; reused from one statement to the next.
    @exclusivity(unchecked) private var texts: [UInt8] = []
    /// Where each text of the rows being inserted starts in ``texts``, and its length in bytes
    /// (a NUL inside a text included); offset -1 for NULL.
    @exclusivity(unchecked) private var offsets: [(start: Int, count: Int)] = []
    private static var textsPerRow: Int { 6 }

    private func insert(_ rows: ArraySlice<Row>, firstSeq: Int, with statement: Statement) throws(SQLiteError) {
        texts.removeAll(keepingCapacity: true)
        offsets.removeAll(keepingCapacity: true)
        func add(_ text: (some Collection<UInt8>)?) {
            guard let text else { return offsets.append((-1, 0)) }
            let start = texts.count
            texts.append(contentsOf: text)
            offsets.append((start, texts.count - start))
            texts.append(0)
        }
        for row in rows {
            let entry = row.entry
            add(entry.kind.utf8)
            add(entry.label?.utf8)
            add(entry.action)
            add(entry.state)
            add(entry.effect)
            add(entry.note?.utf8)
        }
        try texts.withUnsafeBufferPointer { (buffer) throws(SQLiteError) in
            let base = UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self)
            func bind(_ slot: Int, at index: Int32) throws(SQLiteError) {
                let (start, count) = offsets[slot]
                if start < 0 { try statement.bindNull(at: index) } else { try statement.bind(borrowing: base + start, count: count, at: index) }
            }
            for (position, entry) in rows.lazy.map(\.entry).enumerated() {
                let column = Int32(position) * Self.columns
                let slot = position * Self.textsPerRow
                try statement.bind(sessionID, at: column + 1)
                try statement.bind(Int64(firstSeq + position), at: column + 2)
                try bind(slot, at: column + 3)
                try statement.bind(entry.time, at: column + 4)
                try bind(slot + 1, at: column + 5)
                try bind(slot + 2, at: column + 6)
                try bind(slot + 3, at: column + 7)
                try bind(slot + 4, at: column + 8)
                try statement.bind(entry.durationNanoseconds, at: column + 9)
                try statement.bind(entry.dropped, at: column + 10)
                try bind(slot + 5, at: column + 11)
                try statement.bind(checksums ? entry.checksum(seq: Int64(firstSeq + position)) : nil, at: column + 12)
            }
            // The texts are read here, while `buffer` is valid.
            try statement.run()
        }
    }

    /// The statement inserting `1 << run` rows.
    private func statement(_ run: Int) throws(SQLiteError) -> Statement {
        if let statement = statements[run] { return statement }
        let head = "INSERT INTO entries (\(RawEntry.columns), checksum)\nVALUES "
        func values(_ row: Int32) -> String {
            "(" + (1...Self.columns).map { "?\(row * Self.columns + $0)" }.joined(separator: ", ") + ")"
        }
        let sql = head + (0..<Int32(1 << run)).map(values).joined(separator: ", ")
        let statement = try connection.cachedStatement(sql, describedAs: head + values(0))
        statements[run] = statement
        return statement
    }
}
