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
            refused with the file, entry and line, and nothing is written.
            """
    )

    @Argument(help: "The session in text form (.jsonl), as `replay-cli export` writes it.")
    var file: String

    @Option(help: "The journal (.actionlog) to insert the session into; created if missing.")
    var into: String

    func run() throws {
        // Read twice, a line at a time: checked whole before the journal is created, then inserted.
        let (session, id) = try reportingErrors { () throws(JournalError) in
            try Journal.importingJSONL(at: URL(fileURLWithPath: file), into: into)
        }
        print("Imported session \"\(session.name)\" as session \(id) of \(into) (\(counted(session.entryCount, "entry", "entries"))).")
    }
}
