import Foundation
import Synchronization

/// Who answers the service calls of running handlers: the recording front while recording
/// (``ViewModelRecorder``), the replay driver while replaying.
package protocol HandlerHost: Sendable {
    /// A call to a recorded service made by the handler of `run`. Recording calls `live` and
    /// journals the answer; replay answers from the journal and never calls `live`.
    func call<Result: Codable & Sendable>(
        _ request: CallRequest, in run: HandlerRun, live: () async throws -> Result
    ) async throws -> Result
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
package final class HandlerRun: Sendable {
    /// The run of the handler this task (or the task that started it) works for.
    @TaskLocal package static var current: HandlerRun?
    /// Set while a recorded call's live service runs: a recorded service that the live one calls in
    /// turn is part of that call, and is neither journaled nor given a turn of its own.
    @TaskLocal package static var insideCall = false

    /// Tells this handler from the others of the session (recording: the order actions were sent).
    package let token: Int
    package let host: any HandlerHost
    /// For replay: the entry replayed, which the handler may read (``ReplayedEntry``).
    package let entry: ReplayedEntry?
    private let recorded = Mutex<[HandlerRecord.Record]>([])
    private let returned = Atomic<Bool>(false)
    /// Tasks started with ``HandlerTask/start(_:)`` and not finished, and who waits for none to be left.
    private let tasks = Mutex<(running: Int, waiters: [CheckedContinuation<Void, Never>])>((0, []))

    package init(token: Int, host: any HandlerHost, entry: ReplayedEntry? = nil) {
        self.token = token
        self.host = host
        self.entry = entry
    }

    /// The tasks on the handler's own path, by identity: the task it runs in, and those started with
    /// ``HandlerTask/start(_:)``. A call from any other task (an `async let` child, a task group's, a
    /// plain `Task`) is made beside the handler, and does not give the handler's turn away.
    private let ownTasks = Mutex<Set<Int>>([])

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

    /// Whether the current task is on the handler's own path.
    package var isOnOwnPath: Bool {
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

    /// Counts a task started for this handler's entry.
    package func taskStarted() {
        tasks.withLock { $0.running += 1 }
    }

    /// A task started for this handler's entry finished.
    package func taskFinished() {
        let waiters: [CheckedContinuation<Void, Never>] = tasks.withLock { state in
            state.running -= 1
            guard state.running == 0 else { return [] }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once every task started for this entry has finished.
    package func waitForTasks() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = tasks.withLock { state in
                if state.running == 0 { return true }
                state.waiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    /// Marks the handler returned: what a task it left behind does later is not part of its entry.
    package func markReturned() {
        returned.store(true, ordering: .releasing)
    }

    /// Whether the handler has returned.
    package var hasReturned: Bool {
        returned.load(ordering: .acquiring)
    }

    /// What the handler did so far, in order.
    package var records: [HandlerRecord.Record] {
        recorded.withLock { $0 }
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
public struct ReplayedEntry: Sendable, Hashable {
    /// The entry's sequence number.
    public var seq: Int
    /// The action's label, e.g. `onImageSliderAction.onTapSlider`.
    public var label: String
    /// What its handler did when it was recorded: its service calls, with their answers, and output events.
    public var recorded: HandlerRecord

    /// Makes the description of a replayed entry.
    ///
    /// - Parameters:
    ///   - seq: the entry's sequence number.
    ///   - label: the action's label.
    ///   - recorded: what its handler did when it was recorded.
    public init(seq: Int, label: String, recorded: HandlerRecord) {
        self.seq = seq
        self.label = label
        self.recorded = recorded
    }

    /// The entry that the current task's handler replays; `nil` outside a replay.
    public static var current: ReplayedEntry? { HandlerRun.current?.entry }
}

/// Starts a task that belongs to the action being handled: its service calls and output events are
/// journaled with that action's entry, and the entry is written once the task has finished too.
///
/// For a ViewModel whose handler returns at once and answers later from a task it starts (an event
/// ViewModel's `handle(event:)` that is not `async`), write `HandlerTask.start { … }` where it wrote
/// `Task { … }`:
///
/// ```swift
/// func handle(event: SignInViewEvent) {
///     output.send(.showSpinner)
///     HandlerTask.start {
///         let name = try? await self.service.signIn(email: email)
///         self.output.send(name.map { .signedIn(name: $0) } ?? .failed)
///     }
/// }
/// ```
///
/// Recording and replay wait for it as for the handler itself, in the handler's turns. Outside a
/// recorded or replayed handler it is a plain `Task`.
public enum HandlerTask {
    /// Starts `body` in a task of the current handler's entry.
    ///
    /// - Parameter body: the work; it inherits the handler's task-local values.
    /// - Returns: the task.
    @discardableResult
    public static func start(_ body: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        guard let run = HandlerRun.current, !run.hasReturned else { return Task { await body() } }
        run.taskStarted()
        return Task {
            run.enterOwnPath()
            await body()
            run.leaveOwnPath()
            run.taskFinished()
        }
    }
}
