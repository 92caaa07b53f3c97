import ActionLog
import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Serves the time-travel viewer of one journal on a local address: the page at `/`, and the JSON
/// routes it reads (see ``ViewerAPI``, documented in the replay-cli article).
///
/// ```swift
/// let server = try ViewerServer(journalPath: "checkout.actionlog")
/// print(server.url)   // http://127.0.0.1:41234/
/// // …
/// server.stop()
/// ```
///
/// It opens the journal read-only and never writes it. It answers `GET` and `HEAD` only, on fixed
/// routes (nothing of the URL names a file), to requests whose `Host` header names the address it
/// printed (`127.0.0.1:PORT` or `localhost:PORT`), so that a page of another site cannot read the
/// journal through a DNS name rebound to 127.0.0.1. Each connection is served by its own thread (at
/// most ``maximumConnections`` at a time), reads at most 16 KiB of request head within 10 seconds,
/// and is closed after one response.
///
/// It serves until ``stop()``; its threads keep it alive until then.
public final class ViewerServer: Sendable {
    /// Where the viewer is: `http://127.0.0.1:PORT/`.
    public let url: URL
    /// The port the server listens on (the one it picked, when asked for port 0).
    public let port: Int
    /// The address it listens on.
    public let host: String

    /// The most connections served at once; more wait for their turn in the listening queue.
    public static let maximumConnections = 16
    /// Seconds a connection may stay silent while reading or writing: 10, unless a test asks for less.
    let timeoutSeconds: Int

    private let listener: Int32
    private let api: ViewerAPI
    /// A read connection per request being answered.
    private let journals: JournalPool
    /// Whether ``stop()`` was called; the accept loop looks at it between waits.
    private let stopping = Locked(false)
    /// The connections being served, so that ``stop()`` can end them.
    private let connections = Locked<Set<Int32>>([])
    private let acceptLoopDone = DispatchSemaphore(value: 0)
    private let connectionThreads = DispatchGroup()
    private let stopped = Locked(false)

    /// Opens the journal read-only and starts listening; returns once the socket listens.
    ///
    /// ```swift
    /// let server = try ViewerServer(journalPath: "app.actionlog", port: 0)   // any free port
    /// ```
    ///
    /// - Parameters:
    ///   - journalPath: the journal to serve.
    ///   - host: the IPv4 address to listen on; `127.0.0.1` (this machine only) by default. Any other
    ///     address lets whoever can reach it read the journal.
    ///   - port: the port; 0 picks a free one.
    /// - Throws: ``ActionLogError`` when the journal cannot be opened; ``ViewerServerError`` when the
    ///   address cannot be listened on.
    public convenience init(journalPath: String, host: String = "127.0.0.1", port: Int = 0) throws {
        try self.init(journalPath: journalPath, host: host, port: port, timeoutSeconds: 10)
    }

    /// ``init(journalPath:host:port:)`` with another timeout: for tests of slow peers, and with
    /// another time a filtered timeline window may read for (1 second when `nil`): for tests of its
    /// paging.
    package init(
        journalPath: String, host: String = "127.0.0.1", port: Int = 0, timeoutSeconds: Int, filterTimeBudget: Duration? = nil
    ) throws {
        self.timeoutSeconds = timeoutSeconds
        let journal = try Journal(path: journalPath)
        let (listener, port) = try Socket.listen(host: host, port: port)
        self.listener = listener
        self.port = port
        self.host = host
        let shown = host == "0.0.0.0" ? "127.0.0.1" : host
        let display = "http://\(shown):\(port)/"
        // A literal made of a checked IPv4 address and a port always parses.
        self.url = URL(string: display) ?? URL(fileURLWithPath: "/")
        var hosts: Set<String> = ["127.0.0.1:\(port)", "localhost:\(port)", "\(host):\(port)"]
        hosts.remove("0.0.0.0:\(port)")
        api = ViewerAPI(
            journal: journal, allowedHosts: hosts, anyAddressPort: host == "0.0.0.0" ? port : nil, displayURL: display,
            filterTimeBudget: filterTimeBudget ?? ViewerAPI.filterTimeBudget)
        journals = JournalPool(journal, path: journalPath, capacity: Self.maximumConnections)
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "ActionLogViewer.accept"
        thread.start()
    }

    deinit {
        stop()
    }

    /// Stops listening, ends the connections being served and waits for their threads; idempotent.
    ///
    /// ```swift
    /// server.stop()
    /// ```
    public func stop() {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        stopping.withLock { $0 = true }
        acceptLoopDone.wait()
        close(listener)
        connections.withLock { open in
            for descriptor in open { Socket.shutdownBoth(descriptor) }
        }
        connectionThreads.wait()
    }

    // MARK: - Serving

    private func acceptLoop() {
        defer { acceptLoopDone.signal() }
        while !stopping.withLock({ $0 }) {
            guard Socket.waitReadable(listener, milliseconds: 100) else { continue }
            let busy = connections.withLock { $0.count >= Self.maximumConnections }
            if busy {
                // Leave it in the queue until a connection ends.
                Thread.sleep(forTimeInterval: 0.01)
                continue
            }
            guard let connection = Socket.accept(listener, timeoutSeconds: timeoutSeconds) else { continue }
            connections.withLock { _ = $0.insert(connection) }
            connectionThreads.enter()
            let thread = Thread { [self] in
                serve(connection)
                connections.withLock { _ = $0.remove(connection) }
                close(connection)
                connectionThreads.leave()
            }
            thread.name = "ActionLogViewer.connection"
            // Room for the recursion over the deepest state a journal may hold (512 levels), as on a
            // main thread, whatever the platform's default for secondary threads (512 KiB on Apple's).
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// Reads one request, answers it, and returns (the caller closes the connection).
    private func serve(_ connection: Int32) {
        let (head, tooLarge) = Socket.readHead(
            connection, limit: HTTPRequest.maximumHeaderBytes, deadline: .seconds(timeoutSeconds))
        let response: HTTPResponse
        var includingBody = true
        if tooLarge {
            response = .text(431, "Refused: the request's head is larger than \(HTTPRequest.maximumHeaderBytes / 1024) KiB.")
        } else if let head {
            do {
                let request = try HTTPRequest(head: head)
                includingBody = request.method != "HEAD"
                response = journals.withJournal { api.reading($0).respond(to: request) }
            } catch {
                response = .text(error.status, "Refused: \(error.reason)")
            }
        } else {
            return
        }
        let bytes = response.serialized(includingBody: includingBody)
        if !Socket.writeAll(connection, bytes, deadline: writeDeadline(bytes.count)) {
            // Cut off (too slow, or gone): the rest is dropped, not left to trickle out.
            Socket.resetOnClose(connection)
        }
    }

    /// How long an answer of `count` bytes may take to send: the timeout, and a tenth of it per MiB
    /// (10 s and 1 s per MiB: a peer that reads slower than 1 MiB/s is cut off, and its thread freed
    /// for the others).
    func writeDeadline(_ count: Int) -> Duration {
        .seconds(timeoutSeconds) * (1 + Double(count) / Double(10 << 20))
    }
}

/// Why the viewer's server could not start: a sentence naming the address.
///
/// ```swift
/// do { _ = try ViewerServer(journalPath: "app.actionlog", port: 80) }
/// catch let error as ViewerServerError { print(error) }   // cannot listen on 127.0.0.1:80: Permission denied
/// ```
public struct ViewerServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The sentence.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
