import ActionLog
import ArgumentParser
import CommandLineSupport

/// `replay-cli sessions FILE`: the sessions of a journal.
struct Sessions: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the sessions of a journal.",
        discussion: """
            With --json it prints an array with one object per session: session (the id), sessionName, \
            status, entries, dropped, startedAt, endedAt, durationNanoseconds, stateType, actionType, \
            appVersion, libraryVersion. FILE may be a session's text form (.jsonl): its one session is \
            listed without an id (ID -, session null), as import would store it.

            Examples:
              replay-cli sessions app.actionlog
              replay-cli sessions app.actionlog --json | jq '.[].sessionName'
            """
    )

    @OptionGroup var input: FileOptions

    @Flag(help: "Print JSON for scripts.")
    var json = false

    /// One session of `sessions --json`, in the naming of ``JSONOutput``. Typed member by member:
    /// as one literal with optional chains, the type checker took 16 s over it.
    private static func json(_ session: JournalSession, in file: OpenedFile) -> JSONValue {
        var members = JSONOutput.sessionMembers(session, in: file)
        let endedAt: JSONValue = session.endedAt.map(JSONOutput.time) ?? .null
        let duration: JSONValue = session.duration.map(JSONOutput.nanoseconds) ?? .null
        let appVersion: JSONValue = session.appVersion.map(JSONValue.string) ?? .null
        let more: [String: JSONValue] = [
            "uuid": .string(session.uuid.uuidString.lowercased()),
            "status": .string(session.status.rawValue),
            "entries": JSONOutput.number(session.entryCount),
            "dropped": JSONOutput.number(session.droppedCount),
            "startedAt": JSONOutput.time(session.startedAt),
            "endedAt": endedAt,
            "durationNanoseconds": duration,
            "stateType": .string(session.stateType),
            "actionType": .string(session.actionType),
            "appVersion": appVersion,
            "libraryVersion": .string(session.libraryVersion),
        ]
        members.merge(more) { $1 }
        return .object(members)
    }

    func run() throws {
        let opened = try input.open()
        let journal = opened.journal
        var output = BufferedOutput()
        let walk: SessionWalk
        if json {
            // Streamed, an element at a time: memory stays bounded however many sessions there are.
            var array = PrettyJSONArray()
            walk = try walkSessions(in: journal) { session in
                try array.append(Self.json(session, in: opened), to: &output)
            }
            try array.finish(to: &output)
        } else {
            var table = StreamingTable(header: ["ID", "NAME", "STATUS", "ENTRIES", "STARTED", "DURATION"], width: nil)
            walk = try walkSessions(in: journal) { session in
                table.add([
                    opened.shownID(session).map(String.init) ?? "-", session.name, session.status.rawValue,
                    String(session.entryCount) + (session.droppedCount > 0 ? " (\(session.droppedCount) dropped)" : ""),
                    Format.timestamp(session.startedAt),
                    session.duration.map { Format.seconds($0) } ?? "-",
                ])
                if table.pending >= EntryPageSize.rows { try table.flush(into: &output) }
            }
            if walk.sessions == 0 {
                try output.write("\(journal.fileName.displayEscaped): no sessions")
            } else {
                try table.flush(into: &output)
            }
        }
        try output.flush()
        if walk.damaged { throw ExitCode.failure }
    }
}
