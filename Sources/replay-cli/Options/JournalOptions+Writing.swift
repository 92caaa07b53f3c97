import ActionLog
import Foundation

extension JournalOptions {
    /// Opens the journal for writing. A missing file is an error, as for every other command, not a
    /// new journal.
    func openForWriting() throws -> Journal {
        try reportingErrors { () throws(JournalError) in
            if !FileManager.default.fileExists(atPath: file) {
                _ = try Journal(path: file)  // Throws the usual "no such file".
            }
            return try Journal(path: file, mode: .readWrite)
        }
    }
}
