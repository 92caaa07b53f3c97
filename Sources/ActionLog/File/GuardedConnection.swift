import Foundation

/// A ``Journal``'s connection behind a lock, and the read transaction a reader of several
/// statements runs in (``snapshot(_:)``).
///
/// The lock is recursive: a snapshot holds it while the reads inside it take it again on the same
/// thread, and another thread waits for the whole snapshot rather than reading in the middle of it
/// (which would read inside the snapshot's transaction, or try to write in it).
final class GuardedConnection: @unchecked Sendable {
    // @unchecked: `connection` and `snapshotDepth` are read and written only with `lock` held.
    private let lock = NSRecursiveLock()
    private var connection: Connection
    private var snapshotDepth = 0

    init(_ connection: Connection) {
        self.connection = connection
    }

    /// Runs `body` with the connection, on the snapshot when one is open on this thread.
    func withConnection<T>(_ body: (Connection) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        if snapshotDepth == 0 { try refresh() }
        return try body(connection)
    }

    /// Runs `body` in one read transaction: every read it makes through ``withConnection(_:)``, on
    /// this thread, sees the file as it was when the snapshot began, whatever a recorder commits
    /// meanwhile. Snapshots nest: the outermost one ends the transaction.
    ///
    /// In WAL mode a recorder goes on writing meanwhile; a journal in rollback mode (closed) cannot
    /// be changed until the snapshot ends, so a recorder starting on it waits (up to its busy timeout).
    func snapshot<T>(_ body: () throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        if snapshotDepth == 0 {
            try refresh()
            try connection.beginReadTransaction()
        }
        snapshotDepth += 1
        defer {
            snapshotDepth -= 1
            if snapshotDepth == 0 { connection.endReadTransaction() }
        }
        return try body()
    }

    /// Opens the file again when it was opened `immutable=1` (see
    /// ``JournalFile/readerNeedsImmutable(path:file:)``) and a recorder has started on it since: an
    /// immutable connection would not see what the recorder writes.
    private func refresh() throws {
        guard connection.isImmutable, JournalFile.walAppeared(connection.path) else { return }
        connection = try JournalFile.open(path: connection.path, mode: .readOnly)
    }
}
