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
        let summary = "\(journal.fileName): \(counted(result.sessions, "session")), \(counted(result.entries, "entry", "entries"))"
        guard result.isValid else {
            print("\(summary): \(counted(result.findings.count, "problem"))")
            for finding in result.findings { print("  \(finding)") }
            throw ExitCode.failure
        }
        print("\(summary): OK")
    }
}
