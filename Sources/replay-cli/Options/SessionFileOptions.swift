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

    /// The files read: the text file, or the journal and its companions (`-wal`, `-shm`, `-journal`),
    /// with how messages name each.
    var filesRead: [(path: String, role: String)] {
        if isTextForm { return [(file, "the file being read")] }
        return [
            (file, "the journal being read"), (file + "-wal", "the write-ahead log of the journal being read"),
            (file + "-shm", "the shared memory file of the journal being read"),
            (file + "-journal", "the rollback journal of the journal being read"),
        ]
    }

    /// Writes the session's text form through `write`, entry by entry: a journal's session through a
    /// cursor, a text file line by line, checked on the way. A session error is told and becomes the
    /// exit status; what `write` throws passes through.
    func exportJSONL(write: ([UInt8]) throws -> Void) throws {
        if isTextForm {
            try reportingJournalErrors {
                var reader = try RecordedSession.jsonlReader(at: URL(fileURLWithPath: file))
                try check(sessionName: reader.session.name, file: reader.file)
                let handlers = reader.handlers
                try RecordedSession.writeJSONL(
                    session: reader.session, file: reader.file, handler: { handlers.bySeq[$0] },
                    next: { () throws(JournalError) in try reader.next() }, write: write)
            }
            return
        }
        let (journal, session) = try journalSession()
        try reportingJournalErrors { try journal.exportJSONL(session.id, write: write) }
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

    /// What the session's asynchronous handlers did, by entry: empty for a reducer's session.
    func handlerRecords() throws -> [HandlerRecord] {
        if isTextForm { return try textSession().handlers }
        let (journal, session) = try journalSession()
        return try reportingErrors { () throws(JournalError) in try journal.handlerRecords(in: session.id) }
    }

    private func textSession() throws -> RecordedSession {
        try reportingErrors { () throws(JournalError) in
            let recorded = try RecordedSession(contentsOfJSONL: URL(fileURLWithPath: file))
            try check(sessionName: recorded.session.name, file: recorded.file)
            return recorded
        }
    }

    /// Refuses a `--session` that names another session than the text file holds.
    private func check(sessionName: String, file: String) throws(JournalError) {
        if let session, session != sessionName {
            throw JournalError(
                .sessionNotFound, file: file,
                reason: "no session named \"\(session)\" (the file holds session \"\(sessionName)\")"
            )
        }
    }

    private func journalSession() throws -> (Journal, Session) {
        let journal = try JournalOptions(file: file).open()
        if let session {
            var options = SessionOptions()
            options.session = session
            let resolved = try options.resolve(in: journal)
            try requireEntries(resolved, in: journal)
            return (journal, resolved)
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
        try requireEntries(only, in: journal)
        return (journal, only)
    }
}
