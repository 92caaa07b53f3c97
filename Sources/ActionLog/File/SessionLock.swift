#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An exclusive `flock(2)` on `<journal>-lock-<session>`, held for as long as a recorder writes the session.
///
/// The operating system releases the lock when the process dies, however it dies, so a reader can tell a
/// session that a live process is recording (lock held) from one left behind by a crash (no lock): the
/// latter reads as `interrupted`. `flock` locks belong to the open file, so this also works between two
/// journals opened in one process.
final class SessionLock: @unchecked Sendable {
    // @unchecked: `descriptor` is written once in init and only closed in `release`, which the owner calls once.
    private var descriptor: Int32
    let path: String

    static func path(journal: String, session: Int64) -> String {
        "\(journal)-lock-\(session)"
    }

    /// Creates the lock file (mode 0600, see ``PrivateFile``) and locks it exclusively.
    ///
    /// - Throws: the `errno` description when the file cannot be created or is already locked.
    init(journal: String, session: Int64) throws(SessionLockError) {
        path = Self.path(journal: journal, session: session)
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, PrivateFile.mode)
        guard descriptor >= 0 else { throw SessionLockError(path: path, errno: errno) }
        // Whatever the umask, and for a stale file left by a dead recorder of this user too.
        _ = fchmod(descriptor, PrivateFile.mode)
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let error = SessionLockError(path: path, errno: errno)
            close(descriptor)
            throw error
        }
    }

    /// Removes the lock file and releases the lock. Safe to call more than once.
    func release() {
        guard descriptor >= 0 else { return }
        unlink(path)
        close(descriptor)
        descriptor = -1
    }

    /// Gives up the lock without removing the file, as a process that dies does.
    func abandon() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
    }

    deinit { release() }

    /// Whether a live recorder holds the lock of `session` in `journal`. Never creates the file.
    ///
    /// A lock file that exists but that this process may not open (another user's recorder: lock
    /// files are private) cannot be tested, and counts as held: the session reads as `recording`,
    /// and no writer of this user marks it `interrupted`.
    static func isHeld(journal: String, session: Int64) -> Bool {
        let descriptor = open(path(journal: journal, session: session), O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return errno == EACCES }
        defer { close(descriptor) }
        if flock(descriptor, LOCK_SH | LOCK_NB) == 0 {
            flock(descriptor, LOCK_UN)
            return false
        }
        return errno == EWOULDBLOCK
    }

    /// Removes the lock file of a session no process records any more.
    static func removeStale(journal: String, session: Int64) {
        unlink(path(journal: journal, session: session))
    }
}

struct SessionLockError: Error, CustomStringConvertible {
    let path: String
    let errno: Int32
    var description: String {
        "cannot lock \(path): \(String(cString: strerror(errno)))"
    }
}

// MARK: - Reserved space

extension SessionLock {
    /// The disk space a recording session keeps in its lock file, given back when the disk fills so
    /// that the session's last gap and its closing can still be written: room for seven pages of
    /// ``Schema/pageSize`` (16 KiB) in the log, with their frame headers.
    static let reservedBytes = 128 << 10

    /// Allocates `bytes` of disk space to the lock file. Returns `false`, holding nothing, when the
    /// file system has no room (or does not allocate ahead).
    func reserve(bytes: Int) -> Bool {
        guard descriptor >= 0 else { return false }
        #if canImport(Glibc) || canImport(Musl)
        // Allocates blocks without writing them: what tmpfs, ext4, XFS and btrfs count as used.
        return posix_fallocate(descriptor, 0, off_t(bytes)) == 0
        #else
        // No posix_fallocate: write the bytes (APFS does not compress a plain write).
        let chunk = [UInt8](repeating: 0x5A, count: bytes)
        let written = chunk.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        if written != bytes {
            _ = ftruncate(descriptor, 0)
            return false
        }
        return true
        #endif
    }

    /// Gives the reserved space back to the file system. Returns `false` when there was none to give.
    func releaseReserve() -> Bool {
        guard descriptor >= 0 else { return false }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_size > 0 else { return false }
        return ftruncate(descriptor, 0) == 0
    }
}
