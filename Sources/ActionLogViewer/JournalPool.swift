import ActionLog

/// Read connections to the served journal, one per request being answered, so that requests read
/// side by side: through one connection, a large entry (a state of megabytes rebuilt) would hold up
/// every timeline window behind it. A connection goes back to the pool when its request is
/// answered, and the pool keeps at most as many as the server serves at once.
package final class JournalPool: Sendable {
    private let path: String
    /// The journal the server opened first: it checked the file, and stands in when another
    /// connection cannot be opened (then the requests take turns on it, as they did before).
    private let first: Journal
    private let idle: Locked<[Journal]>
    private let capacity: Int

    /// - Parameters:
    ///   - journal: the journal, opened.
    ///   - path: its path, to open more connections.
    ///   - capacity: the most idle connections kept.
    package init(_ journal: Journal, path: String, capacity: Int) {
        self.first = journal
        self.path = path
        self.capacity = capacity
        self.idle = Locked([journal])
    }

    /// Runs `body` with a connection no other request uses meanwhile: an idle one, or a new one.
    package func withJournal<T>(_ body: (Journal) throws -> T) rethrows -> T {
        let journal = idle.withLock { $0.popLast() } ?? (try? Journal(path: path)) ?? first
        defer {
            idle.withLock { idle in
                if idle.count < capacity, !idle.contains(where: { $0 === journal }) { idle.append(journal) }
            }
        }
        return try body(journal)
    }

    /// The connections kept idle now.
    package var idleCount: Int { idle.withLock { $0.count } }
}
