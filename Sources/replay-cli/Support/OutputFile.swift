import ArgumentParser
import CommandLineSupport
import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The one check of every command that writes a new file (`export --output`, `copy DEST`,
/// `report --output`): an existing file is replaced only with `--force`, a directory never, and
/// both are refused with the same message (exit status 64) whichever command it is.
///
/// Commands that add to a journal (`import --into`, `actionlog-demo --output`) or change the journal
/// given (`prune`, `vacuum`) replace no file, and take no `--force`.
enum OutputFile {
    /// Refuses `path` when a directory is there, or a regular file and not `force`.
    ///
    /// - Parameters:
    ///   - path: the file the command is about to write.
    ///   - force: whether `--force` was given.
    ///   - option: how the command line names the path, for the message about a directory: `--output`.
    /// - Returns: whether something other than a regular file or a directory is there (a device or
    ///   a pipe, such as `/dev/null`), which the caller may write to as it is.
    @discardableResult
    static func refuseReplacing(_ path: String, force: Bool, option: String) throws -> Bool {
        var existing = stat()
        guard stat(path, &existing) == 0 else { return false }
        switch existing.st_mode & S_IFMT {
        case S_IFDIR:
            Terminal.printError("\(path.displayEscaped): a directory; \(option) needs a file")
            throw ExitCode(64)
        case S_IFREG:
            guard force else {
                Terminal.printError("\(path.displayEscaped): the file exists; pass --force to replace it")
                throw ExitCode(64)
            }
            return false
        default:
            return true
        }
    }
}
