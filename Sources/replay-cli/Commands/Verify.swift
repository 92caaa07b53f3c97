import ActionLog
import ActionLogPostgres
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

            FILE may be a team store's URL (postgres://…): each complete session is read into a temporary \
            journal, one at a time, and checked as a file's session is (its rows' checksums, carried from \
            the journal it was pushed from, among them), and the store must hold as many entries as its \
            push counted. Findings name each session by its uuid and name (in --json: uuid and \
            sessionName, session null). Sessions a push has not completed are a note.

            With --json it prints one object: file, sessions, entries, valid, and findings, each with \
            file, session, seq (the entry; null for the file or the session as a whole), code (integrity, \
            session, entry or handlerRecord) and message. The exit status is 1 when it has findings, \
            with --json too.

            Examples:
              replay-cli verify app.actionlog
              replay-cli verify app.actionlog --json | jq '.findings[].message'
              replay-cli verify postgres://ci@db.internal/actionlog
            """
    )

    @OptionGroup var input: FileOptions

    @Flag(help: "Print JSON for scripts: one object with the counts and the findings.")
    var json = false

    func run() throws {
        if PostgresLocation.isURL(input.file) { return try verifyStore() }
        if RecordedSession.isTextFormPath(input.file) {
            // A golden's text form, checked as import reads it: up to its first problem.
            let url = URL(fileURLWithPath: input.file)
            let result = try reportingErrors { () throws(ActionLogError) in try RecordedSession.verifyJSONL(at: url) }
            return try print(Report(result, file: input.file), fileName: url.lastPathComponent)
        }
        let journal = try JournalOptions(file: input.file).open()
        // A damaged session row is verify's finding, not a reason to stop before it.
        let total = try walkSessions(in: journal, reportingDamage: nil) { _ in }.entries
        let progress = ProgressLine("verify", total: total, unit: "entries")
        let result = try reportingErrors { () throws(ActionLogError) in try journal.verify(progress: progress.update) }
        progress.finish()
        try print(Report(result, file: input.file), fileName: journal.fileName)
    }

    /// A team store: each complete session read into a temporary journal of its own, one at a
    /// time, and checked as a file's session is (its rows' checksums, carried from the journal it
    /// was pushed from, among them); then that the store holds as many entries as its push counted.
    /// Sessions a push has not completed are a note: readers leave them out until it does.
    private func verifyStore() throws {
        let store = try StoreSessions(url: input.file)
        defer { store.close() }
        let (sessions, incomplete) = try store.all()
        var report = Report()
        for listed in sessions {
            let opened = try store.open(listed)
            let result = try reportingErrors { () throws(ActionLogError) in try opened.journal.verify() }
            let session = try opened.resolve(nil)
            report.sessions += 1
            report.entries += session.entryCount
            let members: [String: JSONValue] = ["file": .string(store.name), "session": .null, "uuid": .string(listed.uuid.uuidString.lowercased()), "sessionName": .string(listed.name)]
            func line(_ finding: JournalFinding) -> Report.Line {
                let place = finding.entry.map { ", entry \($0)" } ?? ""
                return Report.Line(
                    text: "\(listed)\(place): \(finding.problem)".displayEscaped,
                    json: .object(members.merging([
                        "seq": finding.entry.map(JSONOutput.number) ?? .null, "code": .string(finding.code.rawValue), "message": .string(finding.problem),
                    ]) { $1 }))
            }
            report.findings += result.findings.map(line)
            report.notes += result.notes.map(line)
            if session.entryCount != listed.entryCount {
                report.findings.append(line(JournalFinding(
                    session: nil, entry: nil, problem: "the store holds \(counted(session.entryCount, "entry", "entries")) where its push counted \(listed.entryCount)",
                    code: .session)))
            }
        }
        if incomplete > 0 {
            let problem = "\(counted(incomplete, "session")) not complete: a push is under way or stopped part way (the next push of the session resumes it); readers leave them out"
            report.notes.append(Report.Line(
                text: problem, json: .object(["file": .string(store.name), "session": .null, "seq": .null, "code": .string("session"), "message": .string(problem)])))
        }
        try print(report, fileName: store.name)
    }

    /// What verify prints: the counts, the findings and the notes, each as a line and as JSON.
    struct Report {
        struct Line {
            /// Escaped for a terminal.
            var text: String
            var json: JSONValue
        }
        var sessions = 0
        var entries = 0
        var findings: [Line] = []
        var notes: [Line] = []

        init() {}

        /// A file's result, in the naming of ``JSONOutput``.
        init(_ result: JournalVerification, file: String) {
            func line(_ finding: JournalFinding) -> Line {
                Line(text: finding.description, json: .object([
                    "file": .string(file),
                    "session": finding.session.map(JSONOutput.number) ?? .null,
                    "seq": finding.entry.map(JSONOutput.number) ?? .null,
                    "code": .string(finding.code.rawValue),
                    "message": .string(finding.problem),
                ]))
            }
            sessions = result.sessions
            entries = result.entries
            findings = result.findings.map(line)
            notes = result.notes.map(line)
        }
    }

    /// Prints `report` as text or JSON; throws exit status 1 when it has findings.
    private func print(_ report: Report, fileName: String) throws {
        if json {
            try JSONOutput.print(.object([
                "file": .string(input.file),
                "sessions": JSONOutput.number(report.sessions),
                "entries": JSONOutput.number(report.entries),
                "valid": .bool(report.findings.isEmpty),
                "findings": .array(report.findings.map(\.json)),
                "notes": .array(report.notes.map(\.json)),
            ]))
            if !report.findings.isEmpty { throw ExitCode.failure }
            return
        }
        let summary = "\(fileName.displayEscaped): \(counted(report.sessions, "session")), \(counted(report.entries, "entry", "entries"))"
        var output = BufferedOutput()
        guard report.findings.isEmpty else {
            try output.write("\(summary): \(Style.apply(.red, counted(report.findings.count, "problem")))")
            for finding in report.findings { try output.write("  \(Style.apply(.red, finding.text))") }
            for note in report.notes { try output.write("  \(Style.apply(.yellow, "note: " + note.text))") }
            try output.flush()
            throw ExitCode.failure
        }
        try output.write("\(summary): \(Style.apply(.green, "OK"))")
        for note in report.notes { try output.write("  \(Style.apply(.yellow, "note: " + note.text))") }
        try output.flush()
    }
}
