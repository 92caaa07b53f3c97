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
    /// - Parameter recorded: the session and its entries. Its ids are not kept: the journal assigns one.
    /// - Returns: the id of the inserted session.
    /// - Throws: ``JournalError`` naming `recorded.file` when the session is damaged; naming this
    ///   journal when it was opened read-only or when SQLite refuses the insert (the error names the entry).
    @discardableResult
    public func insert(_ recorded: RecordedSession) throws(JournalError) -> Session.ID {
        try recorded.checkImportable()
        let file = fileName
        let session = recorded.session
        let isLive = session.status == .recording
        let status = isLive ? Session.Status.interrupted : session.status
        let endedAt = isLive ? recorded.entries.map(\.time).max() : session.endedAt
        return try read { connection in
            guard connection.mode == .readWrite else {
                throw JournalError(.fileSystem, file: file, reason: "opened read-only, so no session can be inserted; open it with mode: .readWrite")
            }
            return try connection.transaction {
                try connection.prepare("""
                    INSERT INTO sessions (name, started_at, ended_at, status, library_version, app_version,
                                          state_type, action_type, effect_type, metadata, dropped)
                    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
                    """).execute([
                        .text(session.name), .real(session.startedAt.timeIntervalSince1970),
                        .optional(endedAt?.timeIntervalSince1970), .text(status.rawValue), .text(session.libraryVersion),
                        .optional(session.appVersion), .text(session.stateType), .text(session.actionType),
                        .optional(session.effectType), .text(session.metadata.canonicalText),
                        .integer(Int64(session.droppedCount)),
                    ])
                let id = connection.lastInsertedRowID
                let insert = try connection.prepare("""
                    INSERT INTO entries (session_id, seq, kind, time, label, action, state, effect, duration_ns, dropped, note)
                    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
                    """)
                for entry in recorded.entries {
                    do throws(SQLiteError) {
                        try insert.execute([
                            .integer(id), .integer(Int64(entry.seq)), .text(entry.kind.rawValue),
                            .real(entry.time.timeIntervalSince1970), .optional(entry.label),
                            .optional(entry.action?.canonicalText), .optional(entry.state?.canonicalText),
                            .optional(entry.effect?.canonicalText), .optional(entry.durationNanoseconds),
                            .optional(entry.dropped.map(Int64.init)), .optional(entry.note),
                        ])
                    } catch {
                        // The transaction rolls back: the session's id no longer exists, the entry tells where it failed.
                        throw JournalFile.wrap(error, file: file, entry: entry.seq)
                    }
                }
                return id
            }
        }
    }

    /// Reads a session's text form and inserts it into the journal at `path`, creating the journal
    /// if needed: how a golden kept as text becomes a journal to replay.
    ///
    /// ```swift
    /// let id = try Journal.importJSONL(at: URL(fileURLWithPath: "fixtures/checkout.jsonl"), into: tmp + "/checkout.actionlog")
    /// let replay = Replay(journal: try Journal(path: tmp + "/checkout.actionlog"), session: id, reducer: Checkout.reduce)
    /// ```
    ///
    /// - Parameters:
    ///   - url: the `.jsonl` file.
    ///   - path: the journal; created when missing.
    /// - Returns: the id of the inserted session.
    /// - Throws: ``JournalError`` when the text cannot be read or is damaged (see
    ///   ``RecordedSession/init(contentsOfJSONL:)`` and ``insert(_:)``), or the journal cannot be written.
    @discardableResult
    public static func importJSONL(at url: URL, into path: String) throws(JournalError) -> Session.ID {
        let recorded = try RecordedSession(contentsOfJSONL: url)
        try recorded.checkImportable()  // Before the journal file is created.
        return try Journal(path: path, mode: .readWrite).insert(recorded)
    }
}

// MARK: - States and checks

// These live beside the import because import runs the same walk to refuse a damaged session.
extension RecordedSession {
    /// The recorded state after entry `seq` (entry 0: the initial state): the last keyframe at or
    /// before it, with the deltas after it applied. The in-memory twin of ``Journal/state(at:in:)``.
    ///
    /// ```swift
    /// let recorded = try RecordedSession(contentsOfJSONL: URL(fileURLWithPath: "checkout.jsonl"))
    /// let before = try recorded.state(at: 3), after = try recorded.state(at: 4)
    /// ```
    ///
    /// - Parameter seq: the entry.
    /// - Throws: ``JournalError`` with code ``JournalError/Code/entryNotFound`` when there is no such
    ///   entry or it is a gap; ``JournalError/Code/corrupt`` when a delta does not apply. The error names
    ///   the file, the entry and, for a text file, the line.
    public func state(at seq: Int) throws(JournalError) -> JSONValue {
        let index = entries.indices.contains(seq) && entries[seq].seq == seq ? seq : entries.firstIndex { $0.seq == seq }
        guard let index else { throw error(.entryNotFound, entry: seq, "no such entry") }
        let target = entries[index]
        if target.kind == .gap {
            throw error(.entryNotFound, entry: seq, "a gap: \(target.dropped ?? 0) actions were lost here, so no state was recorded")
        }
        guard let keyframe = entries[...index].lastIndex(where: { $0.kind == .keyframe }) else {
            throw error(.corrupt, entry: seq, "no keyframe at or before this entry")
        }
        var state: JSONValue?
        for entry in entries[keyframe...index] {
            try advance(entry, &state)
        }
        guard let state else {
            throw error(.corrupt, entry: seq, "a gap between the keyframe at entry \(entries[keyframe].seq) and this entry")
        }
        return state
    }

    /// Checks that the session reads back from a journal: entries 0, 1, 2, … in order, entry 0 a
    /// keyframe holding the initial state and no action, every delta applying to the state before
    /// it, and gaps that add up to the session's dropped count. ``Journal/insert(_:)`` runs it; call
    /// it yourself to refuse a damaged file before creating anything.
    ///
    /// ```swift
    /// let recorded = try RecordedSession(contentsOfJSONL: url)
    /// try recorded.checkImportable()   // checkout.jsonl, entry 4: line 6: the delta does not apply: ...
    /// ```
    ///
    /// - Throws: ``JournalError`` with code ``JournalError/Code/corrupt`` naming the file, the entry
    ///   and, for a text file, the line.
    public func checkImportable() throws(JournalError) {
        guard let first = entries.first else {
            throw error(.corrupt, entry: nil, "no entries: a session needs at least entry 0, its initial state")
        }
        for (index, entry) in entries.enumerated() where entry.seq != index {
            throw error(.corrupt, entry: index, "missing: the entries go from \(index - 1) to \(entry.seq)")
        }
        guard first.kind == .keyframe, first.action == nil else {
            throw error(.corrupt, entry: 0, "entry 0 must be a keyframe holding the initial state and no action")
        }
        var state: JSONValue?
        var dropped = 0
        for entry in entries {
            if entry.kind == .gap {
                guard let count = entry.dropped, count > 0 else { throw error(.corrupt, entry: entry.seq, "a gap that lost no actions") }
                dropped += count
            }
            try advance(entry, &state)
        }
        guard dropped == session.droppedCount else {
            throw error(.corrupt, entry: nil, "the session counts \(session.droppedCount) dropped actions, but its gaps add up to \(dropped)")
        }
    }

    /// ``Entry/advance(_:file:)``, with the error located by ``error(_:entry:_:)``.
    private func advance(_ entry: Entry, _ state: inout JSONValue?) throws(JournalError) {
        do {
            try entry.advance(&state, file: file)
        } catch {
            throw self.error(error.code, entry: entry.seq, error.reason)
        }
    }

    /// Whether the session was read from the text form: it has no journal id (journals count from 1).
    var isTextForm: Bool { session.id == 0 }

    /// An error about this session or one of its entries, located the way people find it: by the
    /// session id in a journal; by the line in a text file (the header is line 1, entry N is line N + 2).
    ///
    /// - Parameters:
    ///   - code: the error's code.
    ///   - seq: the entry concerned; `nil` for the session itself.
    ///   - reason: what is wrong.
    func error(_ code: JournalError.Code, entry seq: Int?, _ reason: String) -> JournalError {
        guard isTextForm else {
            return JournalError(code, file: file, session: session.id, entry: seq, reason: reason)
        }
        // An entry that is not in the file has no line to point at.
        if let seq, !entries.contains(where: { $0.seq == seq }) {
            return JournalError(code, file: file, entry: seq, reason: reason)
        }
        return JournalError(code, file: file, entry: seq, reason: "line \(seq.map { $0 + 2 } ?? 1): \(reason)")
    }
}
