import ActionLog
import ArgumentParser
import CommandLineSupport
import Replayer

/// `replay-cli why FILE [--session S] PATH [--at N] [--value V] [--limit N] [--json]`: which entries
/// changed the value at a path of the state.
struct Why: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the entries that changed a field of the state, newest first, with old and new values.",
        discussion: """
            PATH is a JSON Pointer (/cart/total) or the dotted form the other commands print \
            (cart.items[3].quantity). An entry is listed when its change touched the path, a parent \
            of it or a child of it, and the value there differs before and after it; the last column \
            says which when it was not the path itself. With --value, only the entries after which \
            the value is that one: when the field became it.

            Examples:
              replay-cli why app.actionlog --session checkout /cart/total
              replay-cli why app.actionlog /status --value '"paid"'
              replay-cli why app.actionlog /cart/total --json | jq '.changes[0].seq'
            """
    )

    @OptionGroup var source: SessionFileOptions

    @Argument(help: ArgumentHelp("Where in the state: a JSON Pointer (/cart/total) or a dotted path (cart.total).", valueName: "path"))
    var path: String

    @Option(parsing: .unconditional, help: ArgumentHelp("The newest entry to consider (sequence number). Default: the last.", valueName: "seq"))
    var at: Int?

    @Option(help: ArgumentHelp("Only the entries after which the value is this JSON (a text that is not JSON is a string).", valueName: "json"))
    var value: String?

    @Option(help: ArgumentHelp("The most entries listed.", valueName: "n"))
    var limit = 20

    @Flag(help: "Print JSON for scripts: the session, the path and the changes in one object.")
    var json = false

    func validate() throws {
        if let at, at < 0 { throw ValidationError("--at must be 0 or more, not \(at)") }
        if limit < 1 { throw ValidationError("--limit must be 1 or more, not \(limit)") }
        if Self.pointer(path) == nil {
            throw ValidationError("\(path.displayEscaped) is not a path: write a JSON Pointer (/cart/items/0) or a dotted path (cart.items[0])")
        }
    }

    func run() throws {
        let (opened, session) = try source.open()
        let journal = opened.journal
        guard let pointer = Self.pointer(path) else { return }
        let wanted = value.map { text in (try? JSONValue(parsing: text)) ?? .string(text) }
        let changes = try reportingErrors { () throws(ActionLogError) in
            try journal.changes(to: pointer, in: session.id, through: at, becoming: wanted, limit: limit)
        }
        if json {
            var members = JSONOutput.sessionMembers(session, in: opened)
            members["path"] = .string(pointer.description)
            // A value of more than a mebibyte of JSON (a whole history) is left out, and said.
            members["changes"] = .array(changes.map { $0.jsonValue(largestValue: Self.largestJSONValue) })
            try JSONOutput.print(.object(members))
            return
        }
        var lines: [String] = []
        let condition = wanted.map { " becoming \($0.canonicalText)" } ?? ""
        guard !changes.isEmpty else {
            try BufferedOutput.print("no entry\(at.map { " up to entry \($0)" } ?? "") changed \(pointer.description)\(condition) in \(opened.displayName(session))".displayEscaped)
            return
        }
        lines.append("\(pointer.description)\(condition) in \(opened.displayName(session)), newest first:".displayEscaped)
        var rows = [["entry", "action", "label", "old → new", "through"]]
        for change in changes {
            rows.append([
                String(change.seq), String(change.action), change.label ?? "",
                "\(Self.shown(change.oldValue)) → \(Self.shown(change.newValue))",
                Self.through(change, asked: pointer),
            ])
        }
        lines += Format.table(rows)
        if changes.count == limit {
            lines.append("(the newest \(counted(limit, "change")); --limit for more, --at for older ones)")
        }
        try BufferedOutput.print(lines.joined(separator: "\n"))
    }

    /// The largest value `--json` prints whole: about 1 MiB of JSON text.
    static let largestJSONValue = 1 << 20

    /// A value in a row: canonical JSON, cut at 60 characters; a container of more than a few
    /// kilobytes by its size (`[100000 elements]`), which costs nothing to tell; `(absent)` where
    /// the path did not exist.
    static func shown(_ value: JSONValue?) -> String {
        guard let value else { return "(absent)" }
        if !value.measure(weightLimit: 4096).isComplete {
            switch value {
            case .array(let elements): return "[\(counted(elements.count, "element"))]"
            case .object(let members): return "{\(counted(members.count, "member"))}"
            default: break
            }
        }
        let text = value.canonicalText
        guard text.count > 60 else { return text }
        return String(text.prefix(59)) + "…"
    }

    /// How the entry reached the path, when not by the path itself, and what a gap before it lost.
    static func through(_ change: FieldChange, asked: JSONPointer) -> String {
        var notes = change.touchedPaths.compactMap { touched -> String? in
            if touched == asked { return nil }
            if touched.isRoot { return "the whole state" }
            return (touched.tokens.count < asked.tokens.count ? "parent " : "child ") + touched.description
        }
        if notes.count > 3 { notes = Array(notes.prefix(3)) + ["…"] }
        if change.droppedBefore > 0 { notes.append("after \(counted(change.droppedBefore, "dropped action"))") }
        return notes.joined(separator: ", ")
    }

    /// `path` as a JSON Pointer: one already (`/a/0`, or empty for the root), or the dotted form
    /// the other commands print (`a.b[0]["a key"]`), read as the Replayer reads a ``FieldPattern``, without wildcards.
    static func pointer(_ path: String) -> JSONPointer? {
        if path.isEmpty || path.hasPrefix("/") { return JSONPointer(path) }
        return FieldPattern.path(path).map(JSONPointer.init)
    }
}
