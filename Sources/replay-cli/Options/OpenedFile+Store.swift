import ActionLog
import ActionLogPostgres
import CommandLineSupport
import Foundation

/// A connection to a team store (a `postgres://` URL) that reads what a reader needs into
/// temporary journals, as a text form is read: one session, or the list of the sessions a filter
/// keeps. The readers of a whole file (`stats`, `verify`) read a store's sessions one at a time,
/// so that the disk holds one session at most. Streamed: a page of rows at a time.
final class StoreSessions {
    /// The store as messages name it, without its password.
    let name: String
    private let location: PostgresLocation
    private let store: PostgresStore

    /// Connects to the store `url` names (creating or migrating its tables, as every connection does).
    init(url: String) throws {
        let location = try reportingErrors { () throws(ActionLogError) in try PostgresLocation(url: url) }
        self.location = location
        name = location.description
        store = try reportingErrors { () throws(ActionLogError) in
            try waitingFor { () async throws(ActionLogError) in try await PostgresStore.connect(to: location) }
        }
    }

    /// Closes the connection.
    func close() {
        let store = store
        _ = try? waitingFor { () async throws(ActionLogError) in await store.close() }
    }

    /// The complete session `selector` names (its uuid or its name), or the store's only one.
    func resolve(_ selector: String?) throws -> StoreSession {
        let store = store
        return try reportingErrors { () throws(ActionLogError) in
            try waitingFor { () async throws(ActionLogError) in try await store.resolveSession(selector) }
        }
    }

    /// The store's complete sessions, oldest first, and how many are not complete.
    func all() throws -> (complete: [StoreSession], incomplete: Int) {
        let store = store
        return try reportingErrors { () throws(ActionLogError) in
            try waitingFor { () async throws(ActionLogError) in try await store.completeSessions() }
        }
    }

    /// The session `session`, read into a temporary journal of its own.
    ///
    /// - Parameters:
    ///   - keepingPath: whether the journal's path must name it while the result lives.
    ///   - states: for a reader of the states at these entries only, the rows it needs (from the
    ///     keyframe before the first through the last; ``PostgresStore/readSession(_:into:states:progress:)``);
    ///     `nil` for the whole session.
    func open(_ session: StoreSession, keepingPath: Bool = false, states: ClosedRange<Int>? = nil) throws -> OpenedFile {
        let store = store
        let progress = ProgressLine("read", total: session.entryCount, unit: "entries")
        defer { progress.finish() }
        return try read(keepingPath: keepingPath) { writer throws(ActionLogError) in
            _ = try waitingFor { () async throws(ActionLogError) in
                try await store.readSession(session.uuid, into: writer, states: states, progress: progress.update)
            }
        }
    }

    /// The list of the complete sessions `filter` keeps (their rows and last entries only), read
    /// into a temporary journal.
    func openList(_ filter: SessionFilter) throws -> OpenedFile {
        let store = store
        return try read(keepingPath: false) { writer throws(ActionLogError) in
            _ = try waitingFor { () async throws(ActionLogError) in try await store.readSessionList(filter, into: writer) }
        }
    }

    /// A new temporary journal filled by `fill`, then opened read-only.
    private func read(keepingPath: Bool, _ fill: (Journal) throws(ActionLogError) -> Void) throws -> OpenedFile {
        let directory = try OpenedFile.makeTemporaryDirectory(for: name)
        // Named after the database and its server: messages about a row name the temporary journal.
        let fileName = "\(location.database)@\(location.host):\(location.port)".replacingOccurrences(of: "/", with: "_")
        let journalPath = directory + "/" + fileName
        do {
            let journal = try reportingErrors { () throws(ActionLogError) in
                do {
                    // The writer goes away at the end of this scope, leaving one file to open read-only.
                    let writer = try Journal(path: journalPath, mode: .readWrite)
                    try fill(writer)
                }
                return try Journal(path: journalPath)
            }
            return OpenedFile(store: name, journal: journal, directory: directory, keepingPath: keepingPath)
        } catch {
            OpenedFile.remove(directory, journal: journalPath)
            throw error
        }
    }
}
