import ActionLog
import ArgumentParser
import CommandLineSupport

/// `replay-cli state FILE --session ID [--at SEQ] [--json]`: the recorded state at one step.
struct StateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "state",
        abstract: "Print the recorded state after an entry, as pretty JSON.",
        discussion: """
            Without --at, the state after the session's last entry. With --json, one object: session, \
            sessionName, seq and state, so a script learns which entry it got. FILE may be a session's \
            text form (.jsonl), which prints what its journal prints (session is null: a text form has no id).

            Examples:
              replay-cli state app.actionlog --session checkout --at 5
              replay-cli state app.actionlog --session 3 | jq '.cart.items'
              replay-cli state app.actionlog --session 3 --json | jq '.seq'
            """
    )

    @OptionGroup var source: SessionFileOptions

    // Unconditional, so that `--at -1` reaches validate() rather than reading as an unknown option.
    @Option(parsing: .unconditional, help: ArgumentHelp("The entry (sequence number); 0 is the initial state. Default: the last entry.", valueName: "seq"))
    var at: Int?

    @Flag(help: "Print JSON for scripts: the session, the entry and the state in one object.")
    var json = false

    func validate() throws {
        if let at, at < 0 { throw ValidationError("--at must be 0 or more, not \(at)") }
    }

    func run() throws {
        let (opened, session) = try source.open()
        let seq = at ?? max(0, session.entryCount - 1)
        let state = try reportingErrors { () throws(ActionLogError) in try opened.journal.state(at: seq, in: session.id) }
        guard json else {
            try BufferedOutput.print(state.prettyText.jsonDisplayEscaped)
            return
        }
        var members = JSONOutput.sessionMembers(session, in: opened)
        members["seq"] = JSONOutput.number(seq)
        members["state"] = state
        try JSONOutput.print(.object(members))
    }
}
