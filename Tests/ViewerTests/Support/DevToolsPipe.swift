import ActionLog
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failure of the browser harness, with a message that says what happened and what to do.
struct BrowserError: Error, CustomStringConvertible {
    let description: String
}

/// One event Chromium sent: its method, parameters and the page session it belongs to (`nil` for the browser).
struct DevToolsEvent: Sendable {
    let method: String
    let params: JSONValue
    let sessionID: String?
}

/// The Chrome DevTools Protocol over `--remote-debugging-pipe`: Chromium reads commands from its fd 3 and
/// writes replies and events to its fd 4, each message one JSON object followed by a NUL byte. Both are
/// one end of a socket pair; this is the other end.
///
/// Commands wait for their reply on a continuation; a reader thread parses what Chromium writes, resumes
/// the continuation whose `id` matches, and appends every event to a log that pages read and wait on.
/// Every command has a timeout, and when Chromium closes the pipe every waiting command fails at once.
final class DevToolsPipe: Sendable {
    private struct State {
        var nextID = 1
        /// The commands waiting for their answer: the method's name and who waits.
        var pending: [Int: (method: String, continuation: CheckedContinuation<JSONValue, any Error>)] = [:]
        var events: [DevToolsEvent] = []
        /// Why the pipe no longer works, once it does not.
        var closedReason: String?
    }

    private let socket: Int32
    private let state = Locked(State())
    /// Held while writing; `true` once the reader closed the socket, so that nothing writes to a
    /// descriptor number the process may have reused.
    private let socketClosed = Locked(false)
    /// Called for the reason the pipe closed, to add what Chromium printed.
    private let diagnostics: @Sendable () -> String

    /// Takes ownership of our end of the socket pair and starts reading it.
    init(socket: Int32, diagnostics: @escaping @Sendable () -> String) {
        self.socket = socket
        self.diagnostics = diagnostics
        let thread = Thread { [self] in readLoop() }
        thread.name = "DevToolsPipe reader"
        thread.start()
    }

    /// Sends `method` with `params` (to a page when `sessionID` is set) and returns the reply's `result`.
    ///
    /// - Throws: `BrowserError` when Chromium answers with an error, does not answer within `timeout`,
    ///   or the pipe is closed.
    func send(_ method: String, _ params: JSONValue = [:], sessionID: String? = nil, timeout: Duration = .seconds(20)) async throws -> JSONValue {
        let id: Int = try state.withLock { state in
            if let reason = state.closedReason { throw BrowserError(description: "\(method): \(reason)") }
            defer { state.nextID += 1 }
            return state.nextID
        }
        var message: [String: JSONValue] = ["id": .number(String(id)), "method": .string(method), "params": params]
        if let sessionID { message["sessionId"] = .string(sessionID) }
        let bytes = JSONValue.object(message).canonicalBytes + [0]

        let timer = Task { [self] in
            try await Task.sleep(for: timeout)
            fail(id, BrowserError(description: "\(method): Chromium did not answer within \(timeout)"))
        }
        defer { timer.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            let closed: String? = state.withLock { state in
                if let reason = state.closedReason { return reason }
                state.pending[id] = (method, continuation)
                return nil
            }
            if let closed {
                continuation.resume(throwing: BrowserError(description: "\(method): \(closed)"))
                return
            }
            if let problem = writeAll(bytes) {
                fail(id, BrowserError(description: "\(method): writing to Chromium's pipe failed: \(problem)"))
            }
        }
    }

    /// Why the pipe no longer works (Chromium exited or closed it), or `nil` while it works.
    var closedReason: String? { state.withLock { $0.closedReason } }

    /// The number of events received so far: pass it to `event(_:after:)` to wait for one that comes later.
    var eventCount: Int { state.withLock { $0.events.count } }

    /// The events received so far, oldest first.
    var events: [DevToolsEvent] { state.withLock { $0.events } }

    /// Waits for an event named `method` of `sessionID`, received after the first `index` events.
    ///
    /// - Throws: `BrowserError` when none comes within `timeout` or the pipe closes.
    func event(_ method: String, sessionID: String?, after index: Int, timeout: Duration = .seconds(20)) async throws -> DevToolsEvent {
        let deadline = ContinuousClock.now + timeout
        while true {
            let (found, closed): (DevToolsEvent?, String?) = state.withLock { state in
                let later = state.events.dropFirst(index)
                return (later.first { $0.method == method && $0.sessionID == sessionID }, state.closedReason)
            }
            if let found { return found }
            if let closed { throw BrowserError(description: "waiting for \(method): \(closed)") }
            if ContinuousClock.now >= deadline {
                throw BrowserError(description: "Chromium sent no \(method) within \(timeout)")
            }
            try await Task.sleep(for: .milliseconds(25))
        }
    }

    /// Ends what Chromium reads: a browser still running sees the end of its input and exits.
    func closeWriting() {
        socketClosed.withLock { closed in
            if !closed { _ = shutdown(socket, Int32(SHUT_WR)) }
        }
    }

    // MARK: - Internals

    /// Writes all of `bytes`, retrying short writes; returns the error text when the write fails.
    private func writeAll(_ bytes: [UInt8]) -> String? {
        socketClosed.withLock { closed in
            if closed { return "the pipe is closed" }
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeBytes { buffer in
                    sendWithoutSignal(socket, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                }
                if written < 0 {
                    if errno == EINTR { continue }
                    return String(cString: strerror(errno))
                }
                offset += written
            }
            return nil
        }
    }

    private func fail(_ id: Int, _ error: BrowserError) {
        let waiting = state.withLock { $0.pending.removeValue(forKey: id) }
        waiting?.continuation.resume(throwing: error)
    }

    private func readLoop() {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var reason = "Chromium closed its DevTools pipe (did it exit?)"
        reading: while true {
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count < 0 {
                if errno == EINTR { continue }
                // What a socket says when the browser died with our command unread: its end, too.
                if errno == ECONNRESET { break reading }
                reason = "reading Chromium's DevTools pipe failed: \(String(cString: strerror(errno)))"
                break reading
            }
            if count == 0 { break reading }
            var start = buffer.count
            buffer.append(contentsOf: chunk[0..<count])
            // Only the new bytes can hold a message's end.
            while let end = buffer[start...].firstIndex(of: 0) {
                dispatch(Array(buffer[..<end]))
                buffer.removeSubrange(...end)
                start = 0
            }
        }
        socketClosed.withLock { closed in
            closed = true
            _ = close(socket)
        }
        let detail = diagnostics()
        let full = detail.isEmpty ? reason : "\(reason); Chromium printed:\n\(detail)"
        let waiting = state.withLock { state in
            state.closedReason = full
            defer { state.pending = [:] }
            return state.pending.values
        }
        for (method, continuation) in waiting { continuation.resume(throwing: BrowserError(description: "\(method): \(full)")) }
    }

    private func dispatch(_ bytes: [UInt8]) {
        guard let message = try? JSONValue(parsing: bytes) else { return }
        if let id = message["id"]?.int {
            guard let (method, continuation) = state.withLock({ $0.pending.removeValue(forKey: id) }) else { return }
            if let error = message["error"] {
                let text = error["message"]?.string ?? error.canonicalText
                continuation.resume(throwing: BrowserError(description: "\(method): Chromium refused the command: \(text)"))
            } else {
                continuation.resume(returning: message["result"] ?? [:])
            }
        } else if let method = message["method"]?.string {
            let event = DevToolsEvent(method: method, params: message["params"] ?? [:], sessionID: message["sessionId"]?.string)
            state.withLock { $0.events.append(event) }
        }
    }
}

/// `send` that fails with `EPIPE` instead of raising `SIGPIPE` when the other end is gone.
private func sendWithoutSignal(_ socket: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    send(socket, bytes, count, Int32(MSG_NOSIGNAL))
    #else
    send(socket, bytes, count, 0)
    #endif
}

// MARK: - Reading JSON values

extension JSONValue {
    /// The value as a whole number, when it is one.
    var int: Int? {
        guard case .number(let text) = self else { return nil }
        if let exact = Int(text) { return exact }
        return Double(text).flatMap { Int(exactly: $0) }
    }

    /// The string, when the value is one.
    var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The boolean, when the value is one.
    var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The elements, when the value is an array.
    var array: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }
}
