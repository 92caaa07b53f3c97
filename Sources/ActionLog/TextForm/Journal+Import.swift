import Foundation

extension Journal {
    /// Inserts a recorded session (read from another journal or from its text form) as a new session
    /// of this journal, which must be opened ``AccessMode/readWrite``; returns the new session's id.
    ///
    /// The session is checked first: entry 0 must be a keyframe holding the initial state, every
    /// delta must apply to the state before it, and the gaps must add up to the session's dropped
    /// count. A damaged session is refused, naming the file, the entry and (for a text file) the
    /// line, rather than stored as a damaged session. Everything is inserted in one transaction: a
    /// failed import leaves no partial session behind.
    ///
    /// Entries are stored exactly as given (kind, time, label, duration, texts as canonical JSON). A
    /// session that was still `recording` when it was exported is stored as `interrupted`, ended at
    /// its last entry: no recorder holds it in this journal, and that is how a reader would report it.
    ///
    /// ```swift
    /// let recorded = try RecordedSession(contentsOfJSONL: URL(fileURLWithPath: "checkout.jsonl"))
    /// let id = try Journal(path: "goldens.actionlog", mode: .readWrite).insert(recorded)
    /// ```
    ///
    /// - Parameter recorded: the session and its entries. Its row id is not kept (the journal assigns
    ///   one); its ``SessionHeader/uuid`` is, and a journal that holds a session with that uuid
    ///   already refuses it.
    /// - Returns: the id of the inserted session.
    /// - Throws: ``ActionLogError`` naming `recorded.file` when the session is damaged; naming this
    ///   journal when it was opened read-only or when SQLite refuses the insert (the error names the entry).
    @discardableResult
    package func insert(_ recorded: RecordedSession) throws(ActionLogError) -> JournalSession.ID {
        var entries = recorded.entries.makeIterator()
        do {
            return try insert(session: recorded.session, file: recorded.file, handlers: { recorded.handlers }) { entries.next() }
        } catch {
            throw recorded.locate(error)
        }
    }

    /// Inserts a session whose entries come one at a time, checking each on the way
    /// (``StateWalk``), in one transaction: memory stays bounded however long the session, and a
    /// damaged entry rolls the whole session back.
    ///
    /// - Parameters:
    ///   - session: the session's metadata.
    ///   - source: the file the entries come from, for errors about them.
    ///   - next: the next entry, or `nil` after the last.
    /// - Returns: the new session's id.
    package func insert(
        session: SessionHeader, file source: String, handlers: () -> [HandlerRecord] = { [] }, next: () throws(ActionLogError) -> Entry?
    ) throws(ActionLogError) -> JournalSession.ID {
        let file = fileName
        let isLive = session.status == .recording
        let status = isLive ? SessionHeader.Status.interrupted : session.status
        return try read { connection in
            guard connection.mode == .readWrite else {
                throw ActionLogError(.fileSystem, file: file, reason: "opened read-only, so no session can be inserted; open it with mode: .readWrite")
            }
            return try connection.transaction {
                let uuid = try Self.uuidToStore(for: session, connection: connection, file: file)
                try connection.prepare("""
                    INSERT INTO sessions (name, started_at, ended_at, status, library_version, app_version,
                                          state_type, action_type, effect_type, metadata, dropped, uuid)
                    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
                    """).execute([
                        .text(session.name), .real(session.startedAt.timeIntervalSince1970),
                        .optional(isLive ? nil : session.endedAt?.timeIntervalSince1970), .text(status.rawValue),
                        .text(session.libraryVersion), .optional(session.appVersion), .text(session.stateType),
                        .text(session.actionType), .optional(session.effectType), .text(session.metadata.canonicalText),
                        .integer(Int64(session.droppedCount)), .optional(uuid?.uuidString.lowercased()),
                    ])
                let id = connection.lastInsertedRowID
                let inserter = EntryInserter(connection: connection, session: id)
                defer { inserter.finalizeStatements() }
                var states = StateWalk(file: source, session: nil)
                var changes = ChangeTracker()
                var lastTime: Double?
                while let entry = try next() {
                    try states.checkAction(of: entry)
                    let changedPaths = try changes.advance(&states, past: entry)
                    let stored = entry.stored
                    lastTime = max(lastTime ?? stored.time, stored.time)
                    let row = EntryInserter.Row(entry: stored, changedPaths: changedPaths)
                    do throws(SQLiteError) {
                        try inserter.insert([row], firstSeq: entry.seq)
                    } catch {
                        // The transaction rolls back: the session's id no longer exists, the entry tells where it failed.
                        throw JournalFile.wrap(error, file: file, entry: entry.seq)
                    }
                }
                try states.finish(droppedCount: session.droppedCount)
                do throws(SQLiteError) {
                    try inserter.markChangeIndexComplete(startedAt: session.startedAt.timeIntervalSince1970)
                } catch {
                    throw JournalFile.wrap(error, file: file)
                }
                for handler in handlers() {
                    guard handler.seq >= 1, handler.seq < states.entryCount else {
                        throw ActionLogError(.corrupt, file: source, entry: handler.seq, reason: "a handler record for an entry the session does not have")
                    }
                    do throws(SQLiteError) {
                        try HandlerInserter.insert(handler, connection: connection, session: id, seq: handler.seq)
                    } catch {
                        throw JournalFile.wrap(error, file: file, entry: handler.seq)
                    }
                }
                if isLive {
                    // Stored as interrupted, ended at its last entry: how a reader reports such a session.
                    try connection.prepare("UPDATE sessions SET ended_at = ?2 WHERE id = ?1").execute([.integer(id), .optional(lastTime)])
                }
                return id
            }
        }
    }

    /// Reads a session's text form and inserts it into the journal at `path`, creating the journal
    /// if needed: how a golden kept as text becomes a journal to replay. A session the journal holds
    /// already (``importingJSONL(at:into:checked:inserted:)`` says what that means) is not stored
    /// again: its id is returned.
    ///
    /// The file is read twice, a line at a time: once to check it, before the journal is created or
    /// changed, and once to insert it. Memory stays bounded however long the session (a line may
    /// hold at most 256 MiB). So it must be a regular file: a pipe, a FIFO or a device is refused
    /// before it is opened, as its text would be gone after the first reading.
    ///
    /// ```swift
    /// let id = try Journal.importJSONL(at: URL(fileURLWithPath: "fixtures/checkout.jsonl"), into: tmp + "/checkout.actionlog")
    /// let replay = Replay(journal: try Journal(path: tmp + "/checkout.actionlog"), session: id, reducer: Checkout.reduce)
    /// ```
    ///
    /// - Parameters:
    ///   - url: the `.jsonl` file, a regular file.
    ///   - path: the journal; created when missing.
    /// - Returns: the id of the inserted session, or of the session that was there already.
    /// - Throws: ``ActionLogError`` when the text cannot be read or is damaged (naming the file, the
    ///   entry and the line), or the journal cannot be written; ``ActionLogError/Code/invalidArgument``
    ///   when `url` is not a regular file.
    @discardableResult
    package static func importJSONL(at url: URL, into path: String) throws(ActionLogError) -> JournalSession.ID {
        try importingJSONL(at: url, into: path).id
    }

    /// What an import did: the session as read, and its id in the journal.
    package struct Imported: Sendable {
        /// The session as the text form holds it, with its entry count.
        package let session: SessionHeader
        /// The new session's id; or, when ``isAlreadyThere``, the id of the session that was there.
        package let id: JournalSession.ID
        /// Whether the journal held the session already, so nothing was written.
        package let isAlreadyThere: Bool
    }

    /// The id an inserted session is stored with: its own, which no session of the journal may have
    /// already. A session that has none stored (a text form written before sessions had ids, a
    /// golden) is stored without one, and so reads with the id derived from its header, as it did
    /// before; unless a session of the journal has that id (another recording with the same header),
    /// when it gets a new random id.
    private static func uuidToStore(for session: SessionHeader, connection: Connection, file: String) throws -> UUID? {
        if let stored = session.storedUUID {
            if let (id, name) = try connection.cachedStatement("SELECT id, name FROM sessions WHERE uuid = ?1 LIMIT 1")
                .firstRow([.text(stored.uuidString.lowercased())], { ($0.int(0), $0.text(1) ?? "") })
            {
                throw ActionLogError(
                    .invalidArgument, file: file, session: id,
                    reason: "holds this session already: \(JSONValue.string(name).canonicalText) has the uuid \(stored.uuidString.lowercased())")
            }
            return stored
        }
        let derived = session.derivedUUID
        let taken = try connection.cachedStatement("SELECT 1 FROM sessions WHERE uuid = ?1").firstRow([.text(derived.uuidString.lowercased())]) { _ in true } ?? false
        // Sessions without a stored id derive theirs: only those of the same name may derive this one.
        let derivedByAnother = try connection.cachedStatement("""
            SELECT started_at, library_version, app_version, state_type, action_type FROM sessions WHERE uuid IS NULL AND name = ?1
            """).rows([.text(session.name)]) { row in
                SessionHeader.derivedUUID(
                    name: session.name, startedAt: Date(timeIntervalSince1970: row.double(0)), libraryVersion: row.text(1) ?? "",
                    appVersion: row.text(2), stateType: row.text(3) ?? "", actionType: row.text(4) ?? "")
            }.contains(derived)
        return taken || derivedByAnother ? UUID() : nil
    }

    /// ``importJSONL(at:into:)``, returning the session as read and its id, and telling how far it has
    /// got: `checked` after each entry of the first pass (the total is not known yet), `inserted`
    /// after each entry of the second (out of the entries the first pass counted).
    ///
    /// A session the journal holds already is not stored twice. A text form that carries the
    /// session's ``SessionHeader/uuid`` is the session of that id, if the journal has one. One
    /// written before sessions had ids is "the same session" when it is the same recording, as far
    /// as the journal can tell: a session of the same name, started at the same time (the same number of seconds since 1970, as stored), with
    /// the same number of entries, every entry stored identically (kind, time, label, action, state
    /// or patch, effect, duration, gap), and the same service calls and output events. Only sessions
    /// of that name and start time are compared, entry by entry during the first pass, so an import
    /// costs one more read of such a session, and nothing when there is none. Then no session is
    /// written, and the result says so (``Imported/isAlreadyThere``) with that session's id; the
    /// journal is still opened to write, so that one no writer may write refuses the import as it
    /// refuses any other.
    ///
    /// - Parameters:
    ///   - checked: called with the number of entries checked so far, from 1 up.
    ///   - inserted: called with the number of entries read for inserting so far, and the total.
    package static func importingJSONL(
        at url: URL, into path: String, checked: (Int) -> Void = { _ in }, inserted: (Int, Int) -> Void = { _, _ in }
    ) throws(ActionLogError) -> Imported {
        var check = try JSONLReader(url: url, readTwice: true)
        let sameID = try SameRecording.session(withUUIDOf: check.header, in: path)
        var twins = sameID == nil && check.header.storedUUID == nil ? try SameRecording.candidates(for: check.header, in: path) : []
        var count = 0
        while let entry = try check.next(checking: true) {
            count += 1
            checked(count)
            if !twins.isEmpty {
                let stored = entry.stored
                var index = twins.startIndex
                while index < twins.endIndex {
                    if try twins[index].next(matches: stored) { index += 1 } else { twins.remove(at: index) }
                }
            }
        }
        if let sameID {
            // Opened to write all the same, as below.
            _ = try Journal(path: path, mode: .readWrite)
            return Imported(session: check.session(entryCount: count), id: sameID.id, isAlreadyThere: true)
        }
        for var twin in twins {
            guard try twin.ends(handlers: check.collected.inOrder) else { continue }
            // Opened to write all the same: a journal no writer may write (a trigger, a read-only
            // file) refuses the import as it would refuse a new session.
            _ = try Journal(path: path, mode: .readWrite)
            return Imported(session: check.session(entryCount: count), id: twin.session.id, isAlreadyThere: true)
        }
        var reader = try JSONLReader(url: url)
        let journal = try Journal(path: path, mode: .readWrite)
        // Checked whole above; `insert` walks each entry through StateWalk again as it stores it.
        let collected = reader.collected
        var read = 0
        let total = count
        let id = try journal.insert(session: reader.header, file: reader.file, handlers: { collected.inOrder }) { () throws(ActionLogError) in
            let entry = try reader.next(checking: false)
            if entry != nil {
                read += 1
                inserted(read, total)
            }
            return entry
        }
        return Imported(session: check.session(entryCount: count), id: id, isAlreadyThere: false)
    }
}

/// A session of a journal that may hold the recording being imported: same name and start time,
/// its entries compared one by one as the text form is read. Times are compared as the text form
/// writes them, to the microsecond: an exported session is the same as the one it came from.
private struct SameRecording {
    let journal: Journal
    let session: JournalSession
    private var cursor: EntryCursor

    /// The journal at `path`, read-only; `nil` when there is none yet (or an empty file, which the
    /// import makes one), or one whose last write is unfinished (opening it to write finishes it;
    /// such a journal is compared on the next import).
    private static func existingJournal(at path: String) throws(ActionLogError) -> Journal? {
        guard let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber, size.intValue > 0 else { return nil }
        do {
            return try Journal(path: path)
        } catch where JournalFile.isUnfinishedWrite(error) {
            return nil
        }
    }

    /// The session of the journal at `path` whose id is the one `header` carries; `nil` when the
    /// header carries none (its id is derived, so it is compared as a recording) or none has it.
    static func session(withUUIDOf header: SessionHeader, in path: String) throws(ActionLogError) -> JournalSession? {
        guard let uuid = header.storedUUID, let journal = try existingJournal(at: path) else { return nil }
        var sessions = journal.sessionCursor()
        while let row = try sessions.nextRow() {
            if case .success(let session) = row, session.uuid == uuid { return session }
        }
        return nil
    }

    /// The sessions of the journal at `path` with the name and start time of `header`; none when
    /// there is no journal there yet.
    static func candidates(for header: SessionHeader, in path: String) throws(ActionLogError) -> [SameRecording] {
        guard let journal = try existingJournal(at: path) else { return [] }
        var found: [SameRecording] = []
        var sessions = journal.sessionCursor()
        while let row = try sessions.nextRow() {
            guard case .success(let session) = row, session.name == header.name,
                JSONLTime.same(session.startedAt.timeIntervalSince1970, header.startedAt.timeIntervalSince1970)
            else { continue }
            found.append(SameRecording(journal: journal, session: session, cursor: try journal.entryCursor(in: session.id)))
        }
        return found
    }

    /// Whether the session's next entry is stored as `entry` would be.
    mutating func next(matches entry: StoredEntry) throws(ActionLogError) -> Bool {
        // A damaged row is no match: the import goes on to store the text form's session.
        do {
            guard var stored = try cursor.nextRaw()?.stored, JSONLTime.same(stored.time, entry.time) else { return false }
            stored.time = entry.time
            return stored == entry
        } catch {
            return false
        }
    }

    /// Whether the session has no entry after those matched, and holds the same handler records.
    mutating func ends(handlers: [HandlerRecord]) throws(ActionLogError) -> Bool {
        do {
            if try cursor.nextRaw() != nil { return false }
        } catch {
            return false
        }
        return try journal.handlerRecords(in: session.id) == handlers
    }
}

// MARK: - States and checks

extension RecordedSession {
    /// The recorded state after entry `seq` (entry 0: the initial state): the last keyframe at or
    /// before it, with the deltas after it applied by ``StateWalk`` (across gaps). The in-memory twin of
    /// ``Journal/state(at:in:)``.
    ///
    /// ```swift
    /// let recorded = try RecordedSession(contentsOfJSONL: URL(fileURLWithPath: "checkout.jsonl"))
    /// let before = try recorded.state(at: 3), after = try recorded.state(at: 4)
    /// ```
    ///
    /// - Parameter seq: the entry.
    /// - Throws: ``ActionLogError`` with code ``ActionLogError/Code/entryNotFound`` when there is no such
    ///   entry or it is a gap; ``ActionLogError/Code/corrupt`` when a delta does not apply. The error names
    ///   the file, the entry and, for a text file, the line.
    package func state(at seq: Int) throws(ActionLogError) -> JSONValue {
        let index = entries.indices.contains(seq) && entries[seq].seq == seq ? seq : entries.firstIndex { $0.seq == seq }
        guard let index else { throw error(.entryNotFound, entry: seq, "no such entry") }
        // A gap's chain is the gap alone (it has no state); any other's starts at the keyframe before it.
        let start = entries[index].kind == .gap ? index : entries[...index].lastIndex { $0.kind == .keyframe } ?? entries.startIndex
        do {
            return try StateWalk.state(at: seq, chain: entries[start...index], file: file, session: journalID)
        } catch {
            throw locate(error)
        }
    }

    /// Checks that the session reads back from a journal: the rules of ``StateWalk`` and
    /// ``StateWalk/checkAction(of:)`` over every entry. ``Journal/insert(_:)`` runs them as it
    /// inserts; call this to refuse a damaged file before creating anything.
    ///
    /// ```swift
    /// let recorded = try RecordedSession(contentsOfJSONL: url)
    /// try recorded.checkImportable()   // checkout.jsonl, entry 4: line 6: the delta does not apply: ...
    /// ```
    ///
    /// - Throws: ``ActionLogError`` with code ``ActionLogError/Code/corrupt`` naming the file, the entry
    ///   and, for a text file, the line.
    package func checkImportable() throws(ActionLogError) {
        if let problem = session.recordProblems.first { throw error(.corrupt, entry: nil, "the session \(problem)") }
        var states = StateWalk(file: file, session: journalID)
        do {
            for entry in entries {
                try states.checkAction(of: entry)
                try states.advance(past: entry)
            }
            try states.finish(droppedCount: session.droppedCount)
        } catch {
            throw locate(error)
        }
    }

    /// An error of ``StateWalk`` about this session, located the way people find it: by the
    /// session id in a journal; by the line in a text file. Other errors pass unchanged.
    package func locate(_ error: ActionLogError) -> ActionLogError {
        guard error.file == file, error.line == nil, error.sqliteCode == nil, error.code == .corrupt || error.code == .entryNotFound else { return error }
        return self.error(error.code, entry: error.entry, error.reason)
    }

    /// An error about this session or one of its entries, located the way people find it: by the
    /// session id in a journal; by the line in a text file (the header is line 1, entry N is line N + 2).
    ///
    /// - Parameters:
    ///   - code: the error's code.
    ///   - seq: the entry concerned; `nil` for the session itself.
    ///   - reason: what is wrong.
    func error(_ code: ActionLogError.Code, entry seq: Int?, _ reason: String) -> ActionLogError {
        if let id = journalID {
            return ActionLogError(code, file: file, session: id, entry: seq, reason: reason)
        }
        // An entry that is not in the file has no line to point at.
        if let seq, !(entries.indices.contains(seq) && entries[seq].seq == seq) {
            return ActionLogError(code, file: file, entry: seq, reason: reason)
        }
        return ActionLogError(code, file: file, entry: seq, line: seq.map { $0 + 2 } ?? 1, reason: reason)
    }
}
