import ActionLog
import ArgumentParser

/// `replay-cli log FILE --session ID`: the timeline of a session.
struct Log: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print the timeline of a session: one line per entry.")

    @OptionGroup var journal: JournalOptions
    @OptionGroup var session: SessionOptions

    @Flag(help: "Print JSON for scripts.")
    var json = false

    func run() throws {
        let journal = try journal.open()
        let session = try session.resolve(in: journal)
        let entries = try reportingErrors { () throws(JournalError) in try journal.entries(in: session.id) }
        if json {
            let values: [JSONValue] = entries.map { entry in
                .object([
                    "seq": .number(String(entry.seq)),
                    "kind": .string(entry.kind.rawValue),
                    "time": .string(Format.timestamp(entry.time)),
                    "offsetSeconds": .number(String(entry.time.timeIntervalSince(session.startedAt))),
                    "label": entry.label.map(JSONValue.string) ?? .null,
                    "action": entry.action ?? .null,
                    "effect": entry.effect ?? .null,
                    "reducerNanoseconds": entry.reducerDuration.map { .number(String($0.components.seconds * 1_000_000_000 + $0.components.attoseconds / 1_000_000_000)) } ?? .null,
                    "dropped": entry.dropped.map { .number(String($0)) } ?? .null,
                    "note": entry.note.map(JSONValue.string) ?? .null,
                ])
            }
            print(JSONValue.array(values).prettyText)
            return
        }
        let rows = entries.map { entry -> [String] in
            let offset = Format.seconds(entry.time.timeIntervalSince(session.startedAt), sign: true)
            switch entry.kind {
            case .gap:
                return [String(entry.seq), offset, "(gap)", entry.note ?? "\(entry.dropped ?? 0) actions lost"]
            case .keyframe, .delta:
                guard let label = entry.label, let action = entry.action else {
                    return [String(entry.seq), offset, "(initial state)", ""]
                }
                return [String(entry.seq), offset, label, action.canonicalText]
            }
        }
        let width = Terminal.width
        Format.table([["SEQ", "OFFSET", "ACTION", "JSON"]] + rows).forEach { print(Terminal.fit($0, width: width)) }
    }
}
