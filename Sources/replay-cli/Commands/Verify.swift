import ActionLog
import ArgumentParser

/// `replay-cli verify FILE`: the journal's integrity.
struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a journal's integrity; exit 1 with the findings when it is damaged.",
        discussion: "Checks gapless sequence numbers, that every action, state and effect parses, and that session statuses are sane."
    )

    @OptionGroup var journal: JournalOptions

    func run() throws {
        let journal = try journal.open()
        let result = try reportingErrors { () throws(JournalError) in try journal.verify() }
        let summary = "\(journal.fileName.displayEscaped): \(counted(result.sessions, "session")), \(counted(result.entries, "entry", "entries"))"
        var output = BufferedOutput()
        guard result.isValid else {
            try output.write("\(summary): \(counted(result.findings.count, "problem"))")
            // A finding's description is escaped for a terminal already.
            for finding in result.findings { try output.write("  \(finding)") }
            try output.flush()
            throw ExitCode.failure
        }
        try output.write("\(summary): OK")
        try output.flush()
    }
}
