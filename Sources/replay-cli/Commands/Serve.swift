import ActionLog
import ActionLogViewer
import ArgumentParser
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
            read-only. The server answers only requests addressed to 127.0.0.1 or localhost with its port \
            (a page of another site cannot read the journal through a DNS name pointing here); with \
            --host, it listens on another address, and anyone who can reach that address can read the \
            journal.

            Examples:
              replay-cli serve app.actionlog
              replay-cli serve app.actionlog --port 8080
            """
    )

    @OptionGroup var journal: JournalOptions

    @Option(help: ArgumentHelp("The port to listen on; 0 picks a free one.", valueName: "port"))
    var port = 0

    @Option(help: ArgumentHelp("The IPv4 address to listen on; 127.0.0.1 is this machine only, any other lets whoever reaches it read the journal.", valueName: "address"))
    var host = "127.0.0.1"

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535, not \(port)") }
    }

    func run() async throws {
        _ = try journal.open()
        let server: ViewerServer
        do {
            server = try ViewerServer(journalPath: journal.file, host: host, port: port)
        } catch let error as JournalError {
            server = try reportingErrors { () throws(JournalError) in throw error }
        } catch {
            Terminal.printError("\(error)")
            throw ExitCode.failure
        }
        if host != "127.0.0.1" {
            _ = OutputTarget.writeAll(Array("""
                warning: serving on \(host.displayEscaped):\(server.port): anyone who can reach this address can read \
                the journal \(journal.file.displayEscaped).\n
                """.utf8), to: STDERR_FILENO)
        }
        try BufferedOutput.print(server.url.absoluteString)
        try BufferedOutput.print("Serving \(journal.file.displayEscaped) read-only; press Ctrl-C to stop.")
        await Self.waitForInterrupt()
        server.stop()
    }

    /// Returns when the process receives SIGINT or SIGTERM (their default action, ending the process,
    /// is turned off meanwhile, so the server stops cleanly and the status is 0).
    private static func waitForInterrupt() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let queue = DispatchQueue(label: "replay-cli.serve.signals")
            let resumed = SignalLatch(continuation)
            var sources: [any DispatchSourceSignal] = []
            for number in [SIGINT, SIGTERM] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                source.setEventHandler { resumed.fire() }
                source.resume()
                sources.append(source)
            }
            resumed.keep(sources)
        }
    }
}

/// Resumes a continuation once, from the first signal; keeps the signal sources alive meanwhile.
private final class SignalLatch: @unchecked Sendable {
    // Guarded by `lock`.
    private var continuation: CheckedContinuation<Void, Never>?
    private var sources: [any DispatchSourceSignal] = []
    private let lock = NSLock()

    init(_ continuation: CheckedContinuation<Void, Never>) {
        self.continuation = continuation
    }

    func keep(_ sources: [any DispatchSourceSignal]) {
        lock.withLock { self.sources = sources }
    }

    func fire() {
        let pending = lock.withLock { () -> CheckedContinuation<Void, Never>? in
            defer { continuation = nil }
            return continuation
        }
        pending?.resume()
    }
}
