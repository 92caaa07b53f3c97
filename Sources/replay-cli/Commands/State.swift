import ActionLog
import ArgumentParser

/// `replay-cli state FILE --session ID --at SEQ`: the recorded state at one step.
struct StateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "state",
        abstract: "Print the recorded state after an entry, as pretty JSON."
    )

    @OptionGroup var journal: JournalOptions
    @OptionGroup var session: SessionOptions

    @Option(help: "The entry (sequence number); 0 is the initial state. Default: the last entry.")
    var at: Int?

    func validate() throws {
        if let at, at < 0 { throw ValidationError("--at must be 0 or more (got \(at)).") }
    }

    func run() throws {
        let journal = try journal.open()
        let session = try session.resolve(in: journal)
        try requireEntries(session, in: journal)
        let seq = at ?? max(0, session.entryCount - 1)
        let state = try reportingErrors { () throws(JournalError) in try journal.state(at: seq, in: session.id) }
        try BufferedOutput.print(state.prettyText.jsonDisplayEscaped)
    }
}
