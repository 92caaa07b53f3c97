#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Files that hold what an app recorded are created readable and writable by their owner alone
/// (mode 0600), whatever the process's umask: journals (SQLite gives a journal's `-wal`, `-shm` and
/// `-journal` files the journal's own mode), session lock files, copies and text exports.
///
/// A file that already exists keeps its mode: a journal someone chose to share stays shared.
package enum PrivateFile {
    /// `rw-------`.
    package static let mode: mode_t = 0o600

    /// Creates `path`, which must not exist, with mode 0600, and returns its open descriptor
    /// (close-on-exec), for reading and writing.
    ///
    /// ```swift
    /// let descriptor = try PrivateFile.create(atPath: temporary)
    /// let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    /// ```
    ///
    /// - Parameter path: the new file.
    /// - Throws: ``PrivateFileError`` with the `errno` of `open(2)` (`EEXIST` when the file exists).
    package static func create(atPath path: String) throws(PrivateFileError) -> Int32 {
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw PrivateFileError(path: path, errno: errno) }
        // The umask may have taken bits away (0177 takes the owner's write): set the mode itself.
        _ = fchmod(descriptor, mode)
        return descriptor
    }

    /// Creates an empty `path` with mode 0600 unless a file is there already; returns whether it
    /// created it. For a journal: SQLite then opens the empty file as a new database.
    ///
    /// - Throws: ``PrivateFileError`` when the file can be neither created nor found.
    @discardableResult
    package static func createIfMissing(atPath path: String) throws(PrivateFileError) -> Bool {
        do {
            close(try create(atPath: path))
            return true
        } catch where error.errno == EEXIST {
            return false
        }
    }
}

/// A file that could not be created, with the reason the system gave.
package struct PrivateFileError: Error, CustomStringConvertible {
    package let path: String
    package let errno: Int32

    package var description: String {
        "cannot create \(path): \(String(cString: strerror(errno)))"
    }
}
