import ActionLog
import ArgumentParser
import Foundation

/// The file argument and `--session` of the commands that read a journal or a session's text form
/// (`export`, `diff`). A text file holds one session, and so may a journal: then `--session` can be left out.
struct SessionFileOptions: ParsableArguments {
    @Argument(help: "A journal (.actionlog), or a session in text form (.jsonl).")
    var file: String

    @Option(
        name: .shortAndLong,
        help: "The session: its id, or its name (the newest session of that name). Not needed when the file holds one session."
    )
    var session: String?

    /// Whether `file` is a session's text form, by its extension.
    var isTextForm: Bool { URL(fileURLWithPath: file).pathExtension.lowercased() == "jsonl" }

    /// Reads the whole session.
    func recordedSession() throws -> RecordedSession {
        if isTextForm { return try textSession() }
        let (journal, session) = try journalSession()
        return try reportingErrors { () throws(JournalError) in try journal.recordedSession(session.id) }
    }

    /// How headings name the session, and the recorded states after entries `first` and `second`.
    func states(_ first: Int, _ second: Int) throws -> (name: String, first: JSONValue, second: JSONValue) {
        if isTextForm {
            let recorded = try textSession()
            return try reportingErrors { () throws(JournalError) in
                (recorded.displayName, try recorded.state(at: first), try recorded.state(at: second))
            }
        }
        let (journal, session) = try journalSession()
        return try reportingErrors { () throws(JournalError) in
            ("session \(session.id) \"\(session.name)\"", try journal.state(at: first, in: session.id), try journal.state(at: second, in: session.id))
        }
    }

    private func textSession() throws -> RecordedSession {
        try reportingErrors { () throws(JournalError) in
            let recorded = try RecordedSession(contentsOfJSONL: URL(fileURLWithPath: file))
            if let session, session != recorded.session.name {
                throw JournalError(
                    .sessionNotFound, file: recorded.file,
                    reason: "no session named \"\(session)\" (the file holds session \"\(recorded.session.name)\")"
                )
            }
            return recorded
        }
    }

    private func journalSession() throws -> (Journal, Session) {
        let journal = try JournalOptions(file: file).open()
        if let session {
            var options = SessionOptions()
            options.session = session
            return (journal, try options.resolve(in: journal))
        }
        let only = try reportingErrors { () throws(JournalError) in
            let sessions = try journal.sessions()
            guard sessions.count == 1 else {
                throw JournalError(
                    .sessionNotFound, file: journal.fileName,
                    reason: sessions.isEmpty ? "no sessions" : "\(counted(sessions.count, "session")); choose one with --session"
                )
            }
            return sessions[0]
        }
        return (journal, only)
    }
}
