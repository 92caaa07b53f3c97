import Foundation

extension Journal {
    /// Removes the sessions `policy` does not keep: the oldest closed or interrupted sessions first,
    /// never a live one. With `dryRun`, changes nothing and says what it would remove.
    ///
    /// ```swift
    /// let journal = try Journal(path: "app.actionlog", mode: .readWrite)
    /// let report = try journal.prune(RetentionPolicy(maximumSessions: 10, maximumAge: .seconds(30 * 86_400)))
    /// print("removed \(report.removed.count) sessions")
    /// ```
    ///
    /// The sessions are removed in one transaction; the file does not shrink (SQLite keeps the free
    /// pages and reuses them for new entries) until ``vacuum()``. A recorder writing meanwhile waits
    /// for the transaction, as for any other writer.
    ///
    /// - Parameters:
    ///   - policy: the limits to apply.
    ///   - dryRun: `true` to change nothing; works on a journal opened read-only.
    ///   - now: the time the age limit counts from.
    /// - Returns: what was removed (or would be), oldest first.
    /// - Throws: ``ActionLogError``: ``ActionLogError/Code/fileSystem`` when the journal is opened read-only
    ///   and `dryRun` is `false`; ``ActionLogError/Code/corrupt`` naming the session when a session row is
    ///   damaged; ``ActionLogError/Code/sqlite`` when the file cannot be read or written.
    package func prune(_ policy: RetentionPolicy, dryRun: Bool = false, now: Date = Date()) throws(ActionLogError) -> PruneReport {
        try prune(policy, dryRun: dryRun, now: now, progress: { _, _ in })
    }

    /// ``prune(_:dryRun:now:)``, telling `progress` how many of the sessions to remove it has removed,
    /// and how many it will, after each one: for a caller that shows progress (`replay-cli prune` on
    /// a terminal). A session's entries go in one statement, so the count moves a session at a time.
    ///
    /// - Parameter progress: called with the sessions removed so far (from 1 up) and their total.
    /// - Throws: as ``prune(_:dryRun:now:)``.
    package func prune(
        _ policy: RetentionPolicy, dryRun: Bool = false, now: Date = Date(), progress: (Int, Int) -> Void
    ) throws(ActionLogError) -> PruneReport {
        let (file, path) = (fileName, self.path)
        return try read { connection in
            guard dryRun || connection.mode == .readWrite else {
                throw ActionLogError(.fileSystem, file: file, reason: "opened read-only, so no session can be removed; open it with mode: .readWrite")
            }
            let plan = try RetentionPlan(connection: connection, path: path, file: file, policy: policy, now: now)
            if !dryRun, !plan.removed.isEmpty {
                try connection.transaction {
                    let entries = try connection.prepare("DELETE FROM entries WHERE session_id = ?1")
                    let sessions = try connection.prepare("DELETE FROM sessions WHERE id = ?1")
                    for (index, removal) in plan.removed.enumerated() {
                        try entries.execute([.integer(removal.id)])
                        try sessions.execute([.integer(removal.id)])
                        progress(index + 1, plan.removed.count)
                    }
                }
                for removal in plan.removed { SessionLock.removeStale(journal: path, session: removal.id) }
            }
            return PruneReport(
                removed: plan.removed, keptLive: plan.keptLive, remainingSessions: plan.remainingSessions,
                remainingBytes: plan.remainingBytes, dryRun: dryRun)
        }
    }

    /// Rewrites the file without its free pages (SQLite's `VACUUM`, then a checkpoint that empties
    /// the `-wal`), giving the space of removed sessions back to the file system.
    ///
    /// ```swift
    /// let journal = try Journal(path: "app.actionlog", mode: .readWrite)
    /// _ = try journal.prune(RetentionPolicy(maximumSessions: 10))
    /// let sizes = try journal.vacuum()
    /// print(sizes.bytesBefore, sizes.bytesAfter)
    /// ```
    ///
    /// Vacuuming writes the whole file and holds the write lock meanwhile, so it refuses a journal
    /// that a live recorder writes to: the recorder's commits would wait, then fail, and its entries
    /// become gaps. A recorder that starts while a vacuum runs waits for it (up to five seconds,
    /// SQLite's busy timeout here), then fails to open. See <https://www.sqlite.org/lang_vacuum.html>.
    ///
    /// - Returns: the sizes of the file and its `-wal` before and after.
    /// - Throws: ``ActionLogError``: ``ActionLogError/Code/busy`` naming the session when a recorder is
    ///   writing one; ``ActionLogError/Code/fileSystem`` when the journal is opened read-only;
    ///   ``ActionLogError/Code/sqlite`` when SQLite fails (for example, not enough disk for the copy).
    package func vacuum() throws(ActionLogError) -> VacuumReport {
        let (file, path) = (fileName, self.path)
        return try read { connection in
            guard connection.mode == .readWrite else {
                throw ActionLogError(.fileSystem, file: file, reason: "opened read-only, so it cannot be vacuumed; open it with mode: .readWrite")
            }
            let recording = try connection.prepare("SELECT id FROM sessions WHERE status = 'recording' ORDER BY id").rows { $0.int(0) }
            if let live = recording.first(where: { SessionLock.isHeld(journal: path, session: $0) }) {
                throw ActionLogError(.busy, file: file, session: live, reason: """
                    a recorder is writing this session now; vacuum rewrites the whole file and would hold up its writes, \
                    so nothing was done: vacuum when no app records into the journal
                    """)
            }
            let before = Self.bytesOnDisk(path)
            try connection.execute("VACUUM")
            try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            return VacuumReport(bytesBefore: before, bytesAfter: Self.bytesOnDisk(path))
        }
    }

    /// The sizes of the file and its `-wal`.
    private static func bytesOnDisk(_ path: String) -> Int {
        [path, path + "-wal"].reduce(0) { total, file in
            let attributes = try? FileManager.default.attributesOfItem(atPath: file)
            return total + max(0, (attributes?[.size] as? NSNumber)?.intValue ?? 0)
        }
    }
}
