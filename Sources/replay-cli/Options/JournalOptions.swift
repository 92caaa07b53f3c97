import ActionLog
import ActionLogPostgres
import Foundation
import ArgumentParser
import CommandLineSupport

/// The journal file argument shared by every inspecting command.
struct JournalOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("The journal file (.actionlog).", valueName: "file"), completion: .file(extensions: ["actionlog"]))
    var file: String

    func validate() throws {
        try refuseEmptyPath(file)
    }

    /// Opens the journal read-only.
    func open() throws -> Journal {
        try refuseStore(file)
        return try reportingErrors { () throws(ActionLogError) in try Journal(path: file) }
    }
}

extension JournalOptions {
    /// The options as if `file` had been given on the command line.
    init(file: String) {
        self.init()
        self.file = file
    }
}

/// The file argument of the commands that read a whole file, a journal or a session's text form,
/// or a team store (`sessions`, `stats`, `verify`, `serve`: each reads a store's URL itself).
struct FileOptions: ParsableArguments {
    @Argument(
        help: ArgumentHelp("A journal (.actionlog), a session in text form (.jsonl), or a team store (postgres://...).", valueName: "file"),
        completion: .file(extensions: ["actionlog", "jsonl"]))
    var file: String

    func validate() throws {
        try refuseEmptyPath(file)
    }

    /// Opens the file read-only: a text form is read into a temporary journal (``OpenedFile``). A
    /// store's URL is for the command to read (``StoreSessions``), and refused here.
    func open(keepingPath: Bool = false) throws -> OpenedFile {
        try refuseStore(file)
        return try OpenedFile(file, keepingPath: keepingPath)
    }
}

/// Refuses a team store's URL for a command that reads files only, without repeating the URL (it
/// may hold a password).
func refuseStore(_ file: String) throws {
    guard PostgresLocation.isURL(file) else { return }
    Terminal.printError("""
        a team store (postgres://…) where this command takes a file; the readers (sessions, log, state, diff, why, export, report, \
        stats, verify, serve) read a store, and push sends sessions to one
        """)
    throw ExitCode(64)
}

/// `--session`: a session id, its uuid, or the name of a session (the newest with that name). A
/// number is an id first; when no session has that id, it is a name (a session named `2024`). Left out, the
/// journal's only session; a journal of several says how many, and asks for one.
struct SessionOptions: ParsableArguments {
    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("The session: its id, its uuid, or its name (the newest session of that name). Not needed when the file holds one session.", valueName: "id"))
    var session: String?

    /// The session `--session` names, or the journal's only session; an error said on standard error.
    func resolve(in journal: Journal) throws -> JournalSession {
        try reportingErrors { () throws(ActionLogError) in try find(in: journal) }
    }

    /// The session `--session` names, or the journal's only session.
    ///
    /// - Throws: ``ActionLogError/Code/sessionNotFound`` when there is no such session, or when
    ///   `--session` is left out and the journal holds none or several.
    func find(in journal: Journal) throws(ActionLogError) -> JournalSession {
        guard let session else { return try Self.onlySession(in: journal) }
        if let uuid = UUID(uuidString: session) {
            var cursor = journal.sessionCursor()
            while let row = try cursor.nextRow() {
                if case .success(let read) = row, read.uuid == uuid { return read }
            }
            throw ActionLogError(.sessionNotFound, file: journal.fileName, reason: "no session with the uuid \(uuid.uuidString.lowercased())")
        }
        // A number that is no session's id: its error stands unless a session has it as its name.
        var noSuchID: ActionLogError?
        if let id = JournalSession.ID(session) {
            do throws(ActionLogError) {
                return try journal.session(id)
            } catch where error.code == .sessionNotFound {
                noSuchID = error
            }
        }
        // A damaged row is no session to match by name; its own commands name it. The newest
        // of that name is the last one read: one walk, a page at a time.
        var match: JournalSession?
        var cursor = journal.sessionCursor()
        while let row = try cursor.nextRow() {
            if case .success(let read) = row, read.name == session { match = read }
        }
        guard let match else {
            if let noSuchID { throw noSuchID }
            let names = try journal.quotedSessionNames()
            throw ActionLogError(.sessionNotFound, file: journal.fileName, reason: "no session named \"\(session)\" (the journal holds \(names))")
        }
        return match
    }

    /// The journal's only session; an error saying how many there are when it holds none or several.
    private static func onlySession(in journal: Journal) throws(ActionLogError) -> JournalSession {
        // Two rows read at most: how many there are beyond one is counted by SQL.
        var cursor = journal.sessionCursor()
        guard let first = try cursor.next() else {
            throw ActionLogError(.sessionNotFound, file: journal.fileName, reason: "no sessions")
        }
        guard try cursor.next() == nil else {
            let count = try journal.sessionCount()
            throw ActionLogError(.sessionNotFound, file: journal.fileName, reason: "\(counted(count, "session")); choose one with --session")
        }
        return first
    }
}

/// What a walk over a journal's session rows (``walkSessions(in:reportingDamage:_:)``) saw.
struct SessionWalk {
    /// The rows read, damaged ones included.
    var rows = 0
    /// The sessions read: the rows that are not damaged.
    var sessions = 0
    /// The entries of the sessions read, `Int.max` past it (counts come from files).
    var entries = 0
    /// Whether a row could not be read.
    var damaged = false
}

/// Calls `body` with each session of the journal whose row can be read, oldest first, a page of
/// rows at a time, so that memory stays bounded however many sessions the file holds. Each damaged
/// row's error (its status, times or metadata) goes to `reportingDamage` (standard error unless
/// told otherwise), and the walk goes on, as `log` goes on past a damaged entry: a command that
/// lists sessions ends with status 1 after such a row.
///
/// - Parameters:
///   - reportingDamage: what to do with the error of a damaged row; `nil` to pass it over silently.
///   - body: called with each session read.
/// - Returns: what the walk saw.
@discardableResult
func walkSessions(
    in journal: Journal, reportingDamage: ((ActionLogError) -> Void)? = { Terminal.printError($0.description) },
    _ body: (JournalSession) throws -> Void
) throws -> SessionWalk {
    var walk = SessionWalk()
    var cursor = journal.sessionCursor()
    while let row = try reportingErrors({ () throws(ActionLogError) in try cursor.nextRow() }) {
        walk.rows += 1
        switch row {
        case .success(let session):
            walk.sessions += 1
            let (sum, overflow) = walk.entries.addingReportingOverflow(session.entryCount)
            walk.entries = overflow ? Int.max : sum
            try body(session)
        case .failure(let error):
            reportingDamage?(error)
            walk.damaged = true
        }
    }
    return walk
}

/// Refuses a session without entries, saying why it has none, with exit status 1 (a data error, as
/// a damaged entry is): a session row is written when recording starts, and its first entry (entry
/// 0, the initial state) with the first batch, so a process killed in between leaves a session that
/// lists in `sessions` but has nothing to show, diff or export.
func requireEntries(_ session: JournalSession, in journal: Journal) throws {
    guard session.entryCount == 0 else { return }
    let reason =
        switch session.status {
        case .interrupted: "the session has no entries: its recording stopped before the first entry (the initial state) was written"
        case .recording: "the session has no entries yet: its recorder has not written the first entry (the initial state)"
        case .closed: "the session has no entries, though it was closed: its first entry (the initial state) is missing"
        }
    try reportingErrors { () throws(ActionLogError) in
        throw ActionLogError(.corrupt, file: journal.fileName, session: session.id, reason: reason)
    }
}

/// ``reportingErrors(_:)`` for a body that may also throw other errors (a failed write, already
/// told): a journal error is told and becomes the exit status; any other error passes through.
func reportingJournalErrors<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as ActionLogError {
        return try reportingErrors { () throws(ActionLogError) in throw error }
    }
}
