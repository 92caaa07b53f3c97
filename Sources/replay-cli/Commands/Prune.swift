import ActionLog
import ArgumentParser
import CommandLineSupport

/// `replay-cli prune FILE [--keep N] [--max-bytes SIZE] [--older-than DURATION] [--dry-run]`: removes
/// the oldest closed or interrupted sessions beyond the limits, never a live one.
struct Prune: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Remove the oldest sessions of a journal beyond a count, a size or an age; never a live one.",
        discussion: """
            Sessions go oldest first (by start time); a session being recorded is never removed. Sizes count \
            the bytes of the entries' texts (states, actions, effects, labels, gap notes, and service calls \
            and output events), as the total of `replay-cli stats`. The file keeps its size until \
            `replay-cli vacuum`; new entries reuse the space meanwhile. On a terminal, a long prune shows \
            how many sessions it has removed on standard error.

            With --json it prints one object: file, dryRun, removed (each with session, sessionName, \
            status, entries, bytes, reason: age, count or size), keptLive (session, sessionName) and \
            remainingSessions.

            Examples:
              replay-cli prune app.actionlog --keep 20 --dry-run
              replay-cli prune app.actionlog --max-bytes 50MB --older-than 30d
              replay-cli prune app.actionlog --keep 5 --json | jq '.removed[].session'
            """
    )

    @OptionGroup var journal: JournalOptions

    @Option(parsing: .unconditional, help: ArgumentHelp("Keep the newest N sessions (live ones count).", valueName: "n"))
    var keep: Int?

    @Option(name: .customLong("max-bytes"), parsing: .unconditional, help: ArgumentHelp(
        "Keep the sessions' entries within that many bytes: 500000, 800kB, 20MB, 1.5GiB.", valueName: "size"))
    var maxBytes: ByteSize?

    @Option(name: .customLong("older-than"), parsing: .unconditional, help: ArgumentHelp(
        "Remove sessions that ended longer ago than that: 90s, 30m, 12h, 7d, 2w.", valueName: "duration"))
    var olderThan: AgeLimit?

    @Flag(name: .customLong("dry-run"), help: "Print what would be removed; change nothing.")
    var dryRun = false

    @Flag(help: "Print JSON for scripts: what was removed (or would be), as one object.")
    var json = false

    func validate() throws {
        guard keep != nil || maxBytes != nil || olderThan != nil else {
            throw ValidationError("Give at least one limit: --keep, --max-bytes or --older-than.")
        }
        if let keep, keep < 0 { throw ValidationError("--keep must be 0 or more, not \(keep).") }
    }

    func run() throws {
        try OpenedFile.refuseTextForm(journal.file, "prune removes sessions from a journal, and a text form holds one session: remove the file itself")
        let opened = dryRun ? try journal.open() : try journal.openForWriting()
        let policy = RetentionPolicy(maximumSessions: keep, maximumBytes: maxBytes?.bytes, maximumAge: olderThan?.duration)
        // Made at the first session removed, when the total is known; it shows a second after the start.
        let start = ContinuousClock.now
        var progress: ProgressLine?
        defer { progress?.finish() }
        let report = try reportingErrors { () throws(ActionLogError) in
            try opened.prune(policy, dryRun: dryRun) { done, total in
                if progress == nil { progress = ProgressLine("prune", total: total, unit: "sessions removed", since: start) }
                progress?.update(done)
            }
        }
        progress?.finish()
        let sessions = report.keptLive.isEmpty ? [] : try reportingErrors { () throws(ActionLogError) in try opened.sessions() }
        if json {
            try JSONOutput.print(json(report, sessions: sessions))
            return
        }
        var output = BufferedOutput()
        for removal in report.removed {
            try output.write("""
                \(dryRun ? "Would remove" : "Removed") session \(removal.id) \(quoted(removal.name)): \(removal.status.rawValue), \
                \(counted(removal.entryCount, "entry", "entries")), \(ByteSize.format(removal.bytes)) (\(why(removal.reason)))
                """)
        }
        for id in report.keptLive {
            let name = sessions.first { $0.id == id }.map { " " + quoted($0.name) } ?? ""
            try output.write("Kept session \(id)\(name): it is being recorded (a live session is never removed)")
        }
        let left = counted(report.remainingSessions, "session")
        guard !report.removed.isEmpty else {
            try output.write("\(opened.fileName): nothing to remove; \(left) left.")
            try output.flush()
            return
        }
        let entries = report.removed.reduce(0) { $0 + $1.entryCount }
        let bytes = report.removed.reduce(0) { $0 + $1.bytes }
        let what = "\(counted(report.removed.count, "session")) (\(counted(entries, "entry", "entries")), \(ByteSize.format(bytes)))"
        if dryRun {
            try output.write("\(opened.fileName): would remove \(what); \(left) would be left. Nothing was changed (--dry-run).")
        } else {
            try output.write("\(opened.fileName): removed \(what); \(left) left. The file keeps its size until `replay-cli vacuum \(journal.file)`.")
        }
        try output.flush()
    }

    /// The report in the naming of ``JSONOutput``.
    private func json(_ report: PruneReport, sessions: [JournalSession]) -> JSONValue {
        let removed: [JSONValue] = report.removed.map { removal in
            .object([
                "session": JSONOutput.number(removal.id),
                "sessionName": .string(removal.name),
                "status": .string(removal.status.rawValue),
                "entries": JSONOutput.number(removal.entryCount),
                "bytes": JSONOutput.number(removal.bytes),
                "reason": .string(reasonName(removal.reason)),
            ])
        }
        let kept: [JSONValue] = report.keptLive.map { id in
            .object([
                "session": JSONOutput.number(id),
                "sessionName": sessions.first { $0.id == id }.map { .string($0.name) } ?? .null,
            ])
        }
        return .object([
            "file": .string(journal.file),
            "dryRun": .bool(dryRun),
            "removed": .array(removed),
            "keptLive": .array(kept),
            "remainingSessions": JSONOutput.number(report.remainingSessions),
        ])
    }

    private func reasonName(_ reason: PruneReport.Reason) -> String {
        switch reason {
        case .age: "age"
        case .count: "count"
        case .size: "size"
        }
    }

    private func why(_ reason: PruneReport.Reason) -> String {
        switch reason {
        case .age: "ended more than \(olderThan?.description ?? "?") ago"
        case .count: "beyond --keep \(keep ?? 0)"
        case .size: "to fit --max-bytes \(maxBytes?.description ?? "?")"
        }
    }

    private func quoted(_ name: String) -> String {
        JSONValue.string(name).canonicalText
    }
}
