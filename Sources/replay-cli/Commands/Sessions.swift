import ActionLog
import ActionLogPostgres
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
            listed without an id (ID -, session null), as import would store it. FILE may be a team \
            store's URL (postgres://USER@HOST:PORT/DATABASE, see push): its complete sessions are listed \
            oldest first, without ids (pass a session's uuid or name to --session of the other readers).

            The filters keep the sessions that pass them all: --app-version, --since and --until (the \
            start time), --name and --label (patterns: * any run of characters, ? one), --has-gaps.

            Examples:
              replay-cli sessions app.actionlog
              replay-cli sessions app.actionlog --json | jq '.[].sessionName'
              replay-cli sessions app.actionlog --app-version 2.3 --has-gaps
            """
    )

    @OptionGroup var input: FileOptions

    @OptionGroup var filters: SessionFilterOptions

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
        let opened = try PostgresLocation.isURL(input.file)
            ? OpenedFile(input.file, listing: try filters.filter()) : input.open()
        let journal = opened.journal
        // A store's list was filtered by its query; a file's is filtered here, session by session.
        let filter = try filters.filter()
        let filtering = opened.store == nil && !filter.isEmpty
        func walkSessions(in journal: Journal, _ body: (JournalSession) throws -> Void) throws -> SessionWalk {
            try replay_cli.walkSessions(in: journal) { session in
                if filtering, !(try filters.keeps(session, in: journal)) { return }
                try body(session)
            }
        }
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
