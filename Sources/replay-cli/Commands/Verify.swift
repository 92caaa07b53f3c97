import ActionLog
import ArgumentParser
import CommandLineSupport
import Foundation

/// `replay-cli verify FILE [--json]`: the journal's integrity.
struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a journal's integrity; exit 1 with the findings when it is damaged.",
        discussion: """
            Checks SQLite's integrity, that the file is whole pages (not cut short), every row's checksum \
            (a change to its bytes since ActionLog wrote it), gapless sequence numbers, that every action, \
            state and effect parses, and that session statuses are sane. It reports every problem it finds, \
            not only the first; rows without checksums (written before ActionLog checksummed its rows) are \
            a note. FILE may be a .jsonl \
            text form (a golden) too, checked as import reads it: up to its first problem. On a terminal, a \
            check that runs longer than a second shows how many entries it has checked on standard error.

            With --json it prints one object: file, sessions, entries, valid, and findings, each with \
            file, session, seq (the entry; null for the file or the session as a whole), code (integrity, \
            session, entry or handlerRecord) and message. The exit status is 1 when it has findings, \
            with --json too.

            Examples:
              replay-cli verify app.actionlog
              replay-cli verify app.actionlog --json | jq '.findings[].message'
            """
    )

    @OptionGroup var input: FileOptions

    @Flag(help: "Print JSON for scripts: one object with the counts and the findings.")
    var json = false

    func run() throws {
        if RecordedSession.isTextFormPath(input.file) {
            // A golden's text form, checked as import reads it: up to its first problem.
            let url = URL(fileURLWithPath: input.file)
            let result = try reportingErrors { () throws(ActionLogError) in try RecordedSession.verifyJSONL(at: url) }
            return try print(result, fileName: url.lastPathComponent)
        }
        let journal = try JournalOptions(file: input.file).open()
        // A damaged session row is verify's finding, not a reason to stop before it.
        let total = try walkSessions(in: journal, reportingDamage: nil) { _ in }.entries
        let progress = ProgressLine("verify", total: total, unit: "entries")
        let result = try reportingErrors { () throws(ActionLogError) in try journal.verify(progress: progress.update) }
        progress.finish()
        try print(result, fileName: journal.fileName)
    }

    /// Prints `result` as text or JSON; throws exit status 1 when it has findings.
    private func print(_ result: JournalVerification, fileName: String) throws {
        if json {
            try JSONOutput.print(Self.json(result, file: input.file))
            if !result.isValid { throw ExitCode.failure }
            return
        }
        let summary = "\(fileName.displayEscaped): \(counted(result.sessions, "session")), \(counted(result.entries, "entry", "entries"))"
        var output = BufferedOutput()
        guard result.isValid else {
            try output.write("\(summary): \(Style.apply(.red, counted(result.findings.count, "problem")))")
            // A finding's description is escaped for a terminal already.
            for finding in result.findings { try output.write("  \(Style.apply(.red, finding.description))") }
            for note in result.notes { try output.write("  \(Style.apply(.yellow, "note: " + note.description))") }
            try output.flush()
            throw ExitCode.failure
        }
        try output.write("\(summary): \(Style.apply(.green, "OK"))")
        for note in result.notes { try output.write("  \(Style.apply(.yellow, "note: " + note.description))") }
        try output.flush()
    }

    /// The result in the naming of ``JSONOutput``.
    static func json(_ result: JournalVerification, file: String) -> JSONValue {
        func json(_ finding: JournalFinding) -> JSONValue {
            .object([
                "file": .string(file),
                "session": finding.session.map(JSONOutput.number) ?? .null,
                "seq": finding.entry.map(JSONOutput.number) ?? .null,
                "code": .string(finding.code.rawValue),
                "message": .string(finding.problem),
            ])
        }
        return .object([
            "file": .string(file),
            "sessions": JSONOutput.number(result.sessions),
            "entries": JSONOutput.number(result.entries),
            "valid": .bool(result.isValid),
            "findings": .array(result.findings.map(json)),
            "notes": .array(result.notes.map(json)),
        ])
    }
}
