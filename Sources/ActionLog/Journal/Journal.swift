import Foundation
import Synchronization

/// A journal file: the sessions recorded into it and their entries.
///
/// Open one to read what an app recorded. Readers open the file read-only by default and never
/// change it, so a journal can be inspected while an app is still recording into it.
///
/// ```swift
/// let journal = try Journal(path: "checkout.actionlog")
/// for session in try journal.sessions() {
///     print(session.name, session.status, session.entryCount)
/// }
/// let state = try journal.state(at: 12, in: 1)   // the recorded state after entry 12
/// ```
///
/// A `Journal` is safe to share between tasks: its connection is guarded by a lock.
public final class Journal: Sendable {
    /// How a journal is opened.
    public enum AccessMode: Sendable {
        /// Never creates or changes the file. The default for readers.
        case readOnly
        /// Creates the file if needed, migrates an older schema, and marks sessions left behind by a
        /// dead recorder `interrupted` in the file.
        case readWrite
    }

    /// The file's path.
    public let path: String
    /// The file name used in error messages.
    public let fileName: String
    private let connection: Mutex<Connection>

    /// Opens the journal at `path`.
    ///
    /// - Parameters:
    ///   - path: the journal file.
    ///   - mode: ``AccessMode/readOnly`` (the default) or ``AccessMode/readWrite``.
    /// - Throws: ``JournalError`` when the file is missing (read-only), is not SQLite, is an SQLite
    ///   database that is not a journal, or was written by a newer ActionLog.
    public init(path: String, mode: AccessMode = .readOnly) throws(JournalError) {
        self.path = path
        self.fileName = JournalFile.displayName(path)
        let connection = try JournalFile.open(path: path, mode: mode == .readOnly ? .readOnly : .readWrite)
        if mode == .readWrite {
            try Self.markInterruptedSessions(connection, path: path)
        }
        self.connection = Mutex(connection)
    }

    /// Opens the journal at a file URL. See ``init(path:mode:)``.
    public convenience init(url: URL, mode: AccessMode = .readOnly) throws(JournalError) {
        try self.init(path: url.path, mode: mode)
    }

    /// Runs `body` with the connection, turning SQLite errors into journal errors that name the file.
    func read<T: Sendable>(session: Session.ID? = nil, entry: Int? = nil, _ body: (Connection) throws -> T) throws(JournalError) -> T {
        let file = fileName
        let result: Result<T, JournalError> = connection.withLock { connection in
            do {
                return .success(try body(connection))
            } catch let error as JournalError {
                return .failure(error)
            } catch let error as SQLiteError {
                return .failure(JournalFile.wrap(error, file: file, session: session, entry: entry))
            } catch {
                return .failure(JournalError(.sqlite, file: file, session: session, entry: entry, reason: "\(error)"))
            }
        }
        return try result.get()
    }

    // MARK: - Sessions

    private static let sessionColumns = """
        SELECT s.id, s.name, s.started_at, s.ended_at, s.status, s.library_version, s.app_version,
               s.state_type, s.action_type, s.effect_type, s.metadata, s.dropped,
               (SELECT count(*) FROM entries e WHERE e.session_id = s.id),
               (SELECT max(time) FROM entries e WHERE e.session_id = s.id)
        FROM sessions s
        """

    /// Every session in the journal, oldest first.
    ///
    /// - Throws: ``JournalError`` when the file cannot be read or a session row is damaged.
    public func sessions() throws(JournalError) -> [Session] {
        try read { connection in
            try connection.prepare(Self.sessionColumns + " ORDER BY s.id").rows { try self.session(from: $0) }
        }
    }

    /// The session with the given id.
    ///
    /// - Throws: ``JournalError`` with code ``JournalError/Code/sessionNotFound`` when there is none.
    public func session(_ id: Session.ID) throws(JournalError) -> Session {
        let found = try read(session: id) { connection in
            try connection.prepare(Self.sessionColumns + " WHERE s.id = ?1").firstRow([.integer(id)]) { try self.session(from: $0) }
        }
        guard let found else {
            throw JournalError(.sessionNotFound, file: fileName, session: id, reason: "no such session")
        }
        return found
    }

    /// Throws ``JournalError/Code/sessionNotFound`` unless the session exists: a primary-key lookup,
    /// unlike ``session(_:)``, which counts the session's entries.
    private func requireSession(_ id: Session.ID) throws(JournalError) {
        let exists = try read(session: id) { connection in
            try connection.cachedStatement("SELECT 1 FROM sessions WHERE id = ?1").firstRow([.integer(id)]) { _ in true } ?? false
        }
        guard exists else {
            throw JournalError(.sessionNotFound, file: fileName, session: id, reason: "no such session")
        }
    }

    private func session(from row: Row) throws -> Session {
        let id = row.int(0)
        let storedStatus = row.text(4) ?? ""
        guard var status = Session.Status(rawValue: storedStatus) else {
            throw JournalError(.corrupt, file: fileName, session: id, reason: "unknown session status \"\(storedStatus)\"")
        }
        let lastEntryAt = row.optionalDouble(13).map(Date.init(timeIntervalSince1970:))
        var endedAt = row.optionalDouble(3).map(Date.init(timeIntervalSince1970:))
        if status == .recording, !SessionLock.isHeld(journal: path, session: id) {
            status = .interrupted
            endedAt = lastEntryAt
        }
        let metadataText = row.text(10) ?? "{}"
        let metadata: JSONValue
        do {
            metadata = try JSONValue(parsing: metadataText)
        } catch {
            throw JournalError(.corrupt, file: fileName, session: id, reason: "the session metadata is not valid JSON: \(error)")
        }
        return Session(
            id: id,
            name: row.text(1) ?? "",
            startedAt: Date(timeIntervalSince1970: row.double(2)),
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
            lastEntryAt: lastEntryAt
        )
    }

    /// Persists `interrupted` for sessions left `recording` by a recorder that no longer runs.
    static func markInterruptedSessions(_ connection: Connection, path: String) throws(JournalError) {
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
            throw JournalError(.sqlite, file: JournalFile.displayName(path), reason: "\(error)")
        }
    }

    // MARK: - Entries

    /// The entries of a session in order, starting at `seq`.
    ///
    /// ```swift
    /// for entry in try journal.entries(in: 1) { print(entry.seq, entry.label ?? "initial") }
    /// ```
    ///
    /// - Parameters:
    ///   - session: the session's id.
    ///   - seq: the first entry to return.
    ///   - limit: the most entries to return; `nil` for all.
    /// - Throws: ``JournalError`` when the session does not exist or an entry cannot be read; the error
    ///   names the entry.
    public func entries(in session: Session.ID, from seq: Int = 0, limit: Int? = nil) throws(JournalError) -> [Entry] {
        try requireSession(session)
        let file = fileName
        return try read(session: session) { connection in
            try Self.rawEntries(connection, session: session, from: seq, limit: limit).map { raw throws(JournalError) in
                try raw.parsed(file: file)
            }
        }
    }

    /// One entry of a session.
    ///
    /// - Throws: ``JournalError`` with code ``JournalError/Code/entryNotFound`` when the session has no such entry.
    public func entry(_ seq: Int, in session: Session.ID) throws(JournalError) -> Entry {
        guard let entry = try entries(in: session, from: seq, limit: 1).first, entry.seq == seq else {
            throw JournalError(.entryNotFound, file: fileName, session: session, entry: seq, reason: "no such entry")
        }
        return entry
    }

    /// The recorded state after entry `seq` (entry 0: the initial state), as JSON.
    ///
    /// ```swift
    /// let json = try journal.state(at: 12, in: session.id)
    /// let cart = try json.decode(Cart.self)
    /// ```
    ///
    /// - Throws: ``JournalError`` when there is no such entry, when the entry is a gap (no state was
    ///   recorded there), or when the stored state cannot be read.
    public func state(at seq: Int, in session: Session.ID) throws(JournalError) -> JSONValue {
        // One statement, one descent of the entries' b-tree: walk back from `seq` to the keyframe,
        // reading only the kind and the state. Anything irregular on the way (no such entry, a gap,
        // a missing entry, an unknown kind) is left to the slow path, which names what is wrong.
        let chain: [(seq: Int, kind: Entry.Kind, state: String?)]? = try read(session: session, entry: seq) { connection in
            let statement = try connection.cachedStatement(Self.stateChainQuery)
            try statement.bind([.integer(session), .integer(Int64(seq))])
            defer { statement.reset() }
            var chain: [(seq: Int, kind: Entry.Kind, state: String?)] = []
            var expected = seq
            while try statement.step() {
                let row = Row(statement: statement)
                guard Int(row.int(0)) == expected, let kind = Entry.Kind(rawValue: row.text(1) ?? ""), kind != .gap else { return nil }
                chain.append((expected, kind, row.text(2)))
                if kind == .keyframe { return chain }
                expected -= 1
            }
            return nil
        }
        guard let chain else { return try stateEntryByEntry(at: seq, in: session) }
        let file = fileName
        // Parsed newest first, so that the target's own problems are reported before those of the
        // entries leading to it; applied oldest first.
        var entries: [Entry] = []
        entries.reserveCapacity(chain.count)
        for link in chain {
            let stored: JSONValue?
            do {
                stored = try link.state.map { text in try JSONValue(parsing: text) }
            } catch {
                throw JournalError(.corrupt, file: file, session: session, entry: link.seq, reason: "the state is not valid JSON: \(error)")
            }
            entries.append(Entry(
                session: session, seq: link.seq, kind: link.kind, time: Date(timeIntervalSince1970: 0),
                label: nil, action: nil, state: stored, effect: nil))
        }
        var state: JSONValue?
        for entry in entries.reversed() {
            try entry.advance(&state, file: file)
        }
        // A keyframe starts the chain and no gap is in it, so every step leaves a state.
        return state!
    }

    /// The entries `state(at:in:)` needs, for `?1` the session and `?2` the entry, newest first: read
    /// until the first keyframe. The primary key (session_id, seq) serves it without sorting.
    private static let stateChainQuery = """
        SELECT seq, kind, state FROM entries
        WHERE session_id = ?1 AND seq <= ?2
        ORDER BY seq DESC
        """

    private func gapError(_ entry: Entry, session: Session.ID) -> JournalError {
        JournalError(.entryNotFound, file: fileName, session: session, entry: entry.seq, reason: "a gap: \(entry.dropped ?? 0) actions were lost here, so no state was recorded")
    }

    /// `state(at:in:)` one question at a time: the session, the entry, its keyframe, then the entries
    /// from there. Taken only when the single query comes back short, to name what is missing (or,
    /// if a recorder wrote the entry in between, to read it after all).
    private func stateEntryByEntry(at seq: Int, in session: Session.ID) throws(JournalError) -> JSONValue {
        let target = try self.entry(seq, in: session)
        if target.kind == .gap {
            throw gapError(target, session: session)
        }
        // One keyframe, then the deltas after it: the writer bounds how many there are.
        let keyframe = try read(session: session, entry: seq) { connection in
            try connection.cachedStatement(
                "SELECT max(seq) FROM entries WHERE session_id = ?1 AND seq <= ?2 AND kind = 'keyframe'"
            ).firstRow([.integer(session), .integer(Int64(seq))]) { $0.optionalInt(0) } ?? nil
        }
        guard let keyframe else {
            throw JournalError(.corrupt, file: fileName, session: session, entry: seq, reason: "no keyframe at or before this entry")
        }
        var state: JSONValue?
        for entry in try entries(in: session, from: Int(keyframe), limit: seq - Int(keyframe) + 1) {
            try entry.advance(&state, file: fileName)
        }
        guard let state else {
            throw JournalError(.corrupt, file: fileName, session: session, entry: seq, reason: "a gap between the keyframe at entry \(keyframe) and this entry")
        }
        return state
    }

    private static let rawEntriesQuery = """
        SELECT \(RawEntry.columns) FROM entries
        WHERE session_id = ?1 AND seq >= ?2 ORDER BY seq LIMIT ?3
        """

    static func rawEntries(_ connection: Connection, session: Session.ID, from seq: Int = 0, limit: Int? = nil) throws -> [RawEntry] {
        try connection.cachedStatement(rawEntriesQuery).rows([.integer(session), .integer(Int64(seq)), .integer(limit.map(Int64.init) ?? -1)]) { RawEntry(row: $0) }
    }
}
