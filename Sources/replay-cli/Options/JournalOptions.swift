import ActionLog
import ArgumentParser

/// The journal file argument shared by every inspecting command.
struct JournalOptions: ParsableArguments {
    @Argument(help: "The journal file (.actionlog).")
    var file: String

    /// Opens the journal read-only.
    func open() throws -> Journal {
        try reportingErrors { () throws(JournalError) in try Journal(path: file) }
    }
}

/// `--session`: a session id, or the name of a session (the newest with that name).
struct SessionOptions: ParsableArguments {
    @Option(name: .shortAndLong, help: "The session: its id, or its name (the newest session of that name).")
    var session: String

    func resolve(in journal: Journal) throws -> Session {
        try reportingErrors { () throws(JournalError) in
            if let id = Session.ID(session) { return try journal.session(id) }
            guard let match = try journal.sessions().last(where: { $0.name == session }) else {
                throw JournalError(.sessionNotFound, file: journal.fileName, reason: "no session named \"\(session)\"")
            }
            return match
        }
    }
}

/// Runs `body`; a journal error is printed to standard error and becomes the exit status: 64 when the
/// user pointed at the wrong thing (missing file, not a journal, unknown session or entry), 1 when the
/// file is damaged.
func reportingErrors<T>(_ body: () throws(JournalError) -> T) throws -> T {
    do {
        return try body()
    } catch {
        Terminal.printError(error.description)
        switch error.code {
        case .fileNotFound, .notADatabase, .notAJournal, .newerSchema, .sessionNotFound, .entryNotFound:
            throw ExitCode(64)
        case .corrupt, .sqlite, .fileSystem, .encodingFailed:
            throw ExitCode.failure
        }
    }
}
