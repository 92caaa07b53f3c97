import ActionLog
import ArgumentParser
import CommandLineSupport
import Foundation

/// `replay-cli import FILE.jsonl --into JOURNAL`: a session's text form back into a journal.
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Insert a session in text form (JSONL) into a journal, creating the journal if needed.",
        discussion: """
            A damaged file (an entry that is not JSON, a missing field, a delta that does not apply) is \
            refused with the file, entry and line, and nothing is written. A journal the import created \
            is removed when the import fails (a full disk). On a terminal, a long import shows how many \
            entries it has checked, then inserted, on standard error.

            The file is read twice (checked whole, then inserted), so it must be a regular file: \
            a pipe or FIFO (cat x.jsonl | replay-cli import /dev/stdin) is refused; save it to a file \
            first. A line may hold at most 256 MiB.

            A session the journal holds already is not stored twice: the import is skipped, saying \
            so, with exit status 0. There is no global session id yet, so the same session means the \
            same recording: the same name and start time, the same number of entries, every entry \
            stored identically, and the same service calls and output events.

            With --json it prints one object: file, journal, session (the new id, or the id of the \
            session that was there), sessionName, entries, skipped (true when it was there already).

            Examples:
              replay-cli import checkout.jsonl --into goldens.actionlog
              replay-cli import checkout.jsonl --into goldens.actionlog --json
            """
    )

    @Argument(
        help: ArgumentHelp("The session in text form (.jsonl), as `replay-cli export` writes it.", valueName: "file"),
        completion: .file(extensions: ["jsonl"]))
    var file: String

    @Option(
        help: ArgumentHelp("The journal (.actionlog) to insert the session into; created if missing.", valueName: "journal"),
        completion: .file(extensions: ["actionlog"]))
    var into: String

    @Flag(help: "Print JSON for scripts: what was imported, as one object.")
    var json = false

    func validate() throws {
        try refuseEmptyPath(file)
        try refuseEmptyPath(into, "--into")
    }

    func run() throws {
        try OpenedFile.refuseTextForm(into, "--into takes the journal (.actionlog) to insert the session into")
        // A journal this import creates and then fails to fill (a full disk) is removed, with its
        // companions; a journal that was there stays, and a failed import leaves it as it was.
        let created = ["", "-wal", "-shm", "-journal"].map { into + $0 }.filter { path in
            var info = stat()
            return lstat(path, &info) != 0 && errno == ENOENT
        }
        // Read twice, a line at a time: checked whole before the journal is created, then inserted.
        let imported: Journal.Imported
        let checking = ProgressLine("import", total: nil, unit: "entries checked")
        var inserting: ProgressLine?
        do {
            defer {
                checking.finish()
                inserting?.finish()
            }
            imported = try reportingErrors { () throws(ActionLogError) in
                try Journal.importingJSONL(
                    at: URL(fileURLWithPath: file), into: into, checked: checking.update,
                    inserted: { done, total in
                        if inserting == nil {
                            checking.finish()
                            inserting = ProgressLine("import", total: total, unit: "entries inserted", since: checking.start)
                        }
                        inserting?.update(done)
                    })
            }
        } catch {
            for path in created { unlink(path) }
            throw error
        }
        let (session, id) = (imported.session, imported.id)
        if json {
            try JSONOutput.print(.object([
                "file": .string(file),
                "journal": .string(into),
                "session": JSONOutput.number(id),
                "sessionName": .string(session.name),
                "entries": JSONOutput.number(session.entryCount),
                "skipped": .bool(imported.isAlreadyThere),
            ]))
            return
        }
        let entries = counted(session.entryCount, "entry", "entries")
        if imported.isAlreadyThere {
            try BufferedOutput.print("""
                skipped: session "\(session.name.displayEscaped)" (started \(Format.timestamp(session.startedAt)), \(entries)) \
                is already in \(into.displayEscaped) as session \(id)
                """)
            return
        }
        try BufferedOutput.print("Imported session \"\(session.name.displayEscaped)\" as session \(id) of \(into.displayEscaped) (\(entries)).")
    }
}
