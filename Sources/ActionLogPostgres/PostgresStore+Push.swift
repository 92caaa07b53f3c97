import ActionLog
import Foundation
import PostgresNIO

/// What ``PostgresStore/push(_:session:)`` did with one session.
public struct PushedSession: Sendable, Hashable {
    /// The session's global id: its key in the store.
    public let uuid: UUID
    /// The session's name.
    public let name: String
    /// The session's entries.
    public let entries: Int
    /// Whether the store held the whole session already, so nothing was stored.
    public let wasThere: Bool
    /// Whether an earlier push of the session had stopped part way (killed, or cut off) and this
    /// one went on from where it stopped.
    public let resumed: Bool
}

extension PostgresStore {
    /// Rows sent in one transaction at most; a batch also ends at ``batchBytes``.
    static let batchRows = 5_000
    /// Bytes of row text sent in one transaction at most (one row larger than this goes alone).
    static let batchBytes = 4 << 20

    /// Pushes the journal's closed sessions (or the one `session` names) to the store, each once.
    ///
    /// A session is stored under its global id (``JournalSession``'s `uuid`). One the store holds
    /// whole already is not sent again (``PushedSession/wasThere``). Rows go in batches of a few
    /// thousand, each in a transaction of its own, so memory stays bounded however long the session;
    /// the session is marked complete in the store only when all its rows are there, and readers
    /// leave out a session that is not. A push that was killed part way is resumed by the next push
    /// of the session, from its last committed batch. Pushes of the same session from several
    /// processes at once take turns (a PostgreSQL advisory lock on its id): one stores it, the others
    /// find it there.
    ///
    /// A session still being recorded (a live recorder holds it) is not pushed: it is still
    /// growing. Push it once it is closed.
    ///
    /// ```swift
    /// let store = try await PostgresStore.connect(url: "postgres://ci@db.internal/actionlog")
    /// let pushed = try await store.push(try Journal(path: "ui-tests.actionlog"))
    /// print(pushed.filter { !$0.wasThere }.count, "sessions pushed")
    /// await store.close()
    /// ```
    ///
    /// - Parameters:
    ///   - journal: the journal, opened read-only or not.
    ///   - session: the session to push; `nil` for every closed session of the journal.
    /// - Returns: what became of each session pushed, in the journal's order.
    /// - Throws: ``ActionLogError`` naming the server, the session and the entry when a row cannot
    ///   be stored (a row of the wrong type, text that is not UTF-8), or the server fails; the
    ///   sessions before it are pushed.
    public func push(_ journal: Journal, session: JournalSession.ID? = nil) async throws(ActionLogError) -> [PushedSession] {
        var pushed: [PushedSession] = []
        try await push(journal, session: session, skipped: { _ in }, progress: { _, _ in }) { pushed.append($0) }
        return pushed
    }

    /// Pushes as ``push(_:session:)`` does, telling each session as it is done, each session still
    /// recording as it is skipped, and the entries sent so far of the session under way.
    package func push(
        _ journal: Journal, session id: JournalSession.ID?, skipped: (JournalSession) -> Void,
        progress: (_ sent: Int, _ of: Int) -> Void, done: (PushedSession) -> Void
    ) async throws(ActionLogError) {
        var sessions: [JournalSession] = []
        if let id {
            sessions = [try journal.session(id)]
        } else {
            var cursor = journal.sessionCursor()
            while let next = try cursor.next() { sessions.append(next) }
        }
        for session in sessions {
            if session.status == .recording {
                skipped(session)
                continue
            }
            done(try await push(session, of: journal, progress: progress))
        }
    }

    /// Pushes one session, resuming a push that stopped part way.
    private func push(_ session: JournalSession, of journal: Journal, progress: (Int, Int) -> Void) async throws(ActionLogError) -> PushedSession {
        let uuid = session.uuid
        let subject = "session \(uuid.uuidString.lowercased()) \"\(session.name)\""
        let doing = "cannot push it"
        // Turns between processes pushing the same session: released when this push ends, or when its connection does.
        try await run("SELECT pg_advisory_lock(hashtextextended(\(uuid.uuidString.lowercased()), 0))", session: subject, doing: doing)
        do {
            let result = try await pushHoldingLock(session, uuid: uuid, subject: subject, of: journal, progress: progress)
            try await run("SELECT pg_advisory_unlock(hashtextextended(\(uuid.uuidString.lowercased()), 0))", session: subject, doing: doing)
            return result
        } catch {
            _ = try? await connection.query("SELECT pg_advisory_unlock_all()", logger: logger)
            throw error
        }
    }

    private func pushHoldingLock(
        _ session: JournalSession, uuid: UUID, subject: String, of journal: Journal, progress: (Int, Int) -> Void
    ) async throws(ActionLogError) -> PushedSession {
        let doing = "cannot push it"
        let header = try journal.storedSessionRow(session.id)
        for (column, value) in zip(StoredTable.sessionColumns, header) {
            if let problem = column.problem(with: value) ?? Self.textProblem(value, column: column.name) {
                throw ActionLogError(.corrupt, file: journal.fileName, session: session.id, reason: "the session row cannot be pushed: \(problem)")
            }
        }
        let there = try await rows(
            "SELECT complete, name, started_at FROM actionlog_sessions WHERE uuid = \(uuid)", session: subject, doing: doing
        ) { row in try row.decode((Bool, String, Double).self) }.first
        if let there {
            guard there.1 == session.name, there.2 == session.startedAt.timeIntervalSince1970 else {
                throw ActionLogError(.corrupt, file: location.description, reason: """
                    \(subject): the store holds another session under this id ("\(there.1)", started at \(there.2)); nothing was pushed
                    """)
            }
            if there.0 {
                return PushedSession(uuid: uuid, name: session.name, entries: session.entryCount, wasThere: true, resumed: false)
            }
        } else {
            var query = PostgresQuery(unsafeSQL: "")
            var bindings = PostgresBindings()
            bindings.append(uuid)
            for value in header { Self.append(value, to: &bindings) }
            bindings.append(Int64(session.entryCount))
            let columns = StoredTable.sessionColumns.map(\.name).joined(separator: ", ")
            let parameters = (2...(header.count + 1)).map { "$\($0)" }.joined(separator: ", ")
            query = PostgresQuery(unsafeSQL: """
                INSERT INTO actionlog_sessions (uuid, \(columns), entry_count)
                VALUES ($1, \(parameters), $\(header.count + 2)) ON CONFLICT (uuid) DO NOTHING
                """, binds: bindings)
            try await run(query, session: subject, doing: doing)
        }
        var sent = 0
        for table in StoredTable.allCases {
            try await pushRows(table, session: session, uuid: uuid, subject: subject, of: journal) { count in
                if table == .entries {
                    sent += count
                    progress(sent, session.entryCount)
                }
            }
        }
        // Complete only when every row is there: a count of each table against the file's.
        for table in StoredTable.allCases {
            let expected = try journal.storedRowCount(table, session: session.id)
            let stored = try await rows(
                PostgresQuery(unsafeSQL: "SELECT count(*) FROM actionlog_\(table.rawValue) WHERE session_uuid = $1", binds: Self.bindings(uuid)),
                session: subject, doing: doing
            ) { try $0.decode(Int64.self) }.first ?? 0
            guard stored == Int64(expected) else {
                throw ActionLogError(.corrupt, file: location.description, reason: """
                    \(subject): the store holds \(stored) rows of \(table.rawValue) where the journal has \(expected); the session is left incomplete
                    """)
            }
        }
        try await run("""
            UPDATE actionlog_sessions SET complete = true, pushed_at = now(),
                gap_count = (SELECT count(*) FROM actionlog_entries WHERE session_uuid = \(uuid) AND kind = 'gap')
            WHERE uuid = \(uuid)
            """, session: subject, doing: doing)
        return PushedSession(uuid: uuid, name: session.name, entries: session.entryCount, wasThere: false, resumed: there != nil)
    }

    /// Sends the session's rows of `table` that the store does not hold yet, from the last one it
    /// holds on, in batches of their own transactions.
    private func pushRows(
        _ table: StoredTable, session: JournalSession, uuid: UUID, subject: String, of journal: Journal, sent: (Int) -> Void
    ) async throws(ActionLogError) {
        let doing = "cannot push it"
        let columns = table.columns
        let keyNames = columns.prefix(table.keyCount).map(\.name)
        // Batches commit in key order: the last key stored is where a killed push stopped.
        var after: [Int64]? = try await rows(
            PostgresQuery(unsafeSQL: """
                SELECT \(keyNames.joined(separator: ", ")) FROM actionlog_\(table.rawValue) WHERE session_uuid = $1
                ORDER BY \(keyNames.map { "\($0) DESC" }.joined(separator: ", ")) LIMIT 1
                """, binds: Self.bindings(uuid)),
            session: subject, doing: doing
        ) { row in try row.map { try $0.decode(Int64.self) } }.first
        if let resumedAt = after?.first, table == .entries { sent(Int(clamping: resumedAt)) }
        let stage = "actionlog_stage_\(table.rawValue)"
        try await run(PostgresQuery(unsafeSQL: """
            CREATE TEMPORARY TABLE IF NOT EXISTS \(stage) (\(columns.map { "\($0.name) \($0.postgresType)" }.joined(separator: ", ")))
            ON COMMIT DELETE ROWS
            """), session: subject, doing: doing)
        var batch = CopyBatch()
        var exhausted = false
        while !exhausted {
            let page = try journal.storedRows(table, session: session.id, after: after, limit: 512)
            exhausted = page.count < 512
            for row in page {
                try batch.add(row, columns: columns, table: table, file: journal.fileName, session: session.id)
                if batch.rows >= Self.batchRows || batch.text.count >= Self.batchBytes {
                    try await send(&batch, table: table, uuid: uuid, subject: subject)
                    sent(batch.sentRows)
                }
            }
            guard let last = page.last else { break }
            after = Array(last.prefix(table.keyCount).map { value in
                if case .integer(let int) = value { return int }
                return 0
            })
        }
        if batch.rows > 0 {
            try await send(&batch, table: table, uuid: uuid, subject: subject)
            sent(batch.sentRows)
        }
    }

    /// Sends the batch in one transaction: `COPY` into the stage table, then the rows the store
    /// does not hold (`ON CONFLICT DO NOTHING`), in key order.
    private func send(_ batch: inout CopyBatch, table: StoredTable, uuid: UUID, subject: String) async throws(ActionLogError) {
        let doing = "cannot push it"
        let names = table.columns.map(\.name).joined(separator: ", ")
        let keys = table.columns.prefix(table.keyCount).map(\.name).joined(separator: ", ")
        let stage = "actionlog_stage_\(table.rawValue)"
        let data = batch.bytes
        try await transaction(session: subject, doing: doing) { () async throws(ActionLogError) in
            do {
                try await connection.copyFrom(table: stage, columns: table.columns.map(\.name), logger: logger) { writer in
                    try await writer.write(data)
                }
            } catch {
                throw failure(error, session: subject, entry: batch.firstSeq, doing: doing)
            }
            try await run(PostgresQuery(unsafeSQL: """
                INSERT INTO actionlog_\(table.rawValue) (session_uuid, \(names))
                SELECT $1, \(names) FROM \(stage) ORDER BY \(keys) ON CONFLICT DO NOTHING
                """, binds: Self.bindings(uuid)), session: subject, doing: doing)
        }
        batch.sent()
    }

    static func bindings(_ uuid: UUID) -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(uuid)
        return bindings
    }

    static func append(_ value: StoredValue, to bindings: inout PostgresBindings) {
        switch value {
        case .null: bindings.appendNull()
        case .integer(let int): bindings.append(int)
        case .real(let double): bindings.append(double)
        case .text(let bytes), .blob(let bytes): bindings.append(String(decoding: bytes, as: UTF8.self))
        }
    }

    /// Why a text value cannot be stored in a PostgreSQL `text` column, or `nil`: a NUL byte, or bytes that are not UTF-8.
    static func textProblem(_ value: StoredValue, column: String) -> String? {
        guard case .text(let bytes) = value else { return nil }
        if bytes.contains(0) { return "its \(column) holds a NUL byte, which PostgreSQL's text does not" }
        if String(validating: bytes, as: UTF8.self) == nil { return "its \(column) is not UTF-8 text" }
        return nil
    }
}

/// Rows in PostgreSQL's `COPY` text format (``StoredValue/appendCopyLine(_:to:)``), a batch at a time.
struct CopyBatch {
    /// The batch's lines.
    private(set) var text: [UInt8] = []
    var rows = 0
    var firstSeq: Int?
    private(set) var sentRows = 0

    /// The lines, to send.
    var bytes: ByteBuffer { ByteBuffer(bytes: text) }

    /// Adds a row, checked: a value of the wrong type, or text PostgreSQL cannot hold, is refused, naming the entry.
    mutating func add(_ row: [StoredValue], columns: [StoredColumn], table: StoredTable, file: String, session: JournalSession.ID) throws(ActionLogError) {
        let seq: Int? = if case .integer(let seq) = row.first { Int(exactly: seq) } else { nil }
        for (column, value) in zip(columns, row) {
            if let problem = column.problem(with: value) ?? PostgresStore.textProblem(value, column: column.name) {
                let place = table == .entries ? "" : " (its \(table == .calls ? "recorded call" : "handler record"))"
                throw ActionLogError(.corrupt, file: file, session: session, entry: seq, reason: "cannot be pushed\(place): \(problem)")
            }
        }
        if rows == 0 { firstSeq = seq }
        StoredValue.appendCopyLine(row, to: &text)
        rows += 1
    }

    /// Marks the batch sent and empties it.
    mutating func sent() {
        sentRows = rows
        rows = 0
        text.removeAll(keepingCapacity: true)
        firstSeq = nil
    }
}
