import ActionLog
import ArgumentParser

/// `replay-cli prune FILE [--keep N] [--max-bytes SIZE] [--older-than DURATION] [--dry-run]`: removes
/// the oldest closed or interrupted sessions beyond the limits, never a live one.
struct Prune: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Remove the oldest sessions of a journal beyond a count, a size or an age; never a live one.",
        discussion: """
            Sessions go oldest first (by start time); a session being recorded is never removed. Sizes count \
            the bytes of the entries' texts (actions, states, effects). The file keeps its size until \
            `replay-cli vacuum`; new entries reuse the space meanwhile.
            """
    )

    @OptionGroup var journal: JournalOptions

    @Option(help: ArgumentHelp("Keep the newest N sessions (live ones count).", valueName: "N"))
    var keep: Int?

    @Option(name: .customLong("max-bytes"), help: ArgumentHelp(
        "Keep the sessions' entries within SIZE bytes: 500000, 800kB, 20MB, 1.5GiB.", valueName: "SIZE"))
    var maxBytes: ByteSize?

    @Option(name: .customLong("older-than"), help: ArgumentHelp(
        "Remove sessions that ended longer ago than DURATION: 90s, 30m, 12h, 7d, 2w.", valueName: "DURATION"))
    var olderThan: AgeLimit?

    @Flag(name: .customLong("dry-run"), help: "Print what would be removed; change nothing.")
    var dryRun = false

    func validate() throws {
        guard keep != nil || maxBytes != nil || olderThan != nil else {
            throw ValidationError("Give at least one limit: --keep, --max-bytes or --older-than.")
        }
        if let keep, keep < 0 { throw ValidationError("--keep must be 0 or more, not \(keep).") }
    }

    func run() throws {
        let opened = dryRun ? try journal.open() : try journal.openForWriting()
        let policy = RetentionPolicy(maximumSessions: keep, maximumBytes: maxBytes?.bytes, maximumAge: olderThan?.duration)
        let report = try reportingErrors { () throws(JournalError) in try opened.prune(policy, dryRun: dryRun) }
        for removal in report.removed {
            print("""
                \(dryRun ? "Would remove" : "Removed") session \(removal.id) \(quoted(removal.name)): \(removal.status.rawValue), \
                \(counted(removal.entryCount, "entry", "entries")), \(ByteSize.format(removal.bytes)) (\(why(removal.reason)))
                """)
        }
        if !report.keptLive.isEmpty {
            let sessions = try reportingErrors { () throws(JournalError) in try opened.sessions() }
            for id in report.keptLive {
                let name = sessions.first { $0.id == id }.map { " " + quoted($0.name) } ?? ""
                print("Kept session \(id)\(name): it is being recorded (a live session is never removed)")
            }
        }
        let left = counted(report.remainingSessions, "session")
        guard !report.removed.isEmpty else {
            print("\(opened.fileName): nothing to remove; \(left) left.")
            return
        }
        let entries = report.removed.reduce(0) { $0 + $1.entryCount }
        let bytes = report.removed.reduce(0) { $0 + $1.bytes }
        let what = "\(counted(report.removed.count, "session")) (\(counted(entries, "entry", "entries")), \(ByteSize.format(bytes)))"
        if dryRun {
            print("\(opened.fileName): would remove \(what); \(left) would be left. Nothing was changed (--dry-run).")
        } else {
            print("\(opened.fileName): removed \(what); \(left) left. The file keeps its size until `replay-cli vacuum \(journal.file)`.")
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
