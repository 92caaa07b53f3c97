import Foundation

/// Who answers the service calls of running handlers: the recording front while recording
/// (``ViewModelRecorder``), the replay driver while replaying.
package protocol HandlerHost: Sendable {
    /// A call to a recorded service made by the handler of `run`. Recording calls `live` and
    /// journals the answer; replay answers from the journal and never calls `live`.
    func call<Result: Codable & Sendable>(
        _ request: CallRequest, in run: HandlerRun, live: () async throws -> Result
    ) async throws -> Result

    /// How the arguments of calls are encoded: as the session being recorded or replayed writes dates.
    var dates: DateConvention { get }
}

/// A service call as it is made: who, what, with which arguments (encoded), and the error types
/// the service's wrapper can throw again on replay.
package struct CallRequest: Sendable {
    package var service: String
    package var method: String
    package var arguments: [JSONValue]
    package var errorTypes: [ErrorTypeBox]

    /// `ProductService.fetchProduct("p-7")`.
    package var description: String {
        "\(service).\(method)(\(arguments.map(\.canonicalText).joined(separator: ", ")))"
    }
}

/// An error type a service wrapper declares (``RecordedService/init(_:errors:)``), so that replay
/// throws the recorded error as its own type.
package struct ErrorTypeBox: @unchecked Sendable {
    // @unchecked: a metatype holds no state.
    package let type: any (Error & Codable).Type
    package var name: String { String(reflecting: type) }
}

/// One handler while it runs: the entry it works for, what it did so far. Found by service
/// wrappers and output taps through a task-local value, so that a call is journaled with the
/// action whose handler made it, whatever else runs meanwhile.
///
/// **Work the handler starts.** The task-local value is a ``HandlerScope`` that nothing but
/// task-local storage holds. Swift copies task-local values into every `Task {}` a task starts (not
/// into `Task.detached`), and child tasks (`async let`, task groups) read their parent's. So every
/// task the handler starts, and every task those start, holds the scope until it ends, and the
/// scope goes away exactly when the handler has returned and the last of that work has ended: a
/// program event, with no clock and no edit of the ViewModel. ``waitForWork()`` waits for it.
package final class HandlerRun: Sendable {
    /// The scope of the handler this task (or the task that started it) works for.
    @TaskLocal package static var scope: HandlerScope?

    /// The run of the handler this task (or the task that started it) works for.
    package static var current: HandlerRun? { scope?.run }

    /// Tells this handler from the others of the session (recording: the order actions were sent).
    package let token: Int
    package let host: any HandlerHost
    /// For replay: the entry replayed, which the handler may read (``ReplayedEntry``).
    package let entry: ReplayedEntry?
    private let recorded = Locked<[HandlerRecord.Record]>([])
    /// Set when the handler's own code has returned; its tasks may go on.
    private let ownPathReturned = Locked(false)
    /// Whether every task of the handler has ended, and who waits for it.
    private let work = Locked<(finished: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    package init(token: Int, host: any HandlerHost, entry: ReplayedEntry? = nil) {
        self.token = token
        self.host = host
        self.entry = entry
    }

    /// Runs `body`, the handler's own code, on the current task (its *own path*) with this run's
    /// scope, which every task it starts inherits. Returns when `body` returns; its tasks may go on
    /// (``waitForWork()``).
    package func runOwnPath(_ body: () async -> Void) async {
        enterOwnPath()
        // The scope is made here and handed to the binding alone: once the binding ends and the
        // tasks that copied it end, it goes away and says so.
        await HandlerRun.$scope.withValue(HandlerScope(self)) { await body() }
        leaveOwnPath()
        ownPathReturned.withLock { $0 = true }
    }

    /// Whether the handler's own code has returned.
    package var hasOwnPathReturned: Bool { ownPathReturned.withLock { $0 } }

    /// Called by the scope when it goes away: every task of the handler has ended.
    fileprivate func workFinished() {
        let waiter: CheckedContinuation<Void, Never>? = work.withLock { state in
            state.finished = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Whether the handler has returned and every task it started has ended.
    package var isWorkFinished: Bool { work.withLock { $0.finished } }

    /// Returns once the handler has returned and every task it started (and every task those
    /// started) has ended.
    package func waitForWork() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = work.withLock { state in
                if state.finished { return true }
                state.waiter = continuation
                return false
            }
            if done { continuation.resume() }
        }
    }

    /// The tasks on the handler's own path, by identity: the task it runs in, and those started with
    /// ``HandlerTask/start(_:)``. A call from any other task (an `async let` child, a task group's, a
    /// `Task {}`) while the handler's own code still runs is made beside it, and does not give the
    /// handler's turn away.
    private let ownTasks = Locked<Set<Int>>([])

    /// Notes the current task as one of the handler's own path.
    package func enterOwnPath() {
        guard let id = Self.currentTaskID else { return }
        ownTasks.withLock { _ = $0.insert(id) }
    }

    /// The current task, one of the handler's own path, ends.
    package func leaveOwnPath() {
        guard let id = Self.currentTaskID else { return }
        ownTasks.withLock { _ = $0.remove(id) }
    }

    /// Whether a call made now ends the handler's turn: one from its own path, or, once its own code
    /// has returned, one from any task it started (nothing else of the entry runs in its turn then).
    package var callEndsTurn: Bool {
        if hasOwnPathReturned { return true }
        guard let id = Self.currentTaskID else { return true }
        return ownTasks.withLock { $0.contains(id) }
    }

    private static var currentTaskID: Int? { withUnsafeCurrentTask { $0?.hashValue } }

    /// Adds a call or an output event to what the handler did.
    package func append(_ record: HandlerRecord.Record) {
        recorded.withLock { $0.append(record) }
    }

    /// Adds a call answered at its place in the run order: after the calls answered before it.
    /// Calls in flight side by side are given their places together, and their tasks may get here
    /// in another order; the journal keeps each entry's calls in the order of their answers.
    package func append(answered call: ServiceCall) {
        recorded.withLock { records in
            var index = records.endIndex
            while index > records.startIndex, case .call(let earlier) = records[index - 1], earlier.answered > call.answered {
                index -= 1
            }
            records.insert(.call(call), at: index)
        }
    }

    /// What the handler did so far, in order.
    package var records: [HandlerRecord.Record] {
        recorded.withLock { $0 }
    }
}

/// The task-local value that ties a task to the handler it works for. Only task-local storage holds
/// it: the binding around the handler's own code, and the copy each `Task {}` started under it
/// keeps until it ends. Its end is the end of all that work (see ``HandlerRun``).
package final class HandlerScope: Sendable {
    package let run: HandlerRun

    fileprivate init(_ run: HandlerRun) {
        self.run = run
    }

    deinit {
        run.workFinished()
    }
}

/// The entry a replayed handler is replaying, for a handler (or a test double) that wants to see
/// it: its seq, the action's label and what was recorded for it.
///
/// ```swift
/// func handle(_ action: Action) async {
///     if let entry = ReplayedEntry.current { print("replaying entry", entry.seq) }
///     …
/// }
/// ```
package struct ReplayedEntry: Sendable, Hashable {
    /// The entry's sequence number.
    package var seq: Int
    /// The action's label, e.g. `onImageSliderAction.onTapSlider`.
    package var label: String
    /// What its handler did when it was recorded: its service calls, with their answers, and output events.
    package var recorded: HandlerRecord

    /// Makes the description of a replayed entry.
    ///
    /// - Parameters:
    ///   - seq: the entry's sequence number.
    ///   - label: the action's label.
    ///   - recorded: what its handler did when it was recorded.
    package init(seq: Int, label: String, recorded: HandlerRecord) {
        self.seq = seq
        self.label = label
        self.recorded = recorded
    }

    /// The entry that the current task's handler replays; `nil` outside a replay.
    package static var current: ReplayedEntry? { HandlerRun.current?.entry }
}

/// Starts a task on the handler's own path: a call it makes ends the handler's turn as the
/// handler's own calls do, even while the handler's code still runs.
///
/// A plain `Task {}` started in a handler is followed too: its calls and output events belong to the
/// handler's entry, which is written once it has ended (see ``ViewModelRecorder``). Use
/// `HandlerTask.start` only for a task that the handler's own code then waits for by other means
/// than a recorded call (a continuation, `await task.value`) while it goes on making calls of its own:
///
/// ```swift
/// func handle(event: SearchViewEvent) async {
///     let results = HandlerTask.start { await self.search(query) }   // its calls take turns
///     await results.value
/// }
/// ```
///
/// Outside a recorded or replayed handler it is a plain `Task`.
public enum HandlerTask {
    /// Starts `body` in a task of the current handler's entry, on the handler's own path.
    ///
    /// - Parameter body: the work; it inherits the handler's task-local values.
    /// - Returns: the task.
    @discardableResult
    public static func start<Success: Sendable>(_ body: @escaping @Sendable () async -> Success) -> Task<Success, Never> {
        guard let run = HandlerRun.current else { return Task { await body() } }
        return Task {
            run.enterOwnPath()
            defer { run.leaveOwnPath() }
            return await body()
        }
    }
}
