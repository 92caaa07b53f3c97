import Foundation

// Starting a session: the journal opened for writing, the session row and its entry 0 in one
// transaction, and the session's lock.
extension StepEncoder {
    /// Opens the journal for writing and creates a session with `initialText` as its entry 0 (one
    /// transaction), locked. Either the session exists with its entry 0 and is locked, or this
    /// throws and leaves no session behind.
    static func startSession(
        path: String, session: SessionDescription, initialText: [UInt8], startedAt: Date, file: String
    ) throws(ActionLogError) -> (Connection, JournalSession.ID, SessionLock) {
        let connection = try JournalFile.open(path: path, mode: .readWrite)
        try Journal.markInterruptedSessions(connection, path: path)
        // The writer's rows meet the schema's CHECK constraints by construction (`kind` is an
        // `Entry.Kind`), and SQLite 3.40 evaluates `kind IN (...)` by building a temporary table for
        // every row inserted: about a quarter of an insert. So this connection skips them; other
        // writers keep them, and `Journal.verify()` (`quick_check`) still checks every row. Should
        // SQLite refuse the pragma, the checks simply stay on.
        // See <https://www.sqlite.org/pragma.html#pragma_ignore_check_constraints>.
        try? connection.execute("PRAGMA ignore_check_constraints = ON")
        let (sessionID, lock): (JournalSession.ID, SessionLock)
        do {
            (sessionID, lock) = try connection.transaction {
                try connection.prepare("""
                    INSERT INTO sessions (name, started_at, status, library_version, app_version, state_type, action_type, effect_type, metadata, uuid)
                    VALUES (?1, ?2, 'recording', ?3, ?4, ?5, ?6, ?7, ?8, ?9)
                    """).execute([
                        .text(session.name), .real(startedAt.timeIntervalSince1970), .text(ActionLogLibrary.version),
                        .optional(session.appVersion), .text(session.stateType), .text(session.actionType),
                        .optional(session.effectType), .text(session.metadata.canonicalText),
                        .text(UUID().uuidString.lowercased()),
                    ])
                let id = connection.lastInsertedRowID
                // Locked before the session is committed: a writer opening the journal in between
                // would take an unlocked `recording` session for a dead one.
                let lock: SessionLock
                do {
                    lock = try SessionLock(journal: path, session: id)
                } catch {
                    throw ActionLogError(.fileSystem, file: file, session: id, reason: "\(error)")
                }
                do {
                    // Entry 0 commits with the session: a session never exists without its initial state.
                    let inserter = EntryInserter(connection: connection, session: id)
                    try inserter.insert([EntryInserter.Row(entry: StoredEntry(.keyframe, time: startedAt, state: initialText))], firstSeq: 0)
                    try inserter.markChangeIndexComplete(startedAt: startedAt.timeIntervalSince1970)
                } catch {
                    lock.release()
                    throw error
                }
                return (id, lock)
            }
        } catch let error as ActionLogError {
            throw error
        } catch let error as SQLiteError {
            throw JournalFile.wrap(error, file: file)
        } catch {
            throw ActionLogError(.sqlite, file: file, reason: "\(error)")
        }
        return (connection, sessionID, lock)
    }
}
