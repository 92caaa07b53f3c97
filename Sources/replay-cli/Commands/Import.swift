import ActionLog
import ArgumentParser
import Foundation

/// `replay-cli import FILE.jsonl --into JOURNAL`: a session's text form back into a journal.
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Insert a session in text form (JSONL) into a journal, creating the journal if needed.",
        discussion: """
            A damaged file (an entry that is not JSON, a missing field, a delta that does not apply) is \
            refused with the file, entry and line, and nothing is written. A journal the import created \
            is removed when the import fails (a full disk).
            """
    )

    @Argument(help: "The session in text form (.jsonl), as `replay-cli export` writes it.")
    var file: String

    @Option(help: "The journal (.actionlog) to insert the session into; created if missing.")
    var into: String

    func run() throws {
        // A journal this import creates and then fails to fill (a full disk) is removed, with its
        // companions; a journal that was there stays, and a failed import leaves it as it was.
        let created = ["", "-wal", "-shm", "-journal"].map { into + $0 }.filter { path in
            var info = stat()
            return lstat(path, &info) != 0 && errno == ENOENT
        }
        // Read twice, a line at a time: checked whole before the journal is created, then inserted.
        let (session, id): (Session, Session.ID)
        do {
            (session, id) = try reportingErrors { () throws(JournalError) in
                try Journal.importingJSONL(at: URL(fileURLWithPath: file), into: into)
            }
        } catch {
            for path in created { unlink(path) }
            throw error
        }
        try BufferedOutput.print(
            "Imported session \"\(session.name.displayEscaped)\" as session \(id) of \(into.displayEscaped) (\(counted(session.entryCount, "entry", "entries")))."
        )
    }
}
