import ActionLog
import ArgumentParser

/// Refuses an empty path as a usage error: it would name the working directory.
package func refuseEmptyPath(_ path: String, _ name: String = "<file>") throws {
    guard !path.isEmpty else { throw ValidationError("\(name) is an empty path; give the path of a file.") }
}

/// Runs `body`; a journal error is printed to standard error and becomes the exit status: 64 when the
/// user pointed at the wrong thing (missing file, not a journal, unknown session or entry), 1 when the
/// file is damaged.
package func reportingErrors<T>(_ body: () throws(ActionLogError) -> T) throws -> T {
    do {
        return try body()
    } catch {
        Terminal.printError(error.description)
        switch error.code {
        case .fileNotFound, .notADatabase, .notAJournal, .newerSchema, .sessionNotFound, .entryNotFound, .invalidArgument:
            throw ExitCode(64)
        default:
            throw ExitCode.failure
        }
    }
}
