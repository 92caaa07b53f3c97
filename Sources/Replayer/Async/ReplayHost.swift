import ActionLog

/// What a replayed handler did next, as the replay driver waits for it: a call to a recorded
/// service (the task that made it now waits for its answer), the return of its own code while tasks
/// it started go on, or the end of all its work.
enum HandlerEvent: Sendable {
    case called(PendingCall)
    case returned
    case finished
}

/// A replayed service call waiting for its answer. Exactly one of ``deliver`` and ``fail`` is
/// called, once.
struct PendingCall: Sendable {
    let request: CallRequest
    /// Whether the call ends the handler's turn (see `HandlerRun.callEndsTurn`): one from its own
    /// code, or from a task it started once its code returned; not one made beside its running code.
    let endsTurn: Bool
    /// Resumes the handler with the recorded answer; returns what decoding the recorded result into
    /// the call's result type threw, when it did (the handler then gets an error).
    let deliver: @Sendable (ServiceCall.Outcome) -> (any Error)?
    /// Resumes the handler with an error (a divergence, or a replay that stopped).
    let fail: @Sendable (any Error) -> Void
}

/// One replayed handler's events, posted by its task and taken by the driver in order.
final class HandlerMailbox: Sendable {
    private struct State {
        var events: [HandlerEvent] = []
        /// The driver waiting for the next event.
        var waiter: CheckedContinuation<HandlerEvent, Never>?
    }
    private let state = Locked(State())

    func post(_ event: HandlerEvent) {
        let waiter: CheckedContinuation<HandlerEvent, Never>? = state.withLock { state in
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.events.append(event)
            return nil
        }
        waiter?.resume(returning: event)
    }

    /// Takes the events posted and not yet taken.
    func drain() -> [HandlerEvent] {
        state.withLock { state in
            defer { state.events = [] }
            return state.events
        }
    }

    /// The handler's next event, once it comes. No clock: the driver waits for what the handler
    /// does, however busy the machine.
    func next() async -> HandlerEvent {
        await withCheckedContinuation { (continuation: CheckedContinuation<HandlerEvent, Never>) in
            let ready: HandlerEvent? = state.withLock { state in
                if !state.events.isEmpty { return state.events.removeFirst() }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}

/// Thrown into replayed handlers still waiting for an answer when the replay stops.
struct ReplayStopped: Error, CustomStringConvertible {
    var description: String { "the replay stopped" }
}

/// Answers the service calls of replayed handlers: each call waits, in its handler's mailbox, for
/// the driver to check it against the recording and give the recorded answer in its turn.
final class ReplayHost: HandlerHost {
    /// How the replayed session wrote dates, and so how replayed arguments are encoded.
    let dates: DateConvention

    init(dates: DateConvention) {
        self.dates = dates
    }

    private struct State {
        var mailboxes: [Int: HandlerMailbox] = [:]
        /// Set when the replay stops: calls made from then on fail at once.
        var stopped = false

        /// The mailbox of handler `token`, made at its first use.
        mutating func mailbox(_ token: Int) -> HandlerMailbox {
            if let box = mailboxes[token] { return box }
            let box = HandlerMailbox()
            mailboxes[token] = box
            return box
        }
    }
    private let state = Locked(State())

    func mailbox(for token: Int) -> HandlerMailbox {
        state.withLock { $0.mailbox(token) }
    }

    /// Stops the replay: every call waiting for an answer, and every call made from now on, fails
    /// with ``ReplayStopped``, so that no handler task is left waiting.
    func stop() {
        let boxes = state.withLock { state in
            state.stopped = true
            return Array(state.mailboxes.values)
        }
        for box in boxes {
            for case .called(let pending) in box.drain() { pending.fail(ReplayStopped()) }
        }
    }

    /// Posts a call to its handler's mailbox, unless the replay stopped; returns whether it posted.
    private func post(_ pending: PendingCall, token: Int) -> Bool {
        state.withLock { state in
            guard !state.stopped else { return false }
            state.mailbox(token).post(.called(pending))
            return true
        }
    }

    func call<Result: Codable & Sendable>(
        _ request: CallRequest, in run: HandlerRun, live: () async throws -> Result
    ) async throws -> Result {
        let endsTurn = run.callEndsTurn
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Result, any Error>) in
            let pending = PendingCall(
                request: request, endsTurn: endsTurn,
                deliver: { outcome in
                    switch outcome {
                    case .returned(let json):
                        do {
                            continuation.resume(returning: try json.decode(Result.self))
                            return nil
                        } catch {
                            continuation.resume(throwing: ReplayStopped())
                            return error
                        }
                    case .threw(let json):
                        continuation.resume(throwing: Self.error(from: json, types: request.errorTypes))
                        return nil
                    }
                },
                fail: { continuation.resume(throwing: $0) })
            if !post(pending, token: run.token) { pending.fail(ReplayStopped()) }
        }
    }

    /// The error a recorded call threw: of its own type when the wrapper declared it, a
    /// `CancellationError` for a cancelled call, else a `ActionLogError` of code `.recordedError`.
    static func error(from json: JSONValue, types: [ErrorTypeBox]) -> any Error {
        guard case .object(let members) = json, case .string(let type)? = members["type"] else {
            return ActionLogError.recordedError(type: "?", message: json.canonicalText)
        }
        if type == String(reflecting: CancellationError.self) { return CancellationError() }
        if let value = members["value"], let box = types.first(where: { $0.name == type }) {
            func decode<E: Error & Codable>(_ errorType: E.Type) -> (any Error)? { try? value.decode(errorType) }
            if let error = decode(box.type) { return error }
        }
        if case .string(let description)? = members["description"] {
            var localized: String?
            if case .string(let text)? = members["localizedDescription"] { localized = text }
            return ActionLogError.recordedError(type: type, message: description, localizedDescription: localized)
        }
        return ActionLogError.recordedError(type: type, message: members["value"]?.canonicalText ?? json.canonicalText)
    }
}
