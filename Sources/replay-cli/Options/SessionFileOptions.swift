import ActionLog
import ArgumentParser
import CommandLineSupport
import Foundation

/// The file argument and `--session` of the commands that read a journal or a session's text form
/// (`export`, `diff`). A text file holds one session, and so may a journal: then `--session` can be left out.
struct SessionFileOptions: ParsableArguments {
    @Argument(
        help: ArgumentHelp("A journal (.actionlog), or a session in text form (.jsonl).", valueName: "file"),
        completion: .file(extensions: ["actionlog", "jsonl"]))
    var file: String

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "The session: its id, or its name (the newest session of that name). Not needed when the file holds one session.",
            valueName: "id")
    )
    var session: String?

    func validate() throws {
        try refuseEmptyPath(file)
    }

    /// Whether `file` is a session's text form, by its extension.
    var isTextForm: Bool { RecordedSession.isTextFormPath(file) }

    /// Reads the whole session.
    func recordedSession() throws -> RecordedSession {
        if isTextForm { return try textSession() }
        let (journal, session) = try journalSession()
        return try reportingErrors { () throws(ActionLogError) in try journal.recordedSession(session.id) }
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
    ///
    /// On a terminal, a long export shows how many entries it has written (``ProgressLine``), unless
    /// `showingProgress` is `false` (the text itself goes to the terminal).
    func exportJSONL(showingProgress: Bool = true, write: ([UInt8]) throws -> Void) throws {
        var progress: ProgressLine?
        defer { progress?.finish() }
        // Lines written, counted in the chunks: no JSON text holds a raw newline. Line 1 is the header.
        var lines = 0
        func counting(_ bytes: [UInt8]) throws {
            try write(bytes)
            guard let progress else { return }
            for byte in bytes where byte == UInt8(ascii: "\n") { lines += 1 }
            progress.update(max(0, lines - 1))
        }
        if isTextForm {
            progress = ProgressLine("export", total: nil, unit: "entries", isEnabled: showingProgress && Terminal.isErrorInteractive)
            try reportingJournalErrors {
                var reader = try RecordedSession.jsonlReader(at: URL(fileURLWithPath: file))
                try check(sessionName: reader.session.name, file: reader.file)
                let handlers = reader.handlers
                try RecordedSession.writeJSONL(
                    session: reader.session, source: .textFile(reader.file), handler: { handlers.bySeq[$0] },
                    next: { () throws(ActionLogError) in try reader.next() }, write: counting)
            }
            return
        }
        let (journal, session) = try journalSession()
        progress = ProgressLine("export", total: session.entryCount, unit: "entries", isEnabled: showingProgress && Terminal.isErrorInteractive)
        try reportingJournalErrors { try journal.exportJSONL(session.id, write: counting) }
    }

    /// The session's states after two entries, and how to name the session.
    struct States {
        /// How headings name the session: `session 2 "checkout"`.
        let displayName: String
        /// The session's id in its journal; `nil` for a text file.
        let session: JournalSession.ID?
        let sessionName: String
        let first: JSONValue
        let second: JSONValue
    }

    /// The recorded states after entries `first` and `second`.
    func states(_ first: Int, _ second: Int) throws -> States {
        if isTextForm {
            let recorded = try textSession()
            return try reportingErrors { () throws(ActionLogError) in
                States(
                    displayName: recorded.displayName, session: nil, sessionName: recorded.session.name,
                    first: try recorded.state(at: first), second: try recorded.state(at: second))
            }
        }
        let (journal, session) = try journalSession()
        return try reportingErrors { () throws(ActionLogError) in
            States(
                displayName: "session \(session.id) \"\(session.name)\"", session: session.id, sessionName: session.name,
                first: try journal.state(at: first, in: session.id), second: try journal.state(at: second, in: session.id))
        }
    }

    /// What the session's asynchronous handlers did at the entries in `seqs`, by entry: empty for a
    /// reducer's session. A journal reads those entries' records only.
    func handlerRecords(in seqs: ClosedRange<Int>) throws -> [HandlerRecord] {
        if isTextForm { return try textSession().handlers.filter { seqs.contains($0.seq) } }
        let (journal, session) = try journalSession()
        return try reportingErrors { () throws(ActionLogError) in try journal.handlerRecords(in: session.id, seqs: seqs) }
    }

    private func textSession() throws -> RecordedSession {
        try reportingErrors { () throws(ActionLogError) in
            let recorded = try RecordedSession(contentsOfJSONL: URL(fileURLWithPath: file))
            try check(sessionName: recorded.session.name, file: recorded.file)
            return recorded
        }
    }

    /// Refuses a `--session` that names another session than the text file holds.
    private func check(sessionName: String, file: String) throws(ActionLogError) {
        if let session, session != sessionName {
            throw ActionLogError(
                .sessionNotFound, file: file,
                reason: "no session named \"\(session)\" (the file holds session \"\(sessionName)\")"
            )
        }
    }

    private func journalSession() throws -> (Journal, JournalSession) {
        let journal = try JournalOptions(file: file).open()
        var options = SessionOptions()
        options.session = session
        let resolved = try options.resolve(in: journal)
        try requireEntries(resolved, in: journal)
        return (journal, resolved)
    }
}
