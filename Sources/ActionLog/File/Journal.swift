import Foundation

/// A journal file: the sessions recorded into it and their entries.
///
/// Open one to read what an app recorded. Readers open the file read-only by default: they never
/// change it, never migrate it, and never create a file beside it (no `-wal`, no `-shm`), so a
/// journal can be inspected while an app is still recording into it, on a read-only volume, or
/// when it belongs to another user.
///
/// ```swift
/// let journal = try Journal(path: "checkout.actionlog")
/// for session in try journal.sessions() {
///     print(session.name, session.status, session.entryCount)
/// }
/// let state = try journal.state(at: 12, in: 1)   // the recorded state after entry 12
/// ```
///
/// A `Journal` is safe to share between tasks: its connection is guarded by a lock. A reader of
/// several statements (``recordedSession(_:)``, and the CLI's `verify` and `export`) reads one
/// snapshot: what was committed when it began.
public final class Journal: Sendable {
    /// How a journal is opened.
    public enum AccessMode: Sendable {
        /// Never creates or changes the file, and creates no file beside it: `SQLITE_OPEN_READONLY`,
        /// no migration. The default for readers, and enough for `replay-cli copy`.
        case readOnly
        /// Creates the file if needed (mode 0600), migrates an older schema, and marks sessions left
        /// behind by a dead recorder `interrupted` in the file. When the `Journal` goes away, it
        /// leaves the file as a recorder's `close()` does: one file, when nothing else has it open.
        case readWrite
    }

    /// The file's path.
    public let path: String
    /// The file name used in error messages.
    package let fileName: String
    private let connection: GuardedConnection
    /// Whether the file's `sessions` table has been seen to have the `uuid` column.
    private let hasSessionUUIDs = Locked(false)

    /// Opens the journal at `path`.
    ///
    /// - Parameters:
    ///   - path: the journal file.
    ///   - mode: ``AccessMode/readOnly`` (the default) or ``AccessMode/readWrite``.
    /// - Throws: ``ActionLogError`` when the file is missing (read-only), is not SQLite, is an SQLite
    ///   database that is not a journal, or was written by a newer ActionLog.
    public init(path: String, mode: AccessMode = .readOnly) throws(ActionLogError) {
        self.path = path
        self.fileName = JournalFile.displayName(path)
        let connection = try JournalFile.open(path: path, mode: mode == .readOnly ? .readOnly : .readWrite)
        if mode == .readWrite {
            try Self.markInterruptedSessions(connection, path: path)
        }
        self.connection = GuardedConnection(connection)
        if mode == .readWrite {
            indexUnindexedSessions()
        }
    }

    /// Opens the journal at a file URL. See ``init(path:mode:)``.
    package convenience init(url: URL, mode: AccessMode = .readOnly) throws(ActionLogError) {
        try self.init(path: url.path, mode: mode)
    }

    /// Runs `body` with the connection, turning SQLite errors into journal errors that name the file.
    func read<T>(session: JournalSession.ID? = nil, entry: Int? = nil, _ body: (Connection) throws -> T) throws(ActionLogError) -> T {
        do {
            return try connection.withConnection(body)
        } catch {
            throw journalError(error, session: session, entry: entry)
        }
    }

    /// Runs `body` in one read transaction, so that everything it reads comes from the same
    /// committed state of the file, whatever a recorder commits meanwhile. See
    /// ``GuardedConnection/snapshot(_:)``.
    func snapshot<T>(_ body: () throws(ActionLogError) -> T) throws(ActionLogError) -> T {
        do {
            return try connection.snapshot { () throws -> T in try body() }
        } catch {
            throw journalError(error)
        }
    }

    private func journalError(_ error: any Error, session: JournalSession.ID? = nil, entry: Int? = nil) -> ActionLogError {
        switch error {
        case let error as ActionLogError: error
        case let error as SQLiteError: JournalFile.wrap(error, file: fileName, session: session, entry: entry)
        default: ActionLogError(.sqlite, file: fileName, session: session, entry: entry, reason: "\(error)")
        }
    }

    // MARK: - Sessions

    private static func sessionColumns(uuid: Bool) -> String {
        """
        SELECT s.id, s.name, s.started_at, s.ended_at, s.status, s.library_version, s.app_version,
               s.state_type, s.action_type, s.effect_type, s.metadata, s.dropped,
               (SELECT max(seq) + 1 FROM entries e WHERE e.session_id = s.id),
               (SELECT time FROM entries e WHERE e.session_id = s.id ORDER BY seq DESC LIMIT 1),
               \(uuid ? "s.uuid" : "NULL")
        FROM sessions s
        """
    }

    /// The query of session rows, with the `uuid` column once the file has it. A file may gain it
    /// while open (a newer writer opens it), so a file without it is asked again each time.
    private func sessionColumns(_ connection: Connection) throws -> String {
        if hasSessionUUIDs.withLock({ $0 }) { return Self.sessionColumns(uuid: true) }
        let has = try Schema.hasSessionUUIDs(connection)
        if has { hasSessionUUIDs.withLock { $0 = true } }
        return Self.sessionColumns(uuid: has)
    }
    // The count and the last time come from the session's last entry, found through the primary
    // key (session_id, seq): two b-tree descents, not a scan of the session. Sequence numbers are
    // gapless (a loss is a `gap` entry), so the last seq + 1 is the count; a file whose numbers have
    // holes counts them too, and `verify` names them.

    /// Every session in the journal, oldest first, in one array: for a journal of a few sessions. A
    /// reader that must stay bounded in memory however many sessions the file holds reads them
    /// through ``sessionCursor()``.
    ///
    /// ```swift
    /// for session in try journal.sessions() { print(session.id, session.name) }
    /// ```
    ///
    /// - Throws: ``ActionLogError`` when the file cannot be read or a session row is damaged.
    public func sessions() throws(ActionLogError) -> [JournalSession] {
        var sessions: [JournalSession] = []
        var cursor = sessionCursor()
        while let session = try cursor.next() { sessions.append(session) }
        return sessions
    }

    /// A cursor over the journal's sessions, oldest first, a page of rows at a time: memory stays
    /// bounded however many sessions the file holds.
    ///
    /// ```swift
    /// var cursor = journal.sessionCursor()
    /// while let session = try cursor.next() {
    ///     print(session.id, session.name, session.entryCount)
    /// }
    /// ```
    ///
    /// Each page is read in its own short read, by id: a session a recorder starts while the cursor
    /// runs is read too, and one removed meanwhile (`prune`) is left out once its page is passed.
    public func sessionCursor() -> SessionCursor {
        SessionCursor(journal: self)
    }

    /// Up to `limit` session rows after the session `id` in order of their ids (from the first when
    /// `id` is `nil`), each read or the error that names it, with the row's id: a damaged row does
    /// not stop the rows after it.
    func sessionPage(after id: JournalSession.ID?, limit: Int) throws(ActionLogError) -> [(id: JournalSession.ID, row: Result<JournalSession, ActionLogError>)] {
        try sessionPage(where: "s.id \(id == nil ? ">=" : ">") ?1 ORDER BY s.id", id ?? .min, limit: limit)
    }

    /// Up to `limit` session rows before the session `id` (the newest when `id` is `nil`), newest
    /// first, each read or the error that names it, with the row's id: a window of the newest
    /// sessions for a list that shows those first and pages back (the viewer).
    package func sessionPage(before id: JournalSession.ID?, limit: Int) throws(ActionLogError) -> [(id: JournalSession.ID, row: Result<JournalSession, ActionLogError>)] {
        try sessionPage(where: "s.id \(id == nil ? "<=" : "<") ?1 ORDER BY s.id DESC", id ?? .max, limit: limit)
    }

    private func sessionPage(
        where condition: String, _ id: JournalSession.ID, limit: Int
    ) throws(ActionLogError) -> [(id: JournalSession.ID, row: Result<JournalSession, ActionLogError>)] {
        try read { connection in
            try connection.cachedStatement(try sessionColumns(connection) + " WHERE " + condition + " LIMIT ?2")
                .rows([.integer(id), .integer(Int64(Swift.max(0, limit)))], expected: Swift.max(0, limit)) { row in
                    do {
                        return (row.int(0), .success(try self.session(from: row)))
                    } catch let error as ActionLogError {
                        return (row.int(0), .failure(error))
                    }
                }
        }
    }

    /// How many session rows the journal holds, damaged ones included.
    ///
    /// - Throws: ``ActionLogError`` when the file cannot be read.
    package func sessionCount() throws(ActionLogError) -> Int {
        try read { connection in
            try connection.prepare("SELECT count(*) FROM sessions").firstRow { Int($0.int(0)) } ?? 0
        }
    }

    /// The names of the journal's sessions for a message that lists them: the first `limit`
    /// different names, in quotes, oldest first, and how many more (`"a", "b" and 3 more`); `none`
    /// when there are no sessions. Read with SQL (names are told apart by their bytes, damaged rows
    /// included), so that memory stays bounded however many sessions the file holds.
    ///
    /// - Parameter limit: the most names listed.
    /// - Throws: ``ActionLogError`` when the file cannot be read.
    package func quotedSessionNames(limit: Int = 8) throws(ActionLogError) -> String {
        let limit = Swift.max(1, limit)
        let (names, distinct) = try read { connection in
            let names = try connection.prepare("SELECT name FROM sessions GROUP BY name ORDER BY min(id) LIMIT ?1")
                .rows([.integer(Int64(limit))]) { $0.text(0) ?? "" }
            let distinct = try connection.prepare("SELECT count(DISTINCT name) FROM sessions").firstRow { Int($0.int(0)) } ?? 0
            return (names, distinct)
        }
        return [JournalSession].quoted(names, distinct: distinct)
    }

    /// The session with the given id.
    ///
    /// - Throws: ``ActionLogError`` with code ``ActionLogError/Code/sessionNotFound`` when there is none.
    public func session(_ id: JournalSession.ID) throws(ActionLogError) -> JournalSession {
        let found = try read(session: id) { connection in
            try connection.prepare(try sessionColumns(connection) + " WHERE s.id = ?1").firstRow([.integer(id)]) { try self.session(from: $0) }
        }
        guard let found else {
            throw ActionLogError(.sessionNotFound, file: fileName, session: id, reason: "no such session")
        }
        return found
    }

    /// Throws ``ActionLogError/Code/sessionNotFound`` unless the session exists: a primary-key lookup,
    /// unlike ``session(_:)``, which counts the session's entries.
    private func requireSession(_ id: JournalSession.ID) throws(ActionLogError) {
        let exists = try read(session: id) { connection in
            try connection.cachedStatement("SELECT 1 FROM sessions WHERE id = ?1").firstRow([.integer(id)]) { _ in true } ?? false
        }
        guard exists else {
            throw ActionLogError(.sessionNotFound, file: fileName, session: id, reason: "no such session")
        }
    }

    private func session(from row: Row) throws(ActionLogError) -> JournalSession {
        let id = row.int(0)
        let storedStatus = row.text(4) ?? ""
        guard var status = SessionHeader.Status(rawValue: storedStatus) else {
            throw ActionLogError(.corrupt, file: fileName, session: id, reason: "unknown session status \"\(storedStatus)\"")
        }
        func time(_ column: Int32, _ what: String) throws(ActionLogError) -> Date? {
            switch row.time(column, what) {
            case nil: return nil
            case .success(let seconds): return Date(timeIntervalSince1970: seconds)
            case .failure(let problem): throw ActionLogError(.corrupt, file: fileName, session: id, reason: problem.reason)
            }
        }
        guard let startedAt = try time(2, "the session's start time") else {
            throw ActionLogError(.corrupt, file: fileName, session: id, reason: "the session has no start time")
        }
        var endedAt = try time(3, "the session's end time")
        // The last entry's time is checked where the entry is read; here it only ends the session.
        let lastEntryAt = (try? time(13, "the last entry's time")).flatMap { $0 }
        if status == .recording, !SessionLock.isHeld(journal: path, session: id) {
            status = .interrupted
            endedAt = lastEntryAt
        }
        let metadataText = row.text(10) ?? "{}"
        let metadata: JSONValue
        do {
            metadata = try JSONValue(parsing: metadataText)
        } catch {
            throw ActionLogError(.corrupt, file: fileName, session: id, reason: "the session metadata is not valid JSON: \(error)")
        }
        return JournalSession(id: id, header: SessionHeader(
            name: row.text(1) ?? "",
            startedAt: startedAt,
            endedAt: endedAt,
            status: status,
            libraryVersion: row.text(5) ?? "",
            appVersion: row.text(6),
            stateType: row.text(7) ?? "",
            actionType: row.text(8) ?? "",
            effectType: row.text(9),
            metadata: metadata,
            entryCount: Int(row.int(12)),
            droppedCount: Int(row.int(11)),
            lastEntryAt: lastEntryAt,
            storedUUID: try storedUUID(row.text(14), session: id)
        ))
    }

    /// The session's stored id, `nil` when it has none; a text that is no UUID is damage, named.
    private func storedUUID(_ text: String?, session id: JournalSession.ID) throws(ActionLogError) -> UUID? {
        guard let text else { return nil }
        guard let uuid = UUID(uuidString: text) else {
            throw ActionLogError(.corrupt, file: fileName, session: id, reason: "the session's uuid \(JSONValue.string(String(text.prefix(40))).canonicalText)\(text.count > 40 ? "…" : "") is not a UUID")
        }
        return uuid
    }

    /// Persists `interrupted` for sessions left `recording` by a recorder that no longer runs.
    static func markInterruptedSessions(_ connection: Connection, path: String) throws(ActionLogError) {
        do {
            let recording = try connection.prepare("SELECT id FROM sessions WHERE status = 'recording'").rows { $0.int(0) }
            for id in recording where !SessionLock.isHeld(journal: path, session: id) {
                try connection.prepare("""
                    UPDATE sessions SET status = 'interrupted',
                        ended_at = (SELECT max(time) FROM entries WHERE session_id = ?1)
                    WHERE id = ?1 AND status = 'recording'
                    """).execute([.integer(id)])
                SessionLock.removeStale(journal: path, session: id)
            }
        } catch let error as SQLiteError {
            throw JournalFile.wrap(error, file: JournalFile.displayName(path))
        } catch {
            throw ActionLogError(.sqlite, file: JournalFile.displayName(path), reason: "\(error)")
        }
    }

    // MARK: - Entries

    /// The entries of a session in order, starting at `seq`, read into an array.
    ///
    /// For a whole session, prefer ``entryCursor(in:from:)``: it reads a page at a time, so memory
    /// stays bounded however long the session.
    ///
    /// ```swift
    /// for entry in try journal.entries(in: 1, from: 40, limit: 10) { print(entry.seq, entry.label ?? "initial") }
    /// ```
    ///
    /// - Parameters:
    ///   - session: the session's id.
    ///   - seq: the first entry to return.
    ///   - limit: the most entries to return; `nil` for all.
    /// - Throws: ``ActionLogError`` when the session does not exist or an entry cannot be read; the error
    ///   names the entry.
    package func entries(in session: JournalSession.ID, from seq: Int = 0, limit: Int? = nil) throws(ActionLogError) -> [Entry] {
        try requireSession(session)
        var cursor = EntryCursor(journal: self, session: session, from: seq, limit: limit)
        var entries: [Entry] = []
        while let entry = try cursor.next() {
            entries.append(entry)
        }
        return entries
    }

    /// A cursor over the entries of a session, in order from `seq`: it reads a page of rows at a time
    /// by primary key, so walking a session of a million entries holds one page in memory.
    ///
    /// ```swift
    /// var cursor = try journal.entryCursor(in: id)
    /// var states = StateWalk(file: journal.fileName, session: id)
    /// while let entry = try cursor.next() { try states.advance(past: entry) }
    /// ```
    ///
    /// Entries a recorder commits while the cursor runs are read too, when they come after the page
    /// being read.
    ///
    /// - Parameters:
    ///   - session: the session's id.
    ///   - seq: the first entry to read.
    /// - Throws: ``ActionLogError`` with code ``ActionLogError/Code/sessionNotFound`` when there is no such session.
    public func entryCursor(in session: JournalSession.ID, from seq: Int = 0) throws(ActionLogError) -> EntryCursor {
        try requireSession(session)
        return EntryCursor(journal: self, session: session, from: seq)
    }

    /// A cursor over a session's entries for a timeline: their sequence numbers, times, labels,
    /// actions, effects, durations and gaps, without reading their states, so a damaged state fails
    /// only the readers that need it.
    ///
    /// - Parameters:
    ///   - session: the session's id.
    ///   - seq: the first entry to read.
    ///   - limit: the most entries to read; `nil` for the rest of the session.
    /// - Throws: ``ActionLogError`` with code ``ActionLogError/Code/sessionNotFound`` when there is no such session.
    package func timelineCursor(in session: JournalSession.ID, from seq: Int = 0, limit: Int? = nil) throws(ActionLogError) -> TimelineCursor {
        try requireSession(session)
        return TimelineCursor(journal: self, session: session, from: seq, limit: limit)
    }

    /// One entry of a session.
    ///
    /// - Throws: ``ActionLogError`` with code ``ActionLogError/Code/entryNotFound`` when the session has no such entry.
    public func entry(_ seq: Int, in session: JournalSession.ID) throws(ActionLogError) -> Entry {
        guard let entry = try entries(in: session, from: seq, limit: 1).first, entry.seq == seq else {
            throw ActionLogError(.entryNotFound, file: fileName, session: session, entry: seq, reason: "no such entry")
        }
        return entry
    }

    /// The recorded state after entry `seq` (entry 0: the initial state), as JSON.
    ///
    /// It reads the entry's keyframe and the deltas after it (the recorder bounds how many), in one
    /// statement, and rebuilds the state within the bounds every reader applies.
    ///
    /// ```swift
    /// let json = try journal.state(at: 12, in: session.id)
    /// let cart = try json.decode(Cart.self)
    /// ```
    ///
    /// - Throws: ``ActionLogError``: ``ActionLogError/Code/entryNotFound`` when there is no such entry or
    ///   the entry is a gap (no state was recorded there); ``ActionLogError/Code/corrupt`` naming the
    ///   entry when an entry on the way cannot be read or breaks a rule every reader checks.
    public func state(at seq: Int, in session: JournalSession.ID) throws(ActionLogError) -> JSONValue {
        try StateWalk.state(at: seq, chain: stateChain(at: seq, in: session), file: fileName, session: session)
    }

    /// The state after entry `seq` and, when the same read reaches it (a delta's: the entries back to
    /// its keyframe), the state before it, after `seq - 1`; `nil` for a keyframe. One read and one
    /// walk, as ``state(at:in:)``: how the viewer shows what a delta replaced and removed.
    ///
    /// - Throws: ``ActionLogError`` as ``state(at:in:)`` does.
    package func stateChange(at seq: Int, in session: JournalSession.ID) throws(ActionLogError) -> (before: JSONValue?, after: JSONValue) {
        try StateWalk.states(at: seq, chain: stateChain(at: seq, in: session), file: fileName, session: session, keepingBefore: true)
    }

    /// The entries that rebuild the state after `seq`: from the keyframe at or before it, up to `seq`,
    /// oldest first, the gaps on the way included; `seq` alone when it is a gap.
    private func stateChain(at seq: Int, in session: JournalSession.ID) throws(ActionLogError) -> [Entry] {
        // One statement, one descent of the entries' b-tree: walk back from `seq` to a keyframe (past
        // gaps: the delta after one patches the state before it), reading only the kind and the state.
        // The recorder's keyframe policy counts the deltas between; the gaps among them store nothing.
        let chain: [RawEntry] = try read(session: session, entry: seq) { connection in
            let statement = try connection.cachedStatement(Self.stateChainQuery(checksums: try Checksums.tablesWithColumn(connection)))
            try statement.bind([.integer(session), .integer(Int64(seq))])
            defer { statement.reset() }
            var chain: [RawEntry] = []
            while try statement.step() {
                let raw = RawEntry(session: session, stateRow: Row(statement: statement))
                chain.append(raw)
                let kind = raw.stored.kind
                if kind == Entry.Kind.delta.rawValue || (kind == Entry.Kind.gap.rawValue && chain.count > 1) { continue }
                break
            }
            return chain
        }
        guard let target = chain.first, target.seq == Int64(seq) else {
            try requireSession(session)
            throw ActionLogError(.entryNotFound, file: fileName, session: session, entry: seq, reason: "no such entry")
        }
        // Parsed newest first, so that the target's own problems are reported before those of the
        // entries leading to it; walked oldest first.
        var entries: [Entry] = []
        entries.reserveCapacity(chain.count)
        for raw in chain {
            entries.append(try raw.parsed(file: fileName))
        }
        return entries.reversed()
    }

    /// The entries `state(at:in:)` needs, for `?1` the session and `?2` the entry, newest first: read
    /// until the first keyframe (or the entry itself, when it is a gap). The primary key (session_id,
    /// seq) serves it without sorting. With the checksum when the file's `entries` has the column
    /// (`checksums`), NULL in its place otherwise.
    private static func stateChainQuery(checksums: Set<String>) -> String {
        """
        SELECT \(StoredEntry.stateColumns), \(checksumColumn(checksums)) FROM entries
        WHERE session_id = ?1 AND seq <= ?2
        ORDER BY seq DESC
        """
    }

    /// `checksum`, or `NULL` for a file whose `entries` has no such column.
    private static func checksumColumn(_ checksums: Set<String>) -> String {
        checksums.contains("entries") ? Checksums.column : "NULL"
    }

    /// The rows of a page of a cursor; without the states (NULL in their place), which a timeline
    /// never reads, unless `readingStates`.
    private static func rawEntriesQuery(readingStates: Bool, checksums: Set<String>) -> String {
        let columns = readingStates ? RawEntry.columns : RawEntry.columns.replacingOccurrences(of: " state,", with: " NULL,")
        return """
            SELECT \(columns), \(checksumColumn(checksums)) FROM entries
            WHERE session_id = ?1 AND seq >= ?2 ORDER BY seq LIMIT ?3
            """
    }

    /// A page of raw rows for a cursor; without their states unless `readingStates`.
    func rawPage(session: JournalSession.ID, from seq: Int, limit: Int, readingStates: Bool = true) throws(ActionLogError) -> [RawEntry] {
        try read(session: session, entry: seq) { connection in
            let query = Self.rawEntriesQuery(readingStates: readingStates, checksums: try Checksums.tablesWithColumn(connection))
            return try connection.cachedStatement(query)
                .rows([.integer(session), .integer(Int64(seq)), .integer(Int64(limit))], expected: limit) {
                    RawEntry(row: $0, readingState: readingStates)
                }
        }
    }
}

extension Journal {
    /// Reads a session with all its entries, in one read transaction: the session's counters match
    /// its entries even while a recorder writes it.
    ///
    /// ```swift
    /// let recorded = try journal.recordedSession(1)
    /// ```
    ///
    /// - Parameter id: the session's id.
    /// - Throws: ``ActionLogError`` when there is no such session or an entry cannot be read.
    public func recordedSession(_ id: JournalSession.ID) throws(ActionLogError) -> RecordedSession {
        try snapshot { () throws(ActionLogError) in
            var recorded = RecordedSession(session: try session(id).header, entries: try entries(in: id), source: .journal(file: fileName, id: id))
            recorded.handlers = try handlerRecords(in: id)
            return recorded
        }
    }
}
