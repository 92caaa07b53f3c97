import ActionLog
import ActionLogPostgres
import ArgumentParser
import CommandLineSupport

/// `replay-cli push FILE URL [--session S]`: a journal's sessions into a team store on PostgreSQL.
struct Push: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Send a journal's sessions to a team store on PostgreSQL, each once.",
        discussion: """
            URL is postgres://USER:PASSWORD@HOST:PORT/DATABASE (or postgresql://); what it leaves out \
            comes from PGHOST, PGPORT, PGUSER, PGPASSWORD and PGDATABASE, as psql takes them. The \
            password is never printed, in errors neither. TLS is used when the server offers it; \
            ?sslmode=require refuses a server without it, ?sslmode=disable never asks. The store's \
            tables are created (or migrated) by the first push.

            A session is stored under its global id. One the store holds already is skipped, saying \
            "already there". A session still being recorded is skipped, saying so: push it once it is \
            closed. Rows go in batches, each in a transaction of its own, so memory stays bounded \
            however long the session; the session shows to readers only once all of it is there. A \
            push that was killed part way is resumed by the next push of the session. Pushes of the \
            same session from several machines at once take turns: one stores it, the others find it there.

            With --json it prints one object per session pushed, in an array: uuid, sessionName, \
            entries, status ("pushed", "resumed", "already there" or "still recording").

            Examples:
              replay-cli push ui-tests.actionlog postgres://ci@db.internal/actionlog
              PGPASSWORD=... replay-cli push app.actionlog postgres://tester@db.internal:5432/actionlog --session checkout
            """
    )

    @Argument(help: ArgumentHelp("The journal (.actionlog) whose sessions to send.", valueName: "file"), completion: .file(extensions: ["actionlog"]))
    var file: String

    @Argument(help: ArgumentHelp("The team store: postgres://USER@HOST:PORT/DATABASE.", valueName: "url"))
    var url: String

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("The session to send: its id, or its name (the newest session of that name). Default: every closed session.", valueName: "id"))
    var session: String?

    @Flag(help: "Print JSON for scripts: what became of each session.")
    var json = false

    func validate() throws {
        try refuseEmptyPath(file)
        guard PostgresLocation.isURL(url) else {
            throw ValidationError("<url> must be a postgres:// or postgresql:// URL")
        }
    }

    func run() throws {
        try OpenedFile.refuseTextForm(file, "push sends a journal's sessions; import it into a journal first (replay-cli import)")
        let journal = try JournalOptions(file: file).open()
        let chosen = try session.map { name in
            var options = SessionOptions()
            options.session = name
            return try options.resolve(in: journal).id
        }
        let location = try reportingErrors { () throws(ActionLogError) in try PostgresLocation(url: url) }
        let progress = ProgressLine("push", total: nil, unit: "entries")
        let (pushed, skipped) = try reportingErrors { () throws(ActionLogError) in
            defer { progress.finish() }
            return try waitingFor { () async throws(ActionLogError) in
                let store = try await PostgresStore.connect(to: location)
                var pushed: [PushedSession] = []
                var skipped: [JournalSession] = []
                do throws(ActionLogError) {
                    try await store.push(
                        journal, session: chosen, skipped: { skipped.append($0) }, progress: { sent, _ in progress.update(sent) },
                        done: { pushed.append($0) })
                } catch {
                    await store.close()
                    throw error
                }
                await store.close()
                return (pushed, skipped)
            }
        }
        if json {
            var array: [JSONValue] = pushed.map { session in
                .object([
                    "uuid": .string(session.uuid.uuidString.lowercased()),
                    "sessionName": .string(session.name),
                    "entries": JSONOutput.number(session.entries),
                    "status": .string(session.wasThere ? "already there" : session.resumed ? "resumed" : "pushed"),
                ])
            }
            array += skipped.map { session in
                .object([
                    "uuid": .string(session.uuid.uuidString.lowercased()), "sessionName": .string(session.name),
                    "entries": JSONOutput.number(session.entryCount), "status": .string("still recording"),
                ])
            }
            try JSONOutput.print(.array(array))
            return
        }
        var output = BufferedOutput()
        for session in pushed {
            let what = session.wasThere ? "already there" : session.resumed ? "pushed (resumed)" : "pushed"
            try output.write("""
                session \(session.uuid.uuidString.lowercased()) "\(session.name.displayEscaped)" (\(counted(session.entries, "entry", "entries"))): \(what)
                """)
        }
        for session in skipped {
            try output.write("""
                session \(session.uuid.uuidString.lowercased()) "\(session.name.displayEscaped)": skipped, still recording (push it once it is closed)
                """)
        }
        let sent = pushed.filter { !$0.wasThere }.count
        try output.write("\(counted(sent, "session")) pushed to \(location.description.displayEscaped), \(pushed.count - sent) already there.")
        try output.flush()
    }
}
