import Foundation

/// Records an actor ViewModel behind a `Reducer` front: each action, the snapshot of its state class
/// when the handler returns, and the calls its handler made to recorded services.
///
/// Use it as the front the view calls: `send(_:)` (or calling it as a function) hands the action
/// over and returns at once, as `Reducer.callAsFunction` does with its `Task`. Give the projection of
/// the `@MainActor` state class to a `Codable` snapshot once; it is read on the main actor when each
/// handler returns.
///
/// ```swift
/// let state = ProductState()
/// let viewModel = ProductViewModel(state: state, service: RecordedProductService(live: LiveProductService()))
/// let reducer = try await ViewModelRecorder(
///     path: "product.actionlog", sessionName: "product card", services: ["ProductService"],
///     handle: { await viewModel.handle($0) },
///     snapshot: { state.snapshot }
/// )
/// reducer(.viewDidLoad)                            // O(1): the handler runs in a task
/// reducer(.onImageSliderAction(.onTapSlider(3)))
/// await reducer.settle()                           // every handler sent so far has returned
/// reducer.close()
/// ```
///
/// **Turns.** Handlers that overlap (a second action while the first awaits a service) take turns:
/// one runs at a time, from its start, or from a service's answer, until it awaits its next recorded
/// service call or returns. Starts are taken in the order actions were sent, answers in the order
/// the services gave them, each after the turn running ends. The journal records that run order
/// (its handler records), and replay gives the same turns in the same order, so a replay is the
/// recording again. An entry is written when its handler returns, so entries are in the order
/// handlers returned, each with the state at that moment. A handler that awaits something other than
/// a recorded service or the main actor keeps its turn meanwhile; one that keeps it, with another
/// handler waiting behind it, through a whole look of ``RecorderConfiguration/turnRelease`` (30 s by
/// default) has it taken, so that the app goes on: the recorder
/// reports ``ActionLogError/Code/turnHeld``, and the entry is marked as released
/// for replay to report as not reproducible.
///
/// The recording itself is a ``Recorder``: entries reach the journal through its writer thread, with
/// its configuration (back-pressure, redaction, keyframes, errors).
public final class ViewModelRecorder<State: Codable & Sendable, Action: Codable & Sendable>: Sendable {
    /// The recorder of the entries.
    package let recorder: Recorder<State, Action, Never>
    let core: AsyncRecordingCore<State, Action>

    /// Starts a session: reads the initial snapshot on the main actor and commits it as entry 0.
    ///
    /// - Parameters:
    ///   - path: the journal file; created with its schema when missing.
    ///   - sessionName: a name for the session.
    ///   - services: the names of the recorded services the ViewModel uses (the names given to `RecordedService`);
    ///     replay refuses to run with another set.
    ///   - configuration: the recorder's configuration.
    ///   - handle: the ViewModel's handler: `{ await viewModel.handle($0) }`.
    ///   - snapshot: the projection of the state class to the recorded state, read on the main actor.
    /// - Throws: ``ActionLogError`` as ``Recorder/init(path:sessionName:initialState:configuration:)``
    ///   does; with code ``ActionLogError/Code/invalidArgument`` when the configuration's metadata is
    ///   not a JSON object.
    public init(
        path: String, sessionName: String, services: [String] = [], configuration: RecorderConfiguration = RecorderConfiguration(),
        handle: @escaping @Sendable (Action) async -> Void,
        snapshot: @escaping @MainActor @Sendable () -> State
    ) async throws(ActionLogError) {
        let initial = await snapshot()
        recorder = try makeAsyncRecorder(
            path: path, sessionName: sessionName, architecture: .actorViewModel, services: services, outputType: nil,
            configuration: configuration, initialState: initial)
        core = AsyncRecordingCore(
            recorder: recorder, onError: configuration.onError, turnRelease: configuration.turnRelease, handle: handle, snapshot: snapshot)
    }

    /// Hands `action` to the ViewModel: its handler runs in a task of its own, in its turn. O(1), never blocks.
    ///
    /// ```swift
    /// reducer.send(.onTapAddToBasket)
    /// ```
    ///
    /// - Parameter action: the action the view sent.
    public func send(_ action: Action) {
        core.send(action)
    }

    /// The `Reducer` front's call: the same as ``send(_:)``.
    ///
    /// ```swift
    /// reducer(.viewDidLoad)
    /// ```
    ///
    /// - Parameter action: the action the view sent.
    public func callAsFunction(_ action: Action) {
        core.send(action)
    }

    /// Returns once every handler sent so far has returned and its entry is handed to the writer.
    ///
    /// ```swift
    /// reducer(.viewDidLoad)
    /// await reducer.settle()
    /// ```
    public func settle() async {
        await core.scheduler.settle()
    }

    /// In capture mode (``RecorderConfiguration/capture``), writes the window kept in memory as a
    /// session of its own, then the stretch after it; otherwise does nothing. See
    /// ``Recorder/capture(reason:)``. The window holds the entries of the handlers that returned
    /// before this call: ``settle()`` first to include those still running.
    ///
    /// ```swift
    /// await reducer.settle()
    /// reducer.capture(reason: "the tester tapped Report a bug")
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

    /// Flushes and closes the session. Handlers still running are not waited for (call ``settle()``
    /// first): their entries are not written. See ``Recorder/close()``.
    public func close() {
        recorder.close()
    }
}

/// Makes the recorder of an asynchronous session, with the architecture and the services in its metadata.
func makeAsyncRecorder<State: Codable & Sendable, Action: Codable & Sendable>(
    path: String, sessionName: String, architecture: SessionArchitecture, services: [String], outputType: String?,
    configuration: RecorderConfiguration, initialState: State
) throws(ActionLogError) -> Recorder<State, Action, Never> {
    guard case .object = configuration.metadata else {
        throw ActionLogError(
            .invalidArgument, file: JournalFile.displayName(path),
            reason: "the metadata is \(JSONPatch.describeType(configuration.metadata)), not an object, so it cannot name the recorded services")
    }
    // A call path names a service by its name: one not recorded is a typo that would let its secret through.
    for redacted in configuration.redactedPaths where redacted.scope == .call {
        guard case .name(let service)? = redacted.tokens?.first, !services.contains(service) else { continue }
        let recorded = services.isEmpty ? "the recorder has no services" : "the recorded services are \(services.joined(separator: ", "))"
        throw ActionLogError(
            .invalidArgument, file: JournalFile.displayName(path),
            reason: "the redacted path \(JSONPatch.quoted(redacted.description)) names the service \(JSONPatch.quoted(service)), but \(recorded)")
    }
    var configuration = configuration
    configuration.metadata = architecture.adding(services: services, outputType: outputType, to: configuration.metadata)
    return try Recorder(path: path, sessionName: sessionName, initialState: initialState, configuration: configuration)
}

/// What both asynchronous fronts share: turns, handler runs, and the journaling of their calls.
final class AsyncRecordingCore<State: Codable & Sendable, Action: Codable & Sendable>: HandlerHost {
    let recorder: Recorder<State, Action, Never>
    let scheduler: TurnScheduler
    /// Recorders write ISO 8601 dates (see ``DateConvention``).
    var dates: DateConvention { .iso8601 }
    private let handle: @Sendable (Action) async -> Void
    private let snapshot: @MainActor @Sendable () -> State
    private let nextToken = Locked(0)
    private let onError: @Sendable (ActionLogError) -> Void
    /// What the ViewModel did before the first action (`open` until then), and whether it has been
    /// handed to the writer, with the first entry written; and what was done outside any handler's
    /// work since, counted in all and since the last entry handed to the writer.
    private let outside = Locked<(open: Bool, initial: [HandlerRecord.Record], untracked: Int, sinceLastEntry: Int)>((true, [], 0, 0))

    init(
        recorder: Recorder<State, Action, Never>, onError: @escaping @Sendable (ActionLogError) -> Void, turnRelease: Duration,
        handle: @escaping @Sendable (Action) async -> Void, snapshot: @escaping @MainActor @Sendable () -> State
    ) {
        self.recorder = recorder
        self.handle = handle
        self.snapshot = snapshot
        self.onError = onError
        let file = JournalFile.displayName(recorder.path)
        let session = recorder.sessionID
        scheduler = TurnScheduler(releaseDelay: turnRelease) { holder, waiter, waited in
            onError(ActionLogError(.turnHeld, file: file, session: session, entry: nil,
                reason: """
                    the handler of action \(holder + 1) kept its turn for over \(waited) without awaiting a recorded call or \
                    returning, with the handler of action \(waiter + 1) waiting behind it: it waits for something ActionLog \
                    cannot see (another handler's task, a continuation, a stream, a sleep that is not on a RecordedClock). \
                    Its turn was given on, so the order from here was decided by time: the entry of action \(holder + 1) is \
                    marked, and replay reports it as not reproducible
                    """))
        }
    }

    func send(_ action: Action) {
        outside.withLock { $0.open = false }
        let token = nextToken.withLock { next in
            defer { next &+= 1 }
            return next
        }
        let ticket = scheduler.ask(for: token, starts: true)
        let time = Date()
        // Outside any handler's scope: an action sent from a handler (its output handler, say) is a
        // handler of its own, not work of the one that sent it.
        HandlerRun.$scope.withValue(nil) { Task { await run(action, token: token, ticket: ticket, time: time) } }
    }

    /// Runs the handler of one action in its turns, then hands its entry to the writer.
    private func run(_ action: Action, token: Int, ticket: TurnScheduler.Ticket, time: Date) async {
        let started = await ticket.wait()
        let run = HandlerRun(token: token, host: self)
        let clock = ContinuousClock()
        let start = clock.now
        await run.runOwnPath { await handle(action) }
        let duration = start.duration(to: clock.now)
        if !run.isWorkFinished {
            // The handler returned and tasks it started go on: the next turn is given, and the
            // entry is written once they have ended, with the state read in a turn of its own.
            scheduler.yield(token)
            await run.waitForWork()
            _ = await scheduler.ask(for: token, takesPlace: false).wait()
        }
        let state = await snapshot()
        let (initial, untracked): (HandlerRecord?, Int) = outside.withLock { outside in
            defer { (outside.initial, outside.sinceLastEntry) = ([], 0) }
            let initial = outside.initial.isEmpty ? nil : HandlerRecord(seq: 0, started: 0, records: outside.initial)
            return (initial, outside.sinceLastEntry)
        }
        let handler = HandlerRecord(
            seq: 0, started: started, records: run.records, releasedAt: scheduler.released(token), untrackedOutputs: untracked)
        recorder.record(
            action: action, state: state, handler: handler,
            initialHandler: initial, time: time, duration: duration)
        scheduler.finished(token)
    }

    /// An output event emitted outside any handler's work: before the first action it is entry 0's
    /// (a ViewModel set up in `bind` or `start()`); after, ActionLog cannot tell which action it
    /// answers (a timer, `Task.detached`, a GCD or delegate callback): said once, then counted.
    func emittedOutsideHandlers(_ record: HandlerRecord.Record, label: String) {
        let untracked: Int? = outside.withLock { outside in
            if outside.open {
                outside.initial.append(record)
                return nil
            }
            outside.untracked += 1
            outside.sinceLastEntry += 1
            return outside.untracked
        }
        guard untracked == 1 else { return }
        onError(ActionLogError(.untrackedWork, file: JournalFile.displayName(recorder.path), session: recorder.sessionID, entry: nil,
            reason: """
                the output event \(label) was emitted outside any handler's work (a timer, Task.detached, a GCD or \
                delegate callback), so no action can be said to have caused it: it is not journaled, and neither are \
                the ones after it that come the same way (counted in outsideHandlers, and in the journal with the \
                next entry written, for verify and log to name)
                """))
    }

    /// How many output events were emitted outside any handler's work after the first action, and
    /// so not journaled.
    var untrackedCount: Int { outside.withLock { $0.untracked } }

    func call<Result: Codable & Sendable>(
        _ request: CallRequest, in run: HandlerRun, live: () async throws -> Result
    ) async throws -> Result {
        // A call from the handler's own code gives its turn away until the answer; one made beside
        // it (an `async let` child, a task group's, a task it started) while that code still runs
        // does not: the handler goes on with its turn meanwhile.
        if run.callEndsTurn { scheduler.yield(run.token) }
        let outcome: Swift.Result<Result, any Error>
        do {
            // The live service runs outside the handler's scope: a recorded service it calls in turn
            // is part of this call, and a task it starts is not the handler's work.
            outcome = .success(try await HandlerRun.$scope.withValue(nil) { try await live() })
        } catch {
            outcome = .failure(error)
        }
        let answered = await scheduler.ask(for: run.token).wait()
        let recorded: ServiceCall.Outcome
        switch outcome {
        case .success(let value): recorded = .returned(RecordedService.encode(value))
        case .failure(let error): recorded = .threw(RecordedService.encode(error: error))
        }
        run.append(answered: ServiceCall(service: request.service, method: request.method, arguments: request.arguments, outcome: recorded, answered: answered))
        return try outcome.get()
    }
}
