import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension Journal {
    /// Writes a self-contained, consistent copy of the journal to `destination`: one file, in
    /// rollback-journal mode (no `-wal` or `-shm` beside it, none needed to read it), compacted, with
    /// mode 0600. To attach to a bug report, to keep as a golden fixture, or to back up a journal an
    /// app is recording into.
    ///
    /// ```swift
    /// let journal = try Journal(path: "app.actionlog")           // read-only is enough
    /// try journal.copy(to: "bug-1234.actionlog")                  // fails if the file exists
    /// try journal.copy(to: "backup.actionlog", replacing: true)   // replaces it in one step
    /// ```
    ///
    /// The copy is what was committed when it began, read in one transaction (`VACUUM INTO`), so a
    /// recorder may go on writing meanwhile. It is written to a temporary file beside `destination`,
    /// flushed to disk, then renamed to `destination`: a failed copy leaves no file, and a replaced
    /// file is either the old one or the whole copy, never half of one.
    ///
    /// - Parameters:
    ///   - destination: the new file's path.
    ///   - replacing: whether to replace a file already at `destination`. Even then, the journal
    ///     itself (the same file, through any path or link) is never replaced. A `-wal` file beside
    ///     `destination` (a journal there may be open) is refused in any case: SQLite would read it
    ///     into the copy.
    /// - Throws: ``ActionLogError`` with code ``ActionLogError/Code/fileSystem`` when `destination` exists
    ///   (and `replacing` is false), is this journal, or cannot be written; the error names both files.
    ///   See <https://www.sqlite.org/lang_vacuum.html#vacuuminto>.
    package func copy(to destination: String, replacing: Bool = false) throws(ActionLogError) {
        func failure(_ reason: String) -> ActionLogError {
            copyError(to: destination, reason)
        }
        if let refusal = copyRefusal(to: destination, replacing: replacing) { throw refusal }
        let target = URL(fileURLWithPath: destination)
        let temporary = target.deletingLastPathComponent()
            .appendingPathComponent(".\(target.lastPathComponent).\(UUID().uuidString).tmp").path
        do {
            // VACUUM INTO fills an empty file it is given, keeping its mode: 0600 whatever the umask.
            close(try PrivateFile.create(atPath: temporary))
        } catch {
            throw failure(error.description)
        }
        var renamed = false
        defer {
            if !renamed { unlink(temporary) }
        }
        try read { connection in
            try connection.prepare("VACUUM INTO ?1").execute([.text(temporary)])
        }
        guard Self.synchronize(path: temporary) else {
            throw failure("cannot flush \(temporary) to disk: \(String(cString: strerror(errno)))")
        }
        if let refusal = copyRefusal(to: destination, replacing: replacing) { throw refusal }
        if replacing {
            guard rename(temporary, destination) == 0 else {
                throw failure(String(cString: strerror(errno)))
            }
        } else {
            // link(2) never replaces a file: one created since the check above is kept, and the copy
            // is refused. Where the file system has no hard links, the check above has to do.
            if link(temporary, destination) == 0 {
                unlink(temporary)
            } else if errno == EEXIST {
                throw failure("the file exists; \(Self.replacingHint)")
            } else if errno == EPERM || errno == ENOTSUP || errno == EOPNOTSUPP || errno == EMLINK {
                guard rename(temporary, destination) == 0 else {
                    throw failure(String(cString: strerror(errno)))
                }
            } else {
                throw failure(String(cString: strerror(errno)))
            }
        }
        renamed = true
        _ = Self.synchronize(path: target.deletingLastPathComponent().path)
    }

    private static let replacingHint = "pass replacing: true to replace it"

    /// Why ``copy(to:replacing:)`` would refuse `destination` before copying anything, or `nil`: it
    /// exists (unless `replacing`), it is this journal or a file beside it, it is a directory, or a
    /// `-wal` file is beside it.
    ///
    /// - Parameters:
    ///   - destination: the copy's path.
    ///   - replacing: whether an existing file may be replaced.
    ///   - hint: what the message tells to do about an existing file (the CLI says `pass --force ...`).
    package func copyRefusal(to destination: String, replacing: Bool, hint: String = replacingHint) -> ActionLogError? {
        // By name too: a companion file that does not exist yet is one SQLite would take for the
        // journal's own the next time it opens it.
        if JournalFile.isFile(destination, ofJournal: path) {
            return copyError(to: destination, "it is the journal being copied, or a file of it")
        }
        if let found = FileIdentity(path: destination) {
            if found.isDirectory {
                return copyError(to: destination, "it is a directory")
            }
            guard replacing else {
                return copyError(to: destination, "the file exists; \(hint)")
            }
        }
        // SQLite would read the log into the copy, whatever journal it came from.
        if FileManager.default.fileExists(atPath: destination + "-wal") {
            return copyError(
                to: destination,
                "a write-ahead log \(JournalFile.displayName(destination))-wal is beside it (the journal there may be open, or its log was left behind); move it away first"
            )
        }
        return nil
    }

    private func copyError(to destination: String, _ reason: String) -> ActionLogError {
        ActionLogError(.fileSystem, file: fileName, reason: "cannot copy to \(destination): \(reason)")
    }

    /// `fsync(2)` of the file or directory at `path`.
    private static func synchronize(path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return fsync(descriptor) == 0
    }
}

