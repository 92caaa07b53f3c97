import ActionLog
import ActionLogViewer
import ArgumentParser
import Foundation

/// `replay-cli log FILE --session ID [--from SEQ] [--limit N] [--label PATTERN] [--kind KIND] [--json]`:
/// the timeline of a session.
struct Log: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the timeline of a session: one line per entry.",
        discussion: """
            Lines are printed as the entries are read, a page at a time, so the first ones come at once \
            however long the session. With --json, each entry is one JSON object on its own line (JSON \
            Lines), ready for `jq -c`. States are not read: a damaged state does not stop the timeline. \
            Control characters in labels and actions are printed escaped (\\u{1B}), so each entry is one line. \
            --label and --kind keep the entries that match (both, when both are given), and --limit counts \
            the entries printed; an entry's service calls and output events go with it.

            Examples:
              replay-cli log app.actionlog --session checkout --label 'add*'
              replay-cli log app.actionlog --session 3 --kind gap --json
            """
    )

    @OptionGroup var journal: JournalOptions
    @OptionGroup var session: SessionOptions

    @Option(help: ArgumentHelp("The first entry to print.", valueName: "seq"))
    var from = 0

    @Option(help: ArgumentHelp("The most entries to print.", valueName: "n"))
    var limit: Int?

    @Option(help: ArgumentHelp(
        "Only entries whose label matches: * stands for any characters, ? for one; the rest matches itself.",
        valueName: "pattern"))
    var label: String?

    @Option(help: ArgumentHelp("Only entries of this kind: keyframe, delta or gap.", valueName: "kind"))
    var kind: String?

    @Flag(help: "Print JSON Lines for scripts: one object per entry.")
    var json = false

    func validate() throws {
        guard from >= 0 else { throw ValidationError("--from must be 0 or more, not \(from)") }
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more, not \(limit)") }
        if let kind, Entry.Kind(rawValue: kind) == nil {
            throw ValidationError("--kind must be keyframe, delta or gap, not \(kind.displayEscaped)")
        }
    }

    /// Whether `entry` is one the filters keep.
    private func keeps(_ entry: Entry, pattern: LabelPattern?) -> Bool {
        if let kind, entry.kind.rawValue != kind { return false }
        if let pattern { return entry.label.map(pattern.matches) ?? false }
        return true
    }

    func run() throws {
        let journal = try journal.open()
        let session = try session.resolve(in: journal)
        try requireEntries(session, in: journal)
        let pattern = label.map { LabelPattern($0) }
        let filtering = pattern != nil || kind != nil
        // With a filter, --limit counts the entries printed, not the entries read.
        let readLimit = filtering ? nil : limit
        var cursor = try reportingErrors { () throws(JournalError) in try journal.timelineCursor(in: session.id, from: from, limit: readLimit) }
        var printed = 0
        // An asynchronous session's service calls and output events, printed under their entry.
        let records = try reportingErrors { () throws(JournalError) in try journal.handlerRecords(in: session.id) }
        let handlers = Dictionary(records.map { ($0.seq, $0) }, uniquingKeysWith: { first, _ in first })
        var output = BufferedOutput()
        var table = StreamingTable(header: ["SEQ", "OFFSET", "ACTION", "JSON"], width: Terminal.width)
        while filtering ? printed < (limit ?? .max) : true,
            let entry = try reportingErrors({ () throws(JournalError) in try cursor.next() })
        {
            guard keeps(entry, pattern: pattern) else { continue }
            printed += 1
            if json {
                var line = Self.json(entry, session: session)
                if let handler = handlers[entry.seq], case .object(var members) = line {
                    members["handler"] = handler.jsonValue
                    line = .object(members)
                }
                try output.write(line.canonicalText.jsonDisplayEscaped)
                continue
            }
            table.add(Self.row(entry, session: session))
            for record in handlers[entry.seq]?.records ?? [] { table.add(Self.row(record)) }
            if table.pending >= EntryPageSize.rows { try table.flush(into: &output) }
        }
        if !json { try table.flush(into: &output) }
        try output.flush()
    }

    private static func row(_ entry: Entry, session: Session) -> [String] {
        let offset = Format.seconds(entry.time.timeIntervalSince(session.startedAt), sign: true)
        if case .gap(let dropped, let note) = entry.content {
            return [String(entry.seq), offset, "(gap)", note ?? "\(dropped) actions lost"]
        }
        guard let label = entry.label, let action = entry.action else {
            return [String(entry.seq), offset, "(initial state)", ""]
        }
        return [String(entry.seq), offset, label, action.canonicalText]
    }

    /// A service call or an output event, under its entry: `call ProductService.fetchProduct("p-7") → {…}`.
    private static func row(_ record: HandlerRecord.Record) -> [String] {
        switch record {
        case .call(let call):
            return ["", "", "  call", "\(call) \(call.answerText)"]
        case .output(let event):
            return ["", "", "  output", event.event.canonicalText]
        }
    }

    private static func json(_ entry: Entry, session: Session) -> JSONValue {
        let gap = entry.content.gap
        return .object([
            "seq": .number(String(entry.seq)),
            "kind": .string(entry.kind.rawValue),
            "time": .string(Format.timestamp(entry.time)),
            "offsetSeconds": .number(String(entry.time.timeIntervalSince(session.startedAt))),
            "label": entry.label.map(JSONValue.string) ?? .null,
            "action": entry.action ?? .null,
            "effect": entry.effect ?? .null,
            "reducerNanoseconds": entry.reducerDuration.map { .number(String($0.components.seconds * 1_000_000_000 + $0.components.attoseconds / 1_000_000_000)) } ?? .null,
            "dropped": gap.map { .number(String($0.dropped)) } ?? .null,
            "note": gap?.note.map(JSONValue.string) ?? .null,
        ])
    }
}

/// How many rows the CLI reads and prints at a time.
enum EntryPageSize {
    static let rows = 512
}

extension ServiceCall {
    /// How the call was answered, as `log` and `diff` print it: `→ {…}` or `threw {…}`.
    var answerText: String {
        switch outcome {
        case .returned(let value): "→ \(value.canonicalText)"
        case .threw(let error): "threw \(error.canonicalText)"
        }
    }
}
