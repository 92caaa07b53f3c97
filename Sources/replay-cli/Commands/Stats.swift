import ActionLog
import ActionLogPostgres
import ArgumentParser
import CommandLineSupport
import Foundation

/// `replay-cli stats FILE [--session ID] [--json]`: a summary of a session, or of every session.
struct Stats: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Summarise a session: its entries, stored bytes, labels and reducer durations.",
        discussion: """
            Prints, for the session, or for every session of the file when --session is left out: the \
            entries by kind (keyframes, deltas, gaps, and the actions the gaps lost); the bytes stored \
            (UTF-8 bytes of the states', actions' and effects' texts, and the rest: labels, gap notes, \
            service calls; the total is what `prune` counts) and the bytes per entry; the labels, most \
            frequent first, ties by label (the first 20; --json lists the first 1,000, with the count of \
            distinct labels beside them); and the reducer \
            durations of the entries that recorded one: p50, p99 and max, nearest-rank percentiles \
            (always a recorded duration), with the 5 slowest entries, ties by entry.

            It reads with SQL aggregates, never the entries one by one, and does not parse states: a \
            session of a million entries takes a few passes over its rows. FILE may be a session's text \
            form (.jsonl): it is read into a temporary journal as import stores it, so the figures are \
            those of the journal it came from (its session is named without an id, null in --json). FILE \
            may be a team store's URL (postgres://…): each complete session is read into a temporary \
            journal of its own, one at a time, and named by its uuid (uuid in --json, session null).

            With --json it prints an array with one object per session: session (the id), sessionName, \
            status, the counts, bytes, labels, and reducerNanoseconds (p50, p99, max) with the slowest \
            entries.

            Examples:
              replay-cli stats demo.actionlog --session checkout
              replay-cli stats demo.actionlog --json | jq '.[].reducerNanoseconds'
            """
    )

    @OptionGroup var input: FileOptions

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "The session: its id, its uuid, or its name (the newest session of that name). Default: every session.",
            valueName: "id")
    )
    var session: String?

    @Flag(help: "Print JSON for scripts: an array with one object per session.")
    var json = false

    /// How many labels the text lists before "… N more".
    static let labelsShown = 20
    /// How many labels `--json` lists: enough for any action type, bounded for a session whose
    /// labels are all different (a million of them would take hundreds of MB to list).
    static let labelsInJSON = 1_000
    /// How many of the slowest entries are listed.
    static let slowestShown = 5

    func run() throws {
        var output = BufferedOutput()
        var array = PrettyJSONArray()
        var printed = 0
        // Each session's figures are printed as they come, so that memory stays bounded however many
        // sessions the file holds.
        func report(_ session: JournalSession, in opened: OpenedFile) throws {
            let stats = try reportingErrors { () throws(ActionLogError) in
                try opened.journal.statistics(in: session.id, labels: json ? Self.labelsInJSON : Self.labelsShown, slowest: Self.slowestShown)
            }
            if json {
                try array.append(Self.json(stats, session: session, in: opened), to: &output)
            } else {
                if printed > 0 { try output.write("") }
                for line in Self.lines(stats, session: session, in: opened) { try output.write(line) }
            }
            printed += 1
        }
        let fileName: String
        var damaged = false
        if PostgresLocation.isURL(input.file) {
            // A team store: each session read into a temporary journal of its own, one at a time.
            let store = try StoreSessions(url: input.file)
            defer { store.close() }
            fileName = store.name
            for listed in session != nil ? [try store.resolve(session)] : try store.all().complete {
                let opened = try store.open(listed)
                try report(try opened.resolve(nil), in: opened)
            }
        } else {
            let opened = try input.open()
            fileName = opened.journal.fileName
            if session != nil || opened.isTextForm {
                try report(try opened.resolve(session), in: opened)
            } else {
                damaged = try walkSessions(in: opened.journal) { session in
                    try report(session, in: opened)
                }.damaged
            }
        }
        if json {
            try array.finish(to: &output)
        } else if printed == 0 {
            try output.write("\(fileName.displayEscaped): no sessions")
        }
        try output.flush()
        if damaged { throw ExitCode.failure }
    }

    // MARK: - Text

    /// The block of one session; text from the file is escaped for a terminal.
    static func lines(_ stats: SessionStatistics, session: JournalSession, in file: OpenedFile) -> [String] {
        // A store's sessions have no ids, and often the same name (a CI job's): their uuids tell them apart.
        let id = file.shownID(session).map { "\($0) " } ?? (file.store != nil ? "\(session.uuid.uuidString.lowercased()) " : "")
        var lines = ["session \(id)\(JSONValue.string(session.name).canonicalText) (\(session.status.rawValue))".displayEscaped]
        var entries = "  entries   \(stats.entries)"
        if stats.entries > 0 {
            entries += ": \(counted(stats.keyframes, "keyframe")), \(counted(stats.deltas, "delta")), \(counted(stats.gaps, "gap"))"
            if stats.gaps > 0 { entries += " (\(counted(stats.droppedActions, "action")) lost)" }
        }
        lines.append(entries)
        let bytes = stats.bytes
        lines.append("""
              stored    \(ByteSize.format(bytes.total)): states \(ByteSize.format(bytes.states)), \
            actions \(ByteSize.format(bytes.actions)), effects \(ByteSize.format(bytes.effects)), \
            other \(ByteSize.format(bytes.other)); \(ByteSize.format(stats.bytesPerEntry)) per entry
            """)
        if stats.distinctLabels == 0 {
            lines.append("  labels    none")
        } else {
            lines.append("  labels    \(stats.distinctLabels) distinct")
            let width = stats.labels.map { String($0.entries).count }.max() ?? 0
            for label in stats.labels {
                lines.append("    \(padded(String(label.entries), to: width))  \(label.label.displayEscaped)")
            }
            let more = stats.distinctLabels - stats.labels.count
            if more > 0 { lines.append("    … \(more) more") }
        }
        guard let reducer = stats.reducer else {
            lines.append("  reducer   no durations recorded")
            return lines
        }
        lines.append("""
              reducer   p50 \(duration(reducer.p50)), p99 \(duration(reducer.p99)), max \(duration(reducer.max)) \
            over \(counted(reducer.entries, "entry", "entries"))
            """)
        lines.append("  slowest")
        let durations = reducer.slowest.map { duration($0.duration) }
        let durationWidth = durations.map(\.count).max() ?? 0
        let seqWidth = reducer.slowest.map { String($0.seq).count }.max() ?? 0
        for (entry, text) in zip(reducer.slowest, durations) {
            let line = "    \(padded(text, to: durationWidth))  entry \(padded(String(entry.seq), to: seqWidth))  \((entry.label ?? "-").displayEscaped)"
            lines.append(line.trimmingTrailingSpaces())
        }
        return lines
    }

    /// `text` with spaces before it, to `width` characters.
    private static func padded(_ text: String, to width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }

    /// `610ns`, `32.5µs`, `1.25ms`, `2.500s`.
    static func duration(_ duration: Duration) -> String {
        let nanoseconds = duration.saturatingNanoseconds
        let value = Double(nanoseconds)
        switch abs(value) {
        case ..<1e3: return "\(nanoseconds)ns"
        case ..<1e6: return String(format: "%.1fµs", value / 1e3)
        case ..<1e9: return String(format: "%.2fms", value / 1e6)
        default: return String(format: "%.3fs", value / 1e9)
        }
    }

    // MARK: - JSON

    /// The object of one session, in the naming of ``JSONOutput``.
    static func json(_ stats: SessionStatistics, session: JournalSession, in file: OpenedFile) -> JSONValue {
        func number(_ value: some BinaryInteger) -> JSONValue { .number(String(value)) }
        let reducer: JSONValue = stats.reducer.map { reducer in
            .object([
                "entries": number(reducer.entries),
                "p50": number(reducer.p50.saturatingNanoseconds),
                "p99": number(reducer.p99.saturatingNanoseconds),
                "max": number(reducer.max.saturatingNanoseconds),
            ])
        } ?? .null
        var members = JSONOutput.sessionMembers(session, in: file)
        if file.store != nil { members["uuid"] = .string(session.uuid.uuidString.lowercased()) }
        return .object(members.merging([
            "status": .string(session.status.rawValue),
            "entries": number(stats.entries),
            "keyframes": number(stats.keyframes),
            "deltas": number(stats.deltas),
            "gaps": number(stats.gaps),
            "dropped": number(stats.droppedActions),
            "bytes": .object([
                "states": number(stats.bytes.states),
                "actions": number(stats.bytes.actions),
                "effects": number(stats.bytes.effects),
                "other": number(stats.bytes.other),
                "total": number(stats.bytes.total),
                "perEntry": number(stats.bytesPerEntry),
            ]),
            "distinctLabels": number(stats.distinctLabels),
            "labels": .array(stats.labels.map { .object(["label": .string($0.label), "entries": number($0.entries)]) }),
            "reducerNanoseconds": reducer,
            "slowest": .array((stats.reducer?.slowest ?? []).map { entry in
                .object([
                    "seq": number(entry.seq),
                    "label": entry.label.map(JSONValue.string) ?? .null,
                    "reducerNanoseconds": number(entry.duration.saturatingNanoseconds),
                ])
            }),
        ]) { $1 })
    }
}
