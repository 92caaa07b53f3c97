import Foundation

/// Records an event ViewModel: each `ViewEvent` the view sends, and every `ViewModelEvent` the
/// ViewModel emits in answer, at once or after a recorded service answers.
///
/// Send the view's events through it, and tap the ViewModel's output once:
///
/// ```swift
/// let viewModel = SignInViewModel(service: RecordedAuthService(live: LiveAuthService()))
/// let events = try await EventViewModelRecorder<SignInViewEvent, SignInViewModelEvent>(
///     path: "sign-in.actionlog", sessionName: "sign in", services: ["AuthService"],
///     handle: { await viewModel.handle(event: $0) }
/// )
/// viewModel.output.addHandler { events.emitted($0) }   // beside the view's own handler
/// events.send(.viewDidLoad)
/// events.send(.signInTapped(email: "ada@example.com"))
/// await events.settle()
/// events.close()
/// ```
///
/// An event emitted by a handler's work is journaled with the `ViewEvent` that handler answers: its
/// own code, and every `Task {}` it starts (see ``ViewModelRecorder`` for turns and for the work a
/// handler starts); the entry is written once that work has ended. An event emitted before the first
/// `ViewEvent` (while the ViewModel is bound or started) is entry 0's. One emitted outside any
/// handler's work after that (a timer, `Task.detached`, a GCD or delegate callback) is not journaled:
/// the recorder says so once and counts them (``outsideHandlers``). The session has no state: each
/// entry's state is ``NoState``.
public final class EventViewModelRecorder<ViewEvent: Codable & Sendable, ViewModelEvent: Encodable & Sendable>: Sendable {
    /// The recorder of the entries.
    package let recorder: Recorder<NoState, ViewEvent, Never>
    let core: AsyncRecordingCore<NoState, ViewEvent>

    /// Starts a session of an event ViewModel.
    ///
    /// - Parameters:
    ///   - path: the journal file; created with its schema when missing.
    ///   - sessionName: a name for the session.
    ///   - services: the names of the recorded services the ViewModel uses; replay refuses another set.
    ///   - configuration: the recorder's configuration.
    ///   - handle: the ViewModel's handler: `{ await viewModel.handle(event: $0) }`.
    /// - Throws: ``ActionLogError`` as ``ViewModelRecorder/init(path:sessionName:services:configuration:handle:snapshot:)``.
    public init(
        path: String, sessionName: String, services: [String] = [], configuration: RecorderConfiguration = RecorderConfiguration(),
        handle: @escaping @Sendable (ViewEvent) async -> Void
    ) async throws(ActionLogError) {
        recorder = try makeAsyncRecorder(
            path: path, sessionName: sessionName, architecture: .eventViewModel, services: services,
            outputType: String(reflecting: ViewModelEvent.self), configuration: configuration, initialState: NoState())
        core = AsyncRecordingCore(
            recorder: recorder, onError: configuration.onError, turnRelease: configuration.turnRelease, handle: handle, snapshot: { NoState() })
    }

    /// Hands a `ViewEvent` to the ViewModel; its handler runs in a task of its own. O(1), never blocks.
    ///
    /// ```swift
    /// events.send(.signInTapped(email: "ada@example.com"))
    /// ```
    ///
    /// - Parameter event: the event the view sent.
    public func send(_ event: ViewEvent) {
        core.send(event)
    }

    /// Journals an event the ViewModel emitted: call it from a handler of the ViewModel's output.
    ///
    /// ```swift
    /// viewModel.output.addHandler { events.emitted($0) }
    /// ```
    ///
    /// - Parameter event: the emitted event.
    public func emitted(_ event: ViewModelEvent) {
        let label = ActionLabel.of(event)
        let record = HandlerRecord.Record.output(OutputEvent(label: label, event: RecordedService.encode(event)))
        guard let run = HandlerRun.current else { return core.emittedOutsideHandlers(record, label: label) }
        run.append(record)
    }

    /// How many output events were emitted outside any handler's work after the first `ViewEvent`
    /// (from a timer, `Task.detached`, a GCD or delegate callback): not journaled, since no action
    /// can be said to have caused them. The first is reported through
    /// ``RecorderConfiguration/onError`` (``ActionLogError/Code/untrackedWork``).
    ///
    /// ```swift
    /// events.close()
    /// if events.outsideHandlers > 0 { print("\(events.outsideHandlers) output events were not journaled") }
    /// ```
    public var outsideHandlers: Int { core.untrackedCount }

    /// Returns once every handler sent so far has returned and its entry is handed to the writer.
    public func settle() async {
        await core.scheduler.settle()
    }

    /// In capture mode (``RecorderConfiguration/capture``), writes the window kept in memory as a
    /// session of its own, then the stretch after it; otherwise does nothing. See
    /// ``Recorder/capture(reason:)``. The window holds the entries of the handlers that returned
    /// before this call: ``settle()`` first to include those still running.
    ///
    /// ```swift
    /// await events.settle()
    /// events.capture(reason: "the tester tapped Report a bug")
    /// ```
    ///
    /// - Parameter reason: why, as the app says it: stored in the session's metadata (never
    ///   redacted: put no secret in it).
    public func capture(reason: String) {
        recorder.capture(reason: reason)
    }

    /// Returns when every entry handed to the writer so far is committed. See ``Recorder/flush()``.
    public func flush() {
        recorder.flush()
    }

    /// Flushes and closes the session. See ``ViewModelRecorder/close()``.
    public func close() {
        recorder.close()
    }
}

/// The state of a session that has none (an event ViewModel's): it encodes as `{}`.
public struct NoState: Codable, Sendable, Hashable {
    /// The empty state.
    package init() {}
}
