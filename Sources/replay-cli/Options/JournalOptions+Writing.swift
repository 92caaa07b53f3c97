import ActionLog
import CommandLineSupport
import Foundation

extension JournalOptions {
    /// Opens the journal for writing. A missing file, an empty one or a file that is not a journal is
    /// an error, as for every other command, not a new journal.
    func openForWriting() throws -> Journal {
        try reportingErrors { () throws(ActionLogError) in
            // Read-only first, which changes nothing: a missing file, an empty one or another
            // database gets the usual error, where opening to write would make a journal of it. A
            // change its writer did not finish (a hot rollback journal, a log index half written)
            // is what opening to write rolls back or rebuilds: that open goes on.
            do throws(ActionLogError) {
                _ = try Journal(path: file)
            } catch where JournalFile.isUnfinishedWrite(error) {}
            return try Journal(path: file, mode: .readWrite)
        }
    }
}
