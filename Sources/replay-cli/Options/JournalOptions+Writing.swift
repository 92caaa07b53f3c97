import ActionLog
import Foundation

extension JournalOptions {
    /// Opens the journal for writing. A missing file, an empty one or a file that is not a journal is
    /// an error, as for every other command, not a new journal.
    func openForWriting() throws -> Journal {
        try reportingErrors { () throws(JournalError) in
            // Read-only first, which changes nothing: a missing file, an empty one or another
            // database gets the usual error, where opening to write would make a journal of it. A
            // change its writer did not finish (a hot rollback journal) is what opening to write
            // rolls back: that open goes on.
            do throws(JournalError) {
                _ = try Journal(path: file)
            } catch where error.sqlite?.extendedCode == JournalFile.hotJournalCode {}
            return try Journal(path: file, mode: .readWrite)
        }
    }
}
