import ActionLog
import ArgumentParser

/// The journal file argument shared by every inspecting command.
struct JournalOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("The journal file (.actionlog).", valueName: "file"), completion: .file(extensions: ["actionlog"]))
    var file: String

    func validate() throws {
        try refuseEmptyPath(file)
    }

    /// Opens the journal read-only.
    func open() throws -> Journal {
        try reportingErrors { () throws(JournalError) in try Journal(path: file) }
    }
}

/// Refuses an empty path as a usage error: it would name the working directory.
func refuseEmptyPath(_ path: String, _ name: String = "<file>") throws {
    guard !path.isEmpty else { throw ValidationError("\(name) is an empty path; give the path of a file.") }
}

/// `--session`: a session id, or the name of a session (the newest with that name). A number is an
/// id first; when no session has that id, it is a name (a session named `2024`).
struct SessionOptions: ParsableArguments {
    @Option(name: .shortAndLong, help: ArgumentHelp("The session: its id, or its name (the newest session of that name).", valueName: "id"))
    var session: String

    func resolve(in journal: Journal) throws -> Session {
        try reportingErrors { () throws(JournalError) in
            // A number that is no session's id: its error stands unless a session has it as its name.
            var noSuchID: JournalError?
            if let id = Session.ID(session) {
                do throws(JournalError) {
                    return try journal.session(id)
                } catch where error.code == .sessionNotFound {
                    noSuchID = error
                }
            }
            // A damaged row is no session to match by name; its own commands name it.
            let sessions = try journal.sessionRows().compactMap { try? $0.get() }
            guard let match = sessions.last(where: { $0.name == session }) else {
                throw noSuchID ?? JournalError(
                    .sessionNotFound, file: journal.fileName, reason: "no session named \"\(session)\" (the journal holds \(sessions.quotedNames()))")
            }
            return match
        }
    }
}

/// The journal's sessions whose rows can be read, and whether one could not: each damaged row's
/// error (its status, times or metadata) is printed to standard error, and the listing goes on, as
/// `log` goes on past a damaged entry. A command that lists sessions ends with status 1 after such
/// a row.
func readableSessions(in journal: Journal) throws -> (sessions: [Session], damaged: Bool) {
    let rows = try reportingErrors { () throws(JournalError) in try journal.sessionRows() }
    var sessions: [Session] = []
    var damaged = false
    for row in rows {
        switch row {
        case .success(let session): sessions.append(session)
        case .failure(let error):
            Terminal.printError(error.description)
            damaged = true
        }
    }
    return (sessions, damaged)
}

extension [Session] {
    /// The sessions' entries in all, `Int.max` past it (counts come from files).
    var totalEntries: Int {
        reduce(0) { total, session in
            let (sum, overflow) = total.addingReportingOverflow(session.entryCount)
            return overflow ? Int.max : sum
        }
    }
}

/// Refuses a session without entries, saying why it has none, with exit status 1 (a data error, as
/// a damaged entry is): a session row is written when recording starts, and its first entry (entry
/// 0, the initial state) with the first batch, so a process killed in between leaves a session that
/// lists in `sessions` but has nothing to show, diff or export.
func requireEntries(_ session: Session, in journal: Journal) throws {
    guard session.entryCount == 0 else { return }
    let reason =
        switch session.status {
        case .interrupted: "the session has no entries: its recording stopped before the first entry (the initial state) was written"
        case .recording: "the session has no entries yet: its recorder has not written the first entry (the initial state)"
        case .closed: "the session has no entries, though it was closed: its first entry (the initial state) is missing"
        }
    try reportingErrors { () throws(JournalError) in
        throw JournalError(.corrupt, file: journal.fileName, session: session.id, reason: reason)
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
        case .fileNotFound, .notADatabase, .notAJournal, .newerSchema, .sessionNotFound, .entryNotFound, .invalidArgument:
            throw ExitCode(64)
        case .corrupt, .sqlite, .fileSystem, .busy, .encodingFailed:
            throw ExitCode.failure
        }
    }
}

/// ``reportingErrors(_:)`` for a body that may also throw other errors (a failed write, already
/// told): a journal error is told and becomes the exit status; any other error passes through.
func reportingJournalErrors<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as JournalError {
        return try reportingErrors { () throws(JournalError) in throw error }
    }
}
