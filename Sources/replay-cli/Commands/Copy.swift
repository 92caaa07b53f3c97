import ActionLog
import ArgumentParser
import CommandLineSupport

/// `replay-cli copy FILE DEST [--force]`: a self-contained copy of a journal, live or not.
struct Copy: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Copy a journal into one self-contained file, even while an app records into it.",
        discussion: """
            The copy holds what was committed when it began, in one file with no -wal or -shm beside \
            it, readable and writable by its owner only. It is written beside DEST and renamed at the \
            end, so a failed copy leaves no file. DEST is never the journal itself.

            With --json it prints one object: file, destination, sessions, entries.

            Examples:
              replay-cli copy app.actionlog bug-1234.actionlog
              replay-cli copy app.actionlog bug-1234.actionlog --force --json
            """
    )

    @OptionGroup var journal: JournalOptions

    @Argument(help: ArgumentHelp("The new file.", valueName: "dest"), completion: .file(extensions: ["actionlog"]))
    var destination: String

    @Flag(help: "Replace DEST if it exists.")
    var force = false

    @Flag(help: "Print JSON for scripts: what was copied, as one object.")
    var json = false

    func validate() throws {
        try refuseEmptyPath(destination, "<dest>")
    }

    func run() throws {
        try OpenedFile.refuseTextForm(journal.file, "copy makes a self-contained copy of a journal; copy a text form as any file (cp)")
        let journal = try journal.open()
        // The journal itself first: --force never replaces it.
        if !JournalFile.isFile(destination, ofJournal: journal.path) {
            try OutputFile.refuseReplacing(destination, force: force, option: "DEST")
        }
        if let refusal = journal.copyRefusal(to: destination, replacing: force, hint: "pass --force to replace it") {
            Terminal.printError(refusal.description)
            throw ExitCode(64)
        }
        try reportingErrors { () throws(ActionLogError) in try journal.copy(to: destination, replacing: force) }
        let copy = try reportingErrors { () throws(ActionLogError) in try Journal(path: destination) }
        // A damaged session row is copied as it is: the copy is what the journal held. Said, not failed.
        let walk = try walkSessions(in: copy, reportingDamage: { error in
            Terminal.printWarning("\(error.description) (copied as it is; `replay-cli verify` lists what is damaged)")
        }) { _ in }
        let (rows, entries) = (walk.rows, walk.entries)
        if json {
            try JSONOutput.print(.object([
                "file": .string(self.journal.file),
                "destination": .string(destination),
                "sessions": JSONOutput.number(rows),
                "entries": JSONOutput.number(entries),
            ]))
            return
        }
        try BufferedOutput.print(
            "Copied \(journal.fileName.displayEscaped) to \(destination.displayEscaped) (\(counted(rows, "session")), \(counted(entries, "entry", "entries"))).")
    }
}
