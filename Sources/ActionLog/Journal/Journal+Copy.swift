import Foundation

extension Journal {
    /// Writes a compact copy of the journal to a new single file (rollback journal mode, no `-wal`
    /// or `-shm` beside it): to attach to a bug report, or to keep as a golden fixture. Works on a
    /// journal opened read-only, and while a recorder writes to it (the copy holds what was committed).
    ///
    /// ```swift
    /// try Journal(path: "app.actionlog").copy(to: "fixtures/checkout.actionlog")
    /// ```
    ///
    /// - Parameter destination: the new file's path. It must not exist.
    /// - Throws: ``JournalError`` when the destination exists or cannot be written.
    public func copy(to destination: String) throws(JournalError) {
        guard !FileManager.default.fileExists(atPath: destination) else {
            throw JournalError(.fileSystem, file: fileName, reason: "cannot copy to \(destination): the file exists")
        }
        try read { connection in
            try connection.prepare("VACUUM INTO ?1").execute([.text(destination)])
        }
    }
}
