import ActionLog
import ActionLogPostgres
import ActionLogViewer
import ArgumentParser
import CommandLineSupport
import Dispatch
import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `replay-cli serve FILE [--port N] [--host ADDRESS]`: the time-travel viewer in a browser.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve a time-travel viewer of the journal on this machine, until Ctrl-C.",
        discussion: """
            Prints the viewer's address (http://127.0.0.1:PORT/) as the first line, then serves: the \
            sessions, each one's timeline, and at each entry the state as a tree, what the entry changed, \
            its action and effect. A session still being recorded is followed live. The journal is opened \
            read-only. FILE may be a session's text form (.jsonl), read into a temporary journal (removed \
            when the server stops) that the viewer shows as session 1. The server answers only requests addressed to 127.0.0.1 or localhost with its port \
            (a page of another site cannot read the journal through a DNS name pointing here); with \
            --host, it listens on another address, and anyone who can reach that address can read the \
            journal.

            FILE may be a team store's URL (postgres://…): the session --session names (its uuid or its \
            name; left out, the store's only session) is read into a temporary journal when the server \
            starts and served as it was then.

            Examples:
              replay-cli serve app.actionlog --port 8080
              replay-cli serve postgres://ci@db.internal/actionlog --session checkout
            """
    )

    @OptionGroup var input: FileOptions

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("For a team store: the session to serve, its uuid or its name. Not needed when the store holds one session.", valueName: "id"))
    var session: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("The port to listen on; 0 picks a free one.", valueName: "port"))
    var port = 0

    @Option(help: ArgumentHelp("The IPv4 address to listen on; 127.0.0.1 is this machine only, any other lets whoever reaches it read the journal.", valueName: "address"))
    var host = "127.0.0.1"

    func validate() throws {
        if session != nil, !PostgresLocation.isURL(input.file) {
            throw ValidationError("--session is for a team store's URL (postgres://…); the viewer shows every session of a file")
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535, not \(port)") }
        // A usage error, as a bad --port is, rather than a failure to listen.
        var address = in_addr()
        guard inet_pton(AF_INET, host, &address) == 1 else {
            throw ValidationError("--host must be an IPv4 address such as 127.0.0.1, not \(host.displayEscaped)")
        }
    }

    func run() async throws {
        // The server opens the journal's path again: a text form's temporary journal keeps its path
        // until the server stops.
        let opened = try PostgresLocation.isURL(input.file)
            ? OpenedFile(input.file, keepingPath: true, session: session) : input.open(keepingPath: true)
        // A store's URL may hold a password: messages name the store without it.
        let shown = opened.store ?? input.file
        let server: ViewerServer
        do {
            server = try ViewerServer(journalPath: opened.journal.path, host: host, port: port)
        } catch let error as ActionLogError {
            server = try reportingErrors { () throws(ActionLogError) in throw error }
        } catch {
            Terminal.printError("\(error)")
            throw ExitCode.failure
        }
        if host != "127.0.0.1" {
            _ = OutputTarget.writeAll(Array("""
                warning: serving on \(host.displayEscaped):\(server.port): anyone who can reach this address can read \
                the journal \(shown.displayEscaped).\n
                """.utf8), to: STDERR_FILENO)
        }
        // Before the address is printed: whoever reads it and sends SIGINT or SIGTERM stops the
        // server cleanly (exit status 0), however soon.
        let stop = StopSignal()
        try BufferedOutput.print(server.url.absoluteString)
        try BufferedOutput.print("Serving \(shown.displayEscaped) read-only; press Ctrl-C to stop.")
        await stop.requested()
        server.stop()
        withExtendedLifetime(opened) {}
    }
}
