import ActionLog
import ArgumentParser
import CommandLineSupport

/// `replay-cli state FILE --session ID [--at SEQ] [--json]`: the recorded state at one step.
struct StateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "state",
        abstract: "Print the recorded state after an entry, as pretty JSON.",
        discussion: """
            Without --at, the state after the session's last entry. --action K names the step by its \
            action instead: the state after the K-th action dispatched, counting the actions the writer \
            dropped, whose entry numbers fall behind at every gap. With --json, one object: session, \
            sessionName, seq and state, so a script learns which entry it got. FILE may be a session's \
            text form (.jsonl), which prints what its journal prints (session is null: a text form has no id).

            Examples:
              replay-cli state app.actionlog --session checkout --at 5
              replay-cli state app.actionlog --session 3 --action 20000
              replay-cli state app.actionlog --session 3 --json | jq '.seq'
            """
    )

    @OptionGroup var source: SessionFileOptions

    // Unconditional, so that `--at -1` reaches validate() rather than reading as an unknown option.
    @Option(parsing: .unconditional, help: ArgumentHelp("The entry (sequence number); 0 is the initial state. Default: the last entry.", valueName: "seq"))
    var at: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("The action (its number, counting dropped actions; 0 is the initial state), instead of --at.", valueName: "k"))
    var action: Int?

    @Flag(help: "Print JSON for scripts: the session, the entry and the state in one object.")
    var json = false

    func validate() throws {
        if let at, at < 0 { throw ValidationError("--at must be 0 or more, not \(at)") }
        if let action, action < 0 { throw ValidationError("--action must be 0 or more, not \(action)") }
        if at != nil, action != nil { throw ValidationError("--at and --action both name the entry: give one") }
    }

    func run() throws {
        // From a team store, `--at N` reads the rows of entry N's state only: from the keyframe before it.
        let (opened, session) = try source.open(states: action == nil ? at.map { $0...$0 } : nil)
        let journal = opened.journal
        let (seq, state) = try reportingErrors { () throws(ActionLogError) in
            let seq = try action.map { number throws(ActionLogError) in try journal.seq(ofAction: number, in: session.id) } ?? at ?? max(0, session.entryCount - 1)
            return (seq, try journal.state(at: seq, in: session.id))
        }
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
