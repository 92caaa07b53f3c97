import Foundation

/// A file's device and inode: the same file whatever the path, link or symbolic link to it.
package struct FileIdentity: Equatable {
    let device: UInt64
    let inode: UInt64
    let isDirectory: Bool

    /// Whether the file at `path` exists and is the journal at `journal` or one of its companion
    /// files that exist, by device and inode (another path, a link or a symbolic link to it).
    package static func isFile(_ path: String, ofJournal journal: String) -> Bool {
        guard let found = FileIdentity(path: path) else { return false }
        return ([""] + JournalFile.companionSuffixes).contains { FileIdentity(path: journal + $0) == found }
    }

    /// The identity of the file at `path` (following symbolic links), or `nil` when there is none.
    package init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        device = UInt64(truncatingIfNeeded: status.st_dev)
        inode = UInt64(truncatingIfNeeded: status.st_ino)
        isDirectory = (status.st_mode & S_IFMT) == S_IFDIR
    }

    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.device == rhs.device && lhs.inode == rhs.inode
    }
}
