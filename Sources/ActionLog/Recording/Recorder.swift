import Foundation

/// The recording middleware: turns each dispatch into an entry of a session, written in the background.
///
/// A store calls ``record(action:state:effect:reducerDuration:)`` after each reduce. That call does O(1)
/// work on the caller's thread: it hands the values (copy-on-write, nothing encoded) to a writer thread,
/// which encodes them, batches them into transactions and commits. Nothing a file or the disk does can
/// crash or stall the app: failures go to ``RecorderConfiguration/onError``, are counted in
/// ``statistics``, and what was lost is written as a `gap` entry.
///
/// ```swift
/// let recorder = try Recorder<Cart, CartAction, CartEffect>(
///     path: "cart.actionlog", sessionName: "checkout", initialState: cart
/// )
/// let effect = Cart.reduce(&cart, action)
/// recorder.record(action: action, state: cart, effect: effect)
/// // ...
/// recorder.close()   // flushes, then marks the session closed
/// ```
///
/// To record a reducer function without touching the store, wrap it with `recording(_:)`.
///
/// The writer encodes an action (or an effect) that is plain data — numbers, booleans, enums of
/// them, no strings, arrays or objects — once per distinct value, and stores the same text when the
/// same bytes come again; it labels each distinct action once (see ``ActionLabeled``). Like the state
/// (see `ChangeEncoder`), an action's `encode(to:)` must therefore depend on the action alone.
public final class Recorder<State: Encodable & Sendable, Action: Encodable & Sendable, Effect: Encodable & Sendable>: Sendable {
    @usableFromInline typealias Item = Step<State, Action, Effect>

    /// The session this recorder writes. In capture mode (``RecorderConfiguration/capture``), the
    /// session the last capture wrote, and 0 (no session) before the first.
    public var sessionID: JournalSession.ID {
        startedSession ?? captureGauge?.session ?? 0
    }
    /// The session created when the recorder started; `nil` in capture mode.
    private let startedSession: JournalSession.ID?
    /// In capture mode: the last session written, and what the window holds.
    private let captureGauge: CaptureGauge?
    /// Whether the recorder is in capture mode.
    var capturing: Bool { captureGauge != nil }
    /// The journal file.
    public let path: String
    @usableFromInline let handOff: HandOff<Item>
    /// How long `record` may wait for room; `nil`: as long as it takes (``RecorderConfiguration/Backpressure/block``).
    @usableFromInline let waitTimeout: Duration?

    /// Opens (or creates) the journal at `path`, starts a session and commits `initialState` as entry 0.
    ///
    /// In capture mode (``RecorderConfiguration/capture``), nothing is opened or written: the initial
    /// state starts the window kept in memory, and each capture writes a session of its own.
    ///
    /// Opening, encoding the initial state and committing it with the new session happen on the
    /// writer's thread; this initializer waits for them, so create the recorder at start-up rather than
    /// in the middle of a gesture. Either the session starts with its entry 0 on disk, or this throws
    /// and no session is left in the file.
    ///
    /// - Parameters:
    ///   - path: the journal file; created with its schema when missing.
    ///   - sessionName: a name for the session, shown by `replay-cli sessions`.
    ///   - initialState: the state before the first action.
    ///   - configuration: queue, batching, back-pressure, redaction, retention and error handling.
    /// - Throws: ``ActionLogError`` when the file cannot be opened for writing, is not a journal, or is newer
    ///   than this library; when the session and its entry 0 cannot be committed (a full disk, a
    ///   read-only file); with code ``ActionLogError/Code/encodingFailed`` when `initialState` does not
    ///   encode; with code ``ActionLogError/Code/invalidArgument`` when a redacted path is not a JSON
    ///   Pointer, or the metadata is not an object and so cannot list the redacted paths.
    public init(
        path: String,
        sessionName: String,
        initialState: State,
        configuration: RecorderConfiguration = RecorderConfiguration()
    ) throws(ActionLogError) {
        self.path = path
        self.handOff = HandOff(capacity: configuration.queueCapacity, byteCapacity: configuration.queueByteCapacity,
            batchSize: configuration.batchSize, batchInterval: configuration.batchInterval,
            waitsForFlush: configuration.writerWaitsForFlush)
        switch configuration.backpressure {
        case .drop: waitTimeout = .zero
        case .wait(let timeout): waitTimeout = max(.zero, timeout)
        case .block: waitTimeout = nil
        }
        let (redaction, metadata) = try Self.redaction(configuration, file: JournalFile.displayName(path))
        let description = SessionDescription(
            keyframes: configuration.keyframes,
            name: sessionName,
            stateType: String(reflecting: State.self),
            actionType: String(reflecting: Action.self),
            effectType: Effect.self == Never.self ? nil : String(reflecting: Effect.self),
            appVersion: configuration.appVersion,
            metadata: metadata,
            redaction: redaction
        )
        let started = WriterStart()
        let startedAt = Date()
        let handOff = self.handOff
        let reportError = configuration.onError
        // Once the handler has ended the process from a writer thread, it is not called again: a
        // second `exit` while the first runs is undefined behaviour (what is lost is in the file).
        let onError: @Sendable (ActionLogError) -> Void = { error in
            guard !handOff.processEndedOnWriterThread else { return }
            reportError(error)
        }
        let retention = configuration.retention
        let faults = configuration.writeFaults
        let checksums = configuration.writesChecksums
        let overloadQuietPeriod = configuration.overloadQuietPeriod
        let overloadClock = configuration.overloadClock
        let commitBytes = configuration.queueByteCapacity
        let initial = InitialState(initialState)
        let file = JournalFile.displayName(path)
        let handOffID = ObjectIdentifier(handOff)
        let captureGauge = configuration.capture.map { _ in CaptureGauge() }
        self.captureGauge = captureGauge
        let capture = configuration.capture.map { window in
            CaptureSetup(window: window, gauge: captureGauge ?? CaptureGauge()) { session in
                Self.applyRetention(retention, path: path, session: session, onError: onError)
            }
        }
        let thread = Thread {
            defer { OpenRecorders.remove(handOffID) }
            lowerCurrentThreadPriority()
            // In a closure of its own, so that the writer thread keeps no reference to the initial
            // state once it is written: one kept would share the app's buffers, and the app's next
            // in-place mutation would copy them.
            let start: Result<StepEncoder<State, Action, Effect>, ActionLogError> = {
                guard let state = initial.take() else {
                    return .failure(ActionLogError(.fileSystem, file: file, reason: "the writer thread started twice"))
                }
                do throws(ActionLogError) {
                    return .success(try StepEncoder(path: path, session: description, initialState: state, startedAt: startedAt, commitBytes: commitBytes, faults: faults, checksums: checksums,
                        overloadQuietPeriod: overloadQuietPeriod, overloadClock: overloadClock, capture: capture, onError: onError))
                } catch {
                    return .failure(error)
                }
            }()
            let writer: StepEncoder<State, Action, Effect>
            switch start {
            case .failure(let error):
                started.resolve(.failure(error))
                return
            case .success(let made):
                writer = made
            }
            // `exit` from the error handler on this thread (from here on, retention's reports too).
            handOff.onProcessEnd { writer.endOnProcessEnd(handOff) }
            handOff.didCommitDirectly()
            handOff.estimateStateBytes(writer.keyframeBytes)
            // Before the initializer returns, so that what it leaves in the journal is settled. (In
            // capture mode, after each capture.)
            if let session = writer.sessionID {
                Self.applyRetention(retention, path: path, session: session, onError: onError)
            }
            started.resolve(.success(writer.sessionID))
            writer.run(handOff)
        }
        thread.name = "ActionLog writer"
        thread.qualityOfService = .utility
        // Closed at the process's end unless the writer has finished before (see OpenRecorders),
        // whether `close()` was called or the recorder went away with its writer still writing.
        // Weakly: the registry keeps no hand-off alive; the writer thread forgets it as it ends.
        OpenRecorders.add(handOffID) { [weak handOff] in
            handOff?.closeAtProcessEnd()
        }
        thread.start()
        startedSession = try started.wait().get()
    }

    /// Closes the session if ``close()`` was not called. Does not wait for the writer; the process's
    /// normal end does, until the writer has committed what was handed over (see ``close()``).
    deinit {
        handOff.close(wait: false)
    }

    // MARK: - Recording

    /// Hands one dispatch to the writer. O(1) on the caller's thread: no encoding, no I/O.
    ///
    /// When the queue is full (by count or by bytes), ``RecorderConfiguration/backpressure`` decides:
    /// wait a bounded time, or drop and count, or wait for room. A dropped entry becomes a `gap` in the
    /// session. After ``close()`` this does nothing.
    ///
    /// - Parameters:
    ///   - action: the action that was reduced.
    ///   - state: the state the reducer produced.
    ///   - effect: the effect the reducer returned, if any.
    ///   - reducerDuration: how long the reducer took, if measured.
    @inlinable
    public func record(action: Action, state: State, effect: Effect?, reducerDuration: Duration? = nil) {
        _ = handOff.put(
            Item(action: action, state: state, effect: effect, time: Date(), reducerDuration: reducerDuration),
            timeout: waitTimeout
        )
    }

    /// Hands one step of an asynchronous handler to the writer, with what the handler did (see
    /// ``ViewModelRecorder``). O(1), as ``record(action:state:effect:reducerDuration:)``.
    func record(action: Action, state: State, handler: HandlerRecord, initialHandler: HandlerRecord? = nil, time: Date, duration: Duration?) {
        var item = Item(action: action, state: state, effect: nil, time: time, reducerDuration: duration)
        item.handler = handler
        item.initialHandler = initialHandler
        _ = handOff.put(item, timeout: waitTimeout)
    }

    /// Returns when everything handed over so far is committed (or, if it could not be, counted as
    /// lost, and reported once per episode of failures). Blocks the calling thread meanwhile: call it at moments that can wait, such as a
    /// scene moving to the background.
    public func flush() {
        handOff.flush()
    }

    /// Flushes, writes the gap of a loss not yet written, marks the session `closed`, stops the
    /// writer and closes its connection to the journal, all before it returns. Later calls do
    /// nothing. On a full disk the session's reserve of space is used for this; a file that accepts
    /// no write leaves the session `interrupted`, and ``RecorderConfiguration/onError`` says so.
    ///
    /// Closing folds the write-ahead log into the journal file and, when no other connection has the
    /// journal open, switches it back from WAL to a rollback journal: the `-wal` and `-shm` files go,
    /// and the `.actionlog` file alone holds every session, ready to copy or attach. With another
    /// recorder or reader still open, the files stay (everything committed is in the file or the log)
    /// and the last writer to close does the same. Calling it again does nothing, and what is recorded
    /// after it is ignored.
    ///
    /// A recorder still open when the process ends normally (`exit`, the end of `main`) is closed
    /// then: `exit` ends the process only once everything handed over is committed and the session
    /// is closed, however long a busy machine makes that (the work is bounded by what was handed
    /// over: nothing more is accepted). A disk that stops answering holds it up as it would hold up ``close()``.
    /// When `exit` is called on the writer's own threads (from ``RecorderConfiguration/onError``),
    /// the writer finishes there or, for what it can no longer encode, writes a `gap` that counts
    /// it and adds it to the session's `dropped`; the handler is not called again. A process
    /// killed, or an app the system terminates, runs no such handler: close the recorder where the
    /// app ends.
    ///
    /// ```swift
    /// recorder.close()
    /// // app.actionlog is now one self-contained file (when nothing else had it open)
    /// ```
    public func close() {
        handOff.close(wait: true)
    }

    /// The steps handed over that the writer has encoded and let go of so far (for tests): the
    /// initial state is not counted.
    package var encodedSteps: Int {
        handOff.encodedCount
    }

    /// In capture mode, the most bytes of encoded text the window has held so far (for the benchmark); 0 otherwise.
    package var captureHeldBytesPeak: Int {
        captureGauge?.peakBytes ?? 0
    }

    /// The counters so far: recorded, dropped, committed, lost, pending.
    public var statistics: RecorderStatistics {
        handOff.statistics()
    }

    /// Stops the writer as if the process had died: the session stays `recording` in the file, its lock
    /// is released, and entries not yet committed are lost. For tests of crash recovery.
    func abandon() {
        handOff.abandon()
    }
}

extension Recorder where Effect == Never {
    /// Records an action of a reducer that has no effects. See ``record(action:state:effect:reducerDuration:)``.
    @inlinable
    public func record(action: Action, state: State, reducerDuration: Duration? = nil) {
        record(action: action, state: state, effect: nil, reducerDuration: reducerDuration)
    }
}

/// Gives the calling thread (each of the writer's two) a lower priority than the app's threads: a thread that
/// waits in `record` under back-pressure runs again as soon as its time is up, instead of waiting for
/// the writer's time slice (measured with `actionlog-bench --backpressure`: with 2 MB states, the
/// slowest `.wait(50 ms)` call took 53-76 ms instead of 62-235 ms). On Apple platforms the thread's
/// quality of service (`.utility`) does this; on Linux, where quality of service means nothing, a nice
/// value of 5 for this thread alone (Linux keeps one per thread). The writer still gets every idle cycle.
func lowerCurrentThreadPriority() {
    #if canImport(Glibc)
    // `who` 0 is the calling thread on Linux. Lowering one's own priority needs no privilege.
    _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 5)
    #endif
}

/// Hands the initial state to the writer thread once and keeps no reference to it after.
private final class InitialState<State: Sendable>: Sendable {
    private let value: Locked<State?>

    init(_ state: State) {
        value = Locked(state)
    }

    /// The state, the first time; `nil` after.
    func take() -> State? {
        value.withLock { stored in
            let state = stored
            stored = nil
            return state
        }
    }
}

/// The writer thread's answer to the initializer: the new session's id (`nil` in capture mode), or why it could not start.
private final class WriterStart: Sendable {
    private let result = Locked<Result<JournalSession.ID?, ActionLogError>?>(nil)
    private let semaphore = DispatchSemaphore(value: 0)

    func resolve(_ value: Result<JournalSession.ID?, ActionLogError>) {
        result.withLock { $0 = value }
        semaphore.signal()
    }

    func wait() -> Result<JournalSession.ID?, ActionLogError> {
        semaphore.wait()
        return result.withLock { $0! }
    }
}
