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

    package init(token: Int, host: any HandlerHost, entry: ReplayedEntry? = nil) {
        self.token = token
        self.host = host
        self.entry = entry
    }

    /// Adds a call or an output event to what the handler did.
    package func append(_ record: HandlerRecord.Record) {
        recorded.withLock { $0.append(record) }
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
