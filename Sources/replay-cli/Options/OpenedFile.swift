import ActionLog
import ActionLogPostgres
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

/// The file a reading command was given, opened: a journal, or a session's text form (`.jsonl`,
/// by its extension) read into a temporary journal of its own, so that every reader (`sessions`,
/// `log`, `state`, `stats`, `diff`, `report`, `serve`) reads both through the same code and prints
/// the same for a session and its text form.
///
/// The text form is read as `import` reads it, an entry at a time and checked on the way (a damaged
/// file is refused at its first problem, naming the line), into a journal in a private directory of
/// the temporary directory (`TMPDIR`), named as the text file is, so that messages name the text
/// file. Memory stays bounded however long the session; the disk holds the session once more while
/// the command runs. The temporary journal is removed as soon as it is open (the open connection
/// still reads it), so nothing is left behind, even when the command is killed; a command that
/// needs its path (`report`, `serve`) keeps it until it ends.
final class OpenedFile {
    /// The journal to read: the file given, or the text form's temporary journal.
    let journal: Journal
    /// The path of the text form given, as given; `nil` for a journal.
    let textForm: String?
    /// The team store given (a `postgres://` URL), as messages name it (without its password); `nil` for a file.
    let store: String?
    /// The directory of the temporary journal while it still has its path.
    private var temporaryDirectory: String?

    /// Opens `path` read-only; a text form (by its extension) is read into a temporary journal,
    /// and so is what a reader needs of a team store's URL (``StoreSessions``).
    ///
    /// - Parameters:
    ///   - keepingPath: whether ``journal``'s path must name the journal until this goes away (for
    ///     a reader that opens the path again).
    ///   - session: for a team store's URL, the session to read (`--session`); with `listing`, none.
    ///   - listing: for a team store's URL, read the list of sessions `listing` keeps instead of one session.
    ///   - states: for a team store's URL and a reader of the states at these entries only (`state
    ///     --at`, `diff`), read the rows those need, not the session.
    convenience init(_ path: String, keepingPath: Bool = false, session: String? = nil, listing: SessionFilter? = nil, states: ClosedRange<Int>? = nil) throws {
        if PostgresLocation.isURL(path) {
            let store = try StoreSessions(url: path)
            defer { store.close() }
            let opened = try listing.map(store.openList) ?? store.open(try store.resolve(session), keepingPath: keepingPath, states: states)
            self.init(journal: opened.journal, textForm: nil, store: store.name, directory: opened.takeTemporaryDirectory(), keepingPath: true)
            return
        }
        guard RecordedSession.isTextFormPath(path) else {
            self.init(journal: try reportingErrors { () throws(ActionLogError) in try Journal(path: path) })
            return
        }
        let (journal, directory) = try Self.readTextForm(path)
        self.init(journal: journal, textForm: path, store: nil, directory: directory, keepingPath: keepingPath)
    }

    /// A team store's temporary journal, read into `directory` (``StoreSessions``), named by `store`.
    convenience init(store: String, journal: Journal, directory: String, keepingPath: Bool) {
        self.init(journal: journal, textForm: nil, store: store, directory: directory, keepingPath: keepingPath)
    }

    /// A journal opened already.
    convenience init(journal: Journal) {
        self.init(journal: journal, textForm: nil, store: nil, directory: nil, keepingPath: false)
    }

    /// The journal, what it was read from, and the temporary directory it was read into (`nil` for
    /// a journal opened where it is), removed now unless `keepingPath`.
    private init(journal: Journal, textForm: String?, store: String?, directory: String?, keepingPath: Bool) {
        self.journal = journal
        self.textForm = textForm
        self.store = store
        if let directory, !keepingPath {
            Self.remove(directory, journal: journal.path)
            temporaryDirectory = nil
        } else {
            temporaryDirectory = directory
        }
    }

    deinit {
        if let temporaryDirectory { Self.remove(temporaryDirectory, journal: journal.path) }
    }

    /// Hands the temporary journal's directory to whoever removes it now: this one no longer does.
    private func takeTemporaryDirectory() -> String? {
        defer { temporaryDirectory = nil }
        return temporaryDirectory
    }

    /// Whether the file given is a text form.
    var isTextForm: Bool { textForm != nil }

    /// The session's id as output shows it: `nil` for a text form or a team store, whose sessions
    /// have no id (their ids in the temporary journal mean nothing outside it).
    func shownID(_ session: JournalSession) -> JournalSession.ID? {
        isTextForm || store != nil ? nil : session.id
    }

    /// How messages name the session: `session 3 "checkout"`, or `session "checkout"` for a text
    /// form; to be escaped for a terminal, as the name is as it was recorded.
    func displayName(_ session: JournalSession) -> String {
        shownID(session).map { "session \($0) \"\(session.name)\"" } ?? "session \"\(session.name)\""
    }

    /// The session `--session` names (``SessionOptions/resolve(in:)``); a text form holds one
    /// session, which `--session` may name by its name.
    func resolve(_ session: String?) throws -> JournalSession {
        // A team store's session was chosen when it was read: the temporary journal holds it alone.
        var options = SessionOptions()
        if store != nil {
            options.session = nil
            return try options.resolve(in: journal)
        }
        // A text form's one session is named by its name only: its id in the temporary journal means nothing.
        options.session = isTextForm ? nil : session
        guard isTextForm else { return try options.resolve(in: journal) }
        let only = try options.resolve(in: journal)
        if let session, session != only.name, UUID(uuidString: session) != only.uuid {
            try reportingErrors { () throws(ActionLogError) in throw Self.noSuchSession(session, file: journal.fileName, holding: only.name) }
        }
        return only
    }

    /// The error of a `--session` that names another session than the text form holds.
    static func noSuchSession(_ session: String, file: String, holding name: String) -> ActionLogError {
        ActionLogError(.sessionNotFound, file: file, reason: "no session named \"\(session)\" (the file holds session \"\(name)\")")
    }

    /// Refuses a text form for a command that changes or copies a journal, saying why and what to do.
    static func refuseTextForm(_ path: String, _ why: String) throws {
        guard RecordedSession.isTextFormPath(path) else { return }
        Terminal.printError("\(JournalFile.displayName(path).displayEscaped): a session in text form (.jsonl), not a journal; \(why)")
        throw ExitCode(64)
    }

    // MARK: - Reading a text form

    /// Reads the text form at `path` into a new journal in a new private directory; returns the
    /// journal, opened read-only, and the directory.
    private static func readTextForm(_ path: String) throws -> (Journal, String) {
        let directory = try makeTemporaryDirectory(for: JournalFile.displayName(path))
        let url = URL(fileURLWithPath: path)
        let journalPath = directory + "/" + url.lastPathComponent
        let progress = ProgressLine("read", total: nil, unit: "entries")
        do {
            defer { progress.finish() }
            let journal = try reportingErrors { () throws(ActionLogError) in
                var reader = try RecordedSession.jsonlReader(at: url)
                var readerFailed = false
                do throws(ActionLogError) {
                    // The writer goes away at the end of this scope, leaving one file to open read-only.
                    let writer = try Journal(path: journalPath, mode: .readWrite)
                    let handlers = reader.handlers
                    var read = 0
                    _ = try writer.insert(session: reader.session, file: reader.file, handlers: { handlers.inOrder }) { () throws(ActionLogError) in
                        let entry: Entry?
                        do throws(ActionLogError) {
                            entry = try reader.next()
                        } catch {
                            readerFailed = true
                            throw error
                        }
                        if entry != nil {
                            read += 1
                            progress.update(read)
                        }
                        return entry
                    }
                } catch where !readerFailed && (error.code == .sqlite || error.code == .fileSystem) {
                    // The temporary journal's own trouble (a full disk): said as such, not as the text file's.
                    throw ActionLogError(
                        error.code, file: error.file, entry: error.entry,
                        reason: "cannot read it into a temporary journal in \(directory): \(error.reason)", sqliteCode: error.sqliteCode)
                }
                return try Journal(path: journalPath)
            }
            return (journal, directory)
        } catch {
            remove(directory, journal: journalPath)
            throw error
        }
    }

    /// A new private directory in the temporary directory, for the temporary journal of `file`.
    static func makeTemporaryDirectory(for file: String) throws -> String {
        let template = FileManager.default.temporaryDirectory.appendingPathComponent("replay-cli.XXXXXX").path
        var bytes = Array(template.utf8CString)
        guard let made = mkdtemp(&bytes) else {
            let reason = String(cString: strerror(errno))
            return try reportingErrors { () throws(ActionLogError) in
                throw ActionLogError(.fileSystem, file: file, reason: "cannot make a temporary directory to read it into (\(template)): \(reason)")
            }
        }
        return String(cString: made)
    }

    /// Removes the temporary journal, its companions and its directory.
    static func remove(_ directory: String, journal: String) {
        for suffix in [""] + JournalFile.companionSuffixes { unlink(journal + suffix) }
        rmdir(directory)
    }
}
