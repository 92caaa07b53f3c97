import ActionLog

/// A fresh ViewModel for a replay: its handler, and the projection of its state class.
///
/// ```swift
/// ReplayedViewModel(handle: { await viewModel.handle($0) }, snapshot: { state.snapshot })
/// ```
public struct ReplayedViewModel<State: Sendable, Action: Sendable>: Sendable {
    let handle: @Sendable (Action) async -> Void
    let snapshot: @MainActor @Sendable () -> State

    /// Describes the replayed ViewModel.
    ///
    /// ```swift
    /// let state = ProductState(initial)
    /// let viewModel = ProductViewModel(state: state, service: RecordedProductService(live: OfflineProductService()))
    /// return ReplayedViewModel(handle: { await viewModel.handle($0) }, snapshot: { state.snapshot })
    /// ```
    ///
    /// - Parameters:
    ///   - handle: the ViewModel's handler: `{ await viewModel.handle($0) }`.
    ///   - snapshot: the projection of its state class, read on the main actor when a handler returns.
    public init(handle: @escaping @Sendable (Action) async -> Void, snapshot: @escaping @MainActor @Sendable () -> State) {
        self.handle = handle
        self.snapshot = snapshot
    }
}

/// Replays a session of an actor ViewModel (recorded with `ViewModelRecorder`) into a fresh one,
/// with the recorded service answers, and compares each state snapshot and service call.
///
/// The ViewModel's services must be wrapped with `RecordedService`: on replay they never reach the
/// live service; each call is checked against the recorded one of its entry and gets the recorded
/// answer, in the recorded run order. The replay awaits each handler on the caller's task: no
/// thread is blocked, and overlapping handlers interleave as they did when recorded.
///
/// ```swift
/// let recording = try Journal(path: "product.actionlog").recordedSession(1)
/// let report = await ViewModelReplay<ProductSnapshot, ProductAction>(
///     recording: recording, services: ["ProductService"]
/// ) { initial in
///     let state = ProductState(initial)
///     let viewModel = ProductViewModel(state: state, service: RecordedProductService(live: OfflineProductService()))
///     return ReplayedViewModel(handle: { await viewModel.handle($0) }, snapshot: { state.snapshot })
/// }.run()
/// #expect(report.isMatch, "\(report)")
/// ```
///
/// A divergence names the entry, and what differs: the state snapshot, or the service call made
/// against the one recorded:
///
///     Replay diverged at entry 2 of session 1 "product card" of product.actionlog (viewDidLoad).
///
///       Service call 0:
///         − ProductService.fetchProduct("p-7")
///         + ProductService.fetchProduct("p-8")
///
///     (Recorded: −, Replayed: +)
public struct ViewModelReplay<State: Codable & Sendable, Action: Codable & Sendable>: Sendable {
    /// The session replayed.
    let recording: RecordedSession
    /// The services the replayed ViewModel uses; the session must have been recorded with the same.
    let services: [String]
    /// Fields to ignore, upcasters, and whether to go on after a state divergence.
    var options: ReplayOptions
    let make: @MainActor @Sendable (State) -> ReplayedViewModel<State, Action>

    /// Replays a session in memory.
    ///
    /// ```swift
    /// let replay = ViewModelReplay<ProductSnapshot, ProductAction>(
    ///     recording: try journal.recordedSession(1), services: ["ProductService"]
    /// ) { initial in … }
    /// ```
    ///
    /// - Parameters:
    ///   - recording: the session, with its handler records (`Journal.recordedSession(_:)` reads them).
    ///   - services: the names of the recorded services the ViewModel uses.
    ///   - options: fields to ignore, upcasters, stop at the first divergence.
    ///   - viewModel: makes the fresh ViewModel, given the recorded initial state; called once per run.
    public init(
        recording: RecordedSession, services: [String] = [], options: ReplayOptions = ReplayOptions(),
        viewModel: @escaping @MainActor @Sendable (State) -> ReplayedViewModel<State, Action>
    ) {
        self.recording = recording
        self.services = services
        self.options = options
        self.make = viewModel
    }

    /// Replays a session of a journal.
    ///
    /// ```swift
    /// let replay = try ViewModelReplay(journal: journal, session: 1, services: ["ProductService"]) { initial in … }
    /// ```
    ///
    /// - Parameters:
    ///   - journal: the journal.
    ///   - session: the session's id.
    ///   - services: the names of the recorded services the ViewModel uses.
    ///   - options: fields to ignore, upcasters, stop at the first divergence.
    ///   - viewModel: makes the fresh ViewModel, given the recorded initial state.
    /// - Throws: `ActionLogError` when the session cannot be read.
    public init(
        journal: Journal, session: JournalSession.ID, services: [String] = [], options: ReplayOptions = ReplayOptions(),
        viewModel: @escaping @MainActor @Sendable (State) -> ReplayedViewModel<State, Action>
    ) throws(ActionLogError) {
        self.init(recording: try journal.recordedSession(session), services: services, options: options, viewModel: viewModel)
    }

    /// Replays the whole session into a fresh ViewModel.
    ///
    /// ```swift
    /// let report = await replay.run()
    /// #expect(report.isMatch, "\(report)")
    /// ```
    ///
    /// - Returns: the report; divergences and entries that cannot be replayed are findings in it.
    public func run() async -> ReplayReport {
        await AsyncReplayRun<State, Action>(
            recording: recording, options: options, architecture: .actorViewModel, services: services, outputs: nil
        ).run(make: make)
    }
}

/// Replays a session of an event ViewModel (recorded with `EventViewModelRecorder`): feeds the
/// recorded `ViewEvent`s to a fresh ViewModel, with the recorded service answers, and compares
/// the `ViewModelEvent`s it emits with the recorded ones, entry by entry.
///
/// ```swift
/// let report = await EventViewModelReplay<SignInViewEvent, SignInViewModelEvent>(
///     recording: recording, services: ["AuthService"]
/// ) { emit in
///     let viewModel = SignInViewModel(service: RecordedAuthService(live: OfflineAuthService()))
///     viewModel.output.addHandler(emit)
///     return { await viewModel.handle(event: $0) }
/// }.run()
/// ```
///
/// A divergence names the `ViewEvent`'s entry, the index of the first differing output event among
/// that entry's, and its differing fields:
///
///     Replay diverged at entry 2 of session 1 "sign in" of sign-in.actionlog (signInTapped(email: "ada@example.com")).
///
///       Output event 1:
///         SignInViewModelEvent.signedIn(
///       −   name: "Ada"
///       +   name: "ada"
///         )
///
///     (Recorded: −, Replayed: +)
public struct EventViewModelReplay<ViewEvent: Codable & Sendable, ViewModelEvent: Codable & Sendable>: Sendable {
    /// The session replayed.
    let recording: RecordedSession
    /// The services the replayed ViewModel uses; the session must have been recorded with the same.
    let services: [String]
    /// Fields to ignore (in output events too) and upcasters for old `ViewEvent`s.
    var options: ReplayOptions
    let make: @MainActor @Sendable (_ emit: @escaping @Sendable (ViewModelEvent) -> Void) -> @Sendable (ViewEvent) async -> Void

    /// Replays a session in memory.
    ///
    /// ```swift
    /// let replay = EventViewModelReplay<SignInViewEvent, SignInViewModelEvent>(
    ///     recording: try journal.recordedSession(1), services: ["AuthService"]
    /// ) { emit in … }
    /// ```
    ///
    /// - Parameters:
    ///   - recording: the session, with its handler records.
    ///   - services: the names of the recorded services the ViewModel uses.
    ///   - options: fields to ignore, upcasters.
    ///   - viewModel: makes the fresh ViewModel, taps its output with `emit`, and returns its handler.
    public init(
        recording: RecordedSession, services: [String] = [], options: ReplayOptions = ReplayOptions(),
        viewModel: @escaping @MainActor @Sendable (_ emit: @escaping @Sendable (ViewModelEvent) -> Void) -> @Sendable (ViewEvent) async -> Void
    ) {
        self.recording = recording
        self.services = services
        self.options = options
        self.make = viewModel
    }

    /// Replays the whole session into a fresh ViewModel.
    ///
    /// ```swift
    /// let report = await replay.run()
    /// #expect(report.isMatch, "\(report)")
    /// ```
    ///
    /// - Returns: the report; divergences and entries that cannot be replayed are findings in it.
    public func run() async -> ReplayReport {
        // A damaged list of redacted paths is refused by the run before any event is compared.
        let redaction = (try? Redaction.recorded(in: recording.session.metadata).get()) ?? .none
        let outputs = OutputLog(ignoring: options.ignoring, redactor: redaction.outputs,
            dates: DateConvention.recorded(in: recording.session.metadata), eventType: ViewModelEvent.self)
        let make = self.make
        return await AsyncReplayRun<NoState, ViewEvent>(
            recording: recording, options: options, architecture: .eventViewModel, services: services, outputs: outputs
        ).run { _ in
            let handle = make { outputs.emitted($0) }
            return ReplayedViewModel(handle: handle, snapshot: { NoState() })
        }
    }
}
