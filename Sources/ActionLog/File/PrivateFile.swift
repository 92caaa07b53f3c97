#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Files that hold what an app recorded are created readable and writable by their owner alone
/// (mode 0600), whatever the process's umask: journals (SQLite gives a journal's `-wal`, `-shm` and
/// `-journal` files the journal's own mode), session lock files, copies, text exports and HTML reports.
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

    /// Writes `bytes` to `path` with mode 0600: into a new file beside it, synced, then renamed over
    /// it, so that a failure (a full disk) leaves no half file and a file already at `path` as it
    /// was. A file replaced takes the new file's mode: what is written holds recorded data.
    ///
    /// ```swift
    /// try PrivateFile.write(page, replacing: "checkout.html")
    /// ```
    ///
    /// - Parameters:
    ///   - bytes: the whole content.
    ///   - path: the file to create or replace.
    /// - Throws: ``PrivateFileError`` with the `errno` of the call that failed.
    package static func write(_ bytes: [UInt8], replacing path: String) throws(PrivateFileError) {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        // A file of that name can only be left by an earlier process of the same id, which died.
        let temporary = "\(directory).\(name).\(getpid()).tmp"
        unlink(temporary)
        let descriptor = try create(atPath: temporary)
        func fail(_ code: Int32) -> PrivateFileError {
            close(descriptor)
            unlink(temporary)
            return PrivateFileError(path: path, errno: code)
        }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { raw in writeBytes(descriptor, raw.baseAddress.map { $0 + written }, raw.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                throw fail(errno)
            }
            written += count
        }
        guard fsync(descriptor) == 0 else { throw fail(errno) }
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw PrivateFileError(path: path, errno: code)
        }
    }
}

/// `write(2)`, under a name that the static `write` above does not hide.
private func writeBytes(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}

/// A file that could not be created, with the reason the system gave.
package struct PrivateFileError: Error, CustomStringConvertible {
    package let path: String
    package let errno: Int32

    package var description: String {
        "cannot create \(path): \(reason)"
    }

    /// What the system says of the error: `No space left on device`.
    package var reason: String {
        String(cString: strerror(errno))
    }
}
