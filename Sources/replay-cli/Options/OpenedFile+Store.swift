import ActionLog
import ActionLogPostgres
import CommandLineSupport
import Foundation

extension OpenedFile {
    /// Reads what a reader needs of the team store at `url` into a new journal in a new private
    /// directory, as a text form is read: one session (`session`, as `--session` names it: its
    /// uuid or its name; left out, the store's only session), or with `listing` the sessions it
    /// keeps, their rows and last entries only. Streamed: a page of rows at a time.
    ///
    /// - Returns: the journal, opened read-only, its directory, and how messages name the store.
    static func readStore(_ url: String, session: String?, listing: SessionFilter?) throws -> (Journal, String, String) {
        let location = try reportingErrors { () throws(ActionLogError) in try PostgresLocation(url: url) }
        let name = location.description
        let directory = try makeTemporaryDirectory(for: name)
        // Named after the database and its server: messages about a row name the temporary journal.
        let fileName = "\(location.database)@\(location.host):\(location.port)".replacingOccurrences(of: "/", with: "_")
        let journalPath = directory + "/" + fileName
        let progress = ProgressLine("read", total: nil, unit: "entries")
        do {
            defer { progress.finish() }
            let journal = try reportingErrors { () throws(ActionLogError) in
                do {
                    // The writer goes away at the end of this scope, leaving one file to open read-only.
                    let writer = try Journal(path: journalPath, mode: .readWrite)
                    try waitingFor { () async throws(ActionLogError) in
                        let store = try await PostgresStore.connect(to: location)
                        do throws(ActionLogError) {
                            if let listing {
                                _ = try await store.readSessionList(listing, into: writer)
                            } else {
                                let (uuid, _) = try await store.resolveSession(session)
                                _ = try await store.readSession(uuid, into: writer, progress: progress.update)
                            }
                        } catch {
                            await store.close()
                            throw error
                        }
                        await store.close()
                    }
                }
                return try Journal(path: journalPath)
            }
            return (journal, directory, name)
        } catch {
            remove(directory, journal: journalPath)
            throw error
        }
    }
}
