import ActionLog
import ArgumentParser
import Foundation

/// `replay-cli export FILE --session ID [--format jsonl] [--output PATH]`: a session as reviewable text.
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a session as text (JSONL): a header line, then one line per entry.",
        discussion: """
            `replay-cli import` reads the text back: export, import and export again give the same bytes. \
            FILE may be a .jsonl file too, which writes it in normal form.
            """
    )

    /// The text forms `export` writes.
    enum Format: String, CaseIterable, ExpressibleByArgument {
        case jsonl
    }

    @OptionGroup var source: SessionFileOptions

    @Option(help: "The text format.")
    var format = Format.jsonl

    @Option(name: .shortAndLong, help: "Write to this file instead of standard output.")
    var output: String?

    @Flag(help: "Replace the --output file if it exists.")
    var force = false

    func run() throws {
        let text = try source.recordedSession().jsonl()
        guard let output else {
            FileHandle.standardOutput.write(Data(text.utf8))
            return
        }
        if !force, FileManager.default.fileExists(atPath: output) {
            Terminal.printError("\(output): the file exists; pass --force to replace it")
            throw ExitCode(64)
        }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            Terminal.printError("\(output): cannot write the file: \(error.localizedDescription)")
            throw ExitCode.failure
        }
    }
}

// MARK: - Shared with diff

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
