import ActionLog
import ArgumentParser

/// `replay-cli copy FILE DEST [--force]`: a self-contained copy of a journal, live or not.
struct Copy: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Copy a journal into one self-contained file, even while an app records into it.",
        discussion: """
            The copy holds what was committed when it began, in one file with no -wal or -shm beside \
            it, readable and writable by its owner only. It is written beside DEST and renamed at the \
            end, so a failed copy leaves no file. DEST is never the journal itself.
            """
    )

    @OptionGroup var journal: JournalOptions

    @Argument(help: "The new file.")
    var destination: String

    @Flag(help: "Replace DEST if it exists.")
    var force = false

    func run() throws {
        let journal = try journal.open()
        if let refusal = journal.copyRefusal(to: destination, replacing: force, hint: "pass --force to replace it") {
            Terminal.printError(refusal.description)
            throw ExitCode(64)
        }
        try reportingErrors { () throws(JournalError) in try journal.copy(to: destination, replacing: force) }
        let copy = try reportingErrors { () throws(JournalError) in try Journal(path: destination).sessions() }
        let entries = copy.reduce(0) { total, session in
            let (sum, overflow) = total.addingReportingOverflow(session.entryCount)
            return overflow ? Int.max : sum
        }
        print("Copied \(journal.fileName) to \(destination) (\(counted(copy.count, "session")), \(counted(entries, "entry", "entries"))).")
    }
}
