import ActionLog
import ArgumentParser

/// `replay-cli sessions FILE`: the sessions of a journal.
struct Sessions: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the sessions of a journal.",
        discussion: """
            With --json it prints an array with one object per session: session (the id), sessionName, \
            status, entries, dropped, startedAt, endedAt, durationNanoseconds, stateType, actionType, \
            appVersion, libraryVersion.

            Examples:
              replay-cli sessions app.actionlog
              replay-cli sessions app.actionlog --json | jq '.[].sessionName'
            """
    )

    @OptionGroup var journal: JournalOptions

    @Flag(help: "Print JSON for scripts.")
    var json = false

    func run() throws {
        let journal = try journal.open()
        let sessions = try reportingErrors { () throws(JournalError) in try journal.sessions() }
        if json {
            let values: [JSONValue] = sessions.map { session in
                .object(JSONOutput.sessionMembers(session).merging([
                    "status": .string(session.status.rawValue),
                    "entries": .number(String(session.entryCount)),
                    "dropped": .number(String(session.droppedCount)),
                    "startedAt": .string(Format.timestamp(session.startedAt)),
                    "endedAt": session.endedAt.map { .string(Format.timestamp($0)) } ?? .null,
                    "durationNanoseconds": session.duration.map(JSONOutput.nanoseconds) ?? .null,
                    "stateType": .string(session.stateType),
                    "actionType": .string(session.actionType),
                    "appVersion": session.appVersion.map(JSONValue.string) ?? .null,
                    "libraryVersion": .string(session.libraryVersion),
                ]) { $1 })
            }
            try BufferedOutput.print(JSONValue.array(values).prettyText.jsonDisplayEscaped)
            return
        }
        guard !sessions.isEmpty else {
            try BufferedOutput.print("\(journal.fileName.displayEscaped): no sessions")
            return
        }
        var rows = [["ID", "NAME", "STATUS", "ENTRIES", "STARTED", "DURATION"]]
        for session in sessions {
            rows.append([
                String(session.id), session.name, session.status.rawValue,
                String(session.entryCount) + (session.droppedCount > 0 ? " (\(session.droppedCount) dropped)" : ""),
                Format.timestamp(session.startedAt),
                session.duration.map { Format.seconds($0) } ?? "-",
            ])
        }
        var output = BufferedOutput()
        for line in Format.table(rows) { try output.write(line) }
        try output.flush()
    }
}
