import ActionLog
import ArgumentParser
import CommandLineSupport

/// `replay-cli diff FILE --session ID FROM TO [--json]`: what changed in the state between two steps.
struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the fields of the recorded state that differ between two entries.",
        discussion: """
            Exits 0 when the states differ: the differences are the answer, not a finding. On a terminal, \
            the earlier values (−) are red and the later ones (+) green.

            With --json it prints one object: file, session (null for a .jsonl file), sessionName, \
            fromSeq, toSeq, differences, an array of {"path", "from", "to"} with a side left out \
            where the field is absent, and handlers, the service calls and output events of the \
            entries after FROM up to TO (each with its seq), as log --json prints them.

            Examples:
              replay-cli diff app.actionlog --session checkout 4 5
              replay-cli diff checkout.jsonl 0 12 --json | jq '.differences[].path'
            """
    )

    @OptionGroup var source: SessionFileOptions

    @Argument(help: "The earlier entry (sequence number); 0 is the initial state.")
    var from: Int

    @Argument(help: "The later entry.")
    var to: Int

    @Flag(help: "Print JSON for scripts: one object with the entries and their differences.")
    var json = false

    func validate() throws {
        if from < 0 { throw ValidationError("FROM must be 0 or more (got \(from)).") }
        if to < 0 { throw ValidationError("TO must be 0 or more (got \(to)).") }
    }

    func run() throws {
        // From a team store, the rows of the two states only: from the keyframe before the earlier entry.
        let (opened, session) = try source.open(states: min(from, to)...max(from, to))
        let journal = opened.journal
        let (first, second) = try reportingErrors { () throws(ActionLogError) in
            (try journal.state(at: from, in: session.id), try journal.state(at: to, in: session.id))
        }
        let differences = first.differences(to: second)
        let handlers = try handlerRecordsBetween(in: opened, session: session)
        if json {
            let values: [JSONValue] = differences.map { difference in
                var members: [String: JSONValue] = ["path": .string(difference.path.description)]
                members["from"] = difference.recorded
                members["to"] = difference.replayed
                return .object(members)
            }
            try JSONOutput.print(.object([
                "file": .string(source.shownFile),
                "session": opened.shownID(session).map(JSONOutput.number) ?? .null,
                "sessionName": .string(session.name),
                "fromSeq": JSONOutput.number(from),
                "toSeq": JSONOutput.number(to),
                "differences": .array(values),
                "handlers": .array(handlers.map { handler in
                    guard case .object(var members) = handler.jsonValue else { return handler.jsonValue }
                    members["seq"] = JSONOutput.number(handler.seq)
                    return .object(members)
                }),
            ]))
            return
        }
        var output = BufferedOutput()
        try output.write("Entry \(from) → entry \(to) of \(opened.displayName(session).displayEscaped):")
        if differences.isEmpty {
            try output.write("No difference.")
        } else {
            // Paths and values come from the file: each line is escaped for a terminal, then coloured.
            for difference in differences {
                try output.write(Style.apply(.red, "  − \(difference.path): \(difference.recorded?.canonicalText ?? "(absent)")".displayEscaped))
                try output.write(Style.apply(.green, "  + \(difference.path): \(difference.replayed?.canonicalText ?? "(absent)")".displayEscaped))
            }
            try output.write("(entry \(from): −, entry \(to): +)")
        }
        try write(handlers, into: &output)
        try output.flush()
    }

    /// The entries after the earlier one, up to the later one; `nil` when they are the same.
    private var between: ClosedRange<Int>? {
        from == to ? nil : (min(from, to) + 1)...max(from, to)
    }

    /// The handler records with calls or events of the entries ``between`` the two.
    private func handlerRecordsBetween(in opened: OpenedFile, session: JournalSession) throws -> [HandlerRecord] {
        guard let range = between else { return [] }
        return try reportingErrors { () throws(ActionLogError) in
            try opened.journal.handlerRecords(in: session.id, seqs: range).filter { !$0.records.isEmpty }
        }
    }

    /// An asynchronous session's service calls and output events between the two entries: what an
    /// event ViewModel, which has no state, did there.
    private func write(_ handlers: [HandlerRecord], into output: inout BufferedOutput) throws {
        guard let range = between, !handlers.isEmpty else { return }
        try output.write("Service calls and output events of entries \(range.lowerBound)...\(range.upperBound):")
        for handler in handlers {
            for record in handler.records {
                switch record {
                case .call(let call):
                    try output.write("  entry \(handler.seq) call \(call) \(call.answerText)".displayEscaped)
                case .output(let event):
                    try output.write("  entry \(handler.seq) output \(event.event.canonicalText)".displayEscaped)
                }
            }
        }
    }
}
