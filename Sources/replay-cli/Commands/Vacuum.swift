import ActionLog
import ArgumentParser
import CommandLineSupport

/// `replay-cli vacuum FILE`: gives the space of removed sessions back to the file system.
struct Vacuum: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Rewrite a journal without its free space (SQLite VACUUM), after prune removed sessions.",
        discussion: """
            Vacuum rewrites the whole file and holds the write lock meanwhile, so it refuses (exit 1) a journal \
            that an app is recording into. A recorder that starts during a vacuum waits for it up to five \
            seconds, then fails to open the journal.

            With --json it prints one object: file, bytesBefore, bytesAfter (the file and its -wal).

            Examples:
              replay-cli prune app.actionlog --keep 20 && replay-cli vacuum app.actionlog
              replay-cli vacuum app.actionlog --json | jq '.bytesBefore - .bytesAfter'
            """
    )

    @OptionGroup var journal: JournalOptions

    @Flag(help: "Print JSON for scripts: the sizes before and after, as one object.")
    var json = false

    func run() throws {
        try OpenedFile.refuseTextForm(journal.file, "vacuum gives back the free space of a journal, and a text form has none")
        let opened = try journal.openForWriting()
        let sizes = try reportingErrors { () throws(ActionLogError) in try opened.vacuum() }
        if json {
            try JSONOutput.print(.object([
                "file": .string(journal.file),
                "bytesBefore": JSONOutput.number(sizes.bytesBefore),
                "bytesAfter": JSONOutput.number(sizes.bytesAfter),
            ]))
            return
        }
        let saved = sizes.bytesBefore - sizes.bytesAfter
        try BufferedOutput.print("""
            \(opened.fileName): \(ByteSize.format(sizes.bytesBefore)) before, \(ByteSize.format(sizes.bytesAfter)) after \
            (\(saved >= 0 ? ByteSize.format(saved) + " given back" : ByteSize.format(-saved) + " more")).
            """)
    }
}
