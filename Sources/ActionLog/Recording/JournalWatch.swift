#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Tells the writer when its journal's path no longer names the file it writes: the journal (or its
/// write-ahead log) was deleted, moved away or replaced while recording.
///
/// SQLite keeps writing to the file it opened, so without this the recorder would go on committing
/// into a file nobody can reach. The check compares the device and inode that `stat(2)` reports for
/// the path with those it reported when the session started. While the writer's connection is open
/// the file it writes cannot be freed, so its inode number cannot be reused by a new file at the
/// same path: a changed or missing identity always means another file, or none.
struct JournalWatch {
    /// Which file a path names.
    typealias Identity = FileIdentity

    private let path: String
    private let journal: Identity?
    private let writeAheadLog: Identity?

    /// Notes what `path` and its `-wal` name now. Call it once the session is committed, when both exist.
    init(path: String) {
        self.path = path
        journal = Identity(path: path)
        writeAheadLog = Identity(path: path + "-wal")
    }

    /// `nil` while the path still names the files the writer writes; otherwise what happened to them,
    /// as a sentence fragment.
    func problem() -> String? {
        if let journal {
            switch Identity(path: path) {
            case nil: return "the journal was deleted or moved away while recording"
            case let now? where now != journal: return "another file replaced the journal while recording"
            default: break
            }
        }
        if let writeAheadLog, Identity(path: path + "-wal") != writeAheadLog {
            return "the journal's write-ahead log (\(JournalFile.displayName(path))-wal) was deleted or replaced while recording"
        }
        return nil
    }
}
