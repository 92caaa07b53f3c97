/// How a ``Recorder`` hands entries to its writer and reports trouble.
///
/// A value with sensible defaults; change what you need:
///
/// ```swift
/// var configuration = RecorderConfiguration()
/// configuration.appVersion = "2.4.1 (311)"
/// configuration.backpressure = .drop          // or .block in tests and CI: nothing ever dropped
/// configuration.queueByteCapacity = 8 << 20   // at most 8 MiB of queued states
/// configuration.onError = { error in logger.warning("\(error)") }
/// let recorder = try Recorder(path: url.path, sessionName: "checkout", initialState: state, configuration: configuration)
/// ```
public struct RecorderConfiguration: Sendable {
    /// What `record` does when the hand-off queue is full because the writer fell behind.
    public enum Backpressure: Sendable, Equatable {
        /// Drop the entry and count it. The loss is written as a `gap` entry, so the session never looks complete.
        case drop
        /// Wait up to `timeout` for room, then drop as ``drop`` does. The caller is never blocked longer
        /// (the time is counted from when `record` finds the queue full; how soon the thread runs again after it is up to the system).
        case wait(timeout: Duration)
        /// Wait for room as long as the writer needs: nothing is ever dropped. For tests and CI
        /// recordings that must be complete, not for an app in users' hands: the dispatching thread
        /// runs at the writer's pace whenever the queue is full (a slow disk, a large state), and a
        /// disk that stalls stalls the app. Never call `record` from ``RecorderConfiguration/onError``
        /// with this policy: the writer calls the handler, so it would wait for itself.
        case block
    }

    /// Entries handed over and not yet written. Default 4096.
    public var queueCapacity = 4096
    /// The bytes of state the queue may hold, as the writer estimates them: each queued entry counts
    /// for the encoded size of the last keyframe the writer wrote (entry 0 at first), measured on the
    /// writer's thread, so `record` measures nothing. A queued state is counted whole because the
    /// app's next in-place mutation makes it a copy of its own. When the queue is full by count or by
    /// bytes, ``backpressure`` decides. One state larger than the whole capacity still goes through,
    /// one at a time. The writer also holds the steps it took and is encoding, and the encoded rows
    /// waiting for their commit (it commits once they hold this many bytes of state, whatever
    /// ``batchSize`` says), so what recording holds in memory stays within about three times this.
    /// Default 32 MiB: 16 states of 2 MB, 4096 of 8 KB.
    public var queueByteCapacity = 32 << 20
    /// Default: wait up to 50 ms, then drop.
    public var backpressure = Backpressure.wait(timeout: .milliseconds(50))
    /// The writer commits when this many entries are waiting... Default 256.
    public var batchSize = 256
    /// ...or when the oldest waiting entry is this old. Default 100 ms: at most that much is lost when
    /// the process dies (committed entries always survive).
    public var batchInterval = Duration.milliseconds(100)
    /// When the writer stores the full state (a keyframe) rather than the change (a delta).
    package var keyframes = KeyframePolicy()
    /// For an asynchronous ViewModel (``ViewModelRecorder``, ``EventViewModelRecorder``): how long
    /// the turn may stay with one handler, with other handlers waiting for it, before the recorder
    /// gives it on. Default 30 s; the recorder looks this often, so a turn is given on after one to two
    /// of these.
    ///
    /// A handler keeps its turn until it awaits a recorded call or returns. One that waits meanwhile
    /// for what only another handler's turn would give (it joins another handler's task, awaits a
    /// continuation another handler resumes) would keep the app waiting for ever; one that awaits a
    /// slow call no wrapper records keeps the other handlers waiting that long. Giving the turn on
    /// lets the app go on, and is the one place time decides the run order: the recorder reports it
    /// (``ActionLogError/Code/turnHeld``) and marks the entry as released, which
    /// replay reports as not reproducible. A turn that keeps passing from handler to handler is never
    /// taken, however long the queue; a loaded machine makes each turn longer, so keep this well above
    /// the longest turn a handler takes.
    ///
    /// ```swift
    /// configuration.turnRelease = .seconds(10)
    /// ```
    public var turnRelease = Duration.seconds(30)
    /// Stored with the session.
    public var appVersion: String?
    /// Free-form JSON object stored with the session (device, build, user id hash...).
    public var metadata: JSONValue = [:]
    /// Places whose values never reach the file: in the state, and, after a scope, in every action,
    /// effect, output event or service call. Each is written as a placeholder of the same JSON type
    /// (in keyframes and deltas alike), and the session's metadata lists the paths (under
    /// `actionlog.redactedPaths`) so that replay redacts what it replays the same way and compares
    /// placeholder with placeholder. Default: none.
    ///
    /// ```swift
    /// configuration.redactedPaths = [
    ///     "/user/token", "/cards/*/number",          // the state
    ///     "action:/signedIn/token",                  // case signedIn(token: String)
    ///     "effect:/storeToken/_0",                   // case storeToken(String)
    ///     "call:/AuthService/signIn/arguments/1",    // AuthService.signIn's second argument
    ///     "call:/AuthService/signIn/result/token",   // the token in its answer
    /// ]
    /// ```
    ///
    /// See ``RedactedPath`` for the syntax and where each scope is anchored. A type whose values are
    /// secret wherever they appear can be marked instead (``RedactedInJournal``, or wrapped in
    /// ``Redacted``). A path that is not one, or a call path naming a service the recorder was not
    /// given, is refused when the recorder starts.
    public var redactedPaths: [RedactedPath] = []
    /// How many sessions, how many bytes and how old a journal keeps, applied when a recorder opens
    /// it. Default: ``RetentionPolicy/keepEverything``.
    ///
    /// ```swift
    /// configuration.retention = RetentionPolicy(maximumSessions: 20, maximumBytes: 50_000_000, maximumAge: .seconds(7 * 86_400))
    /// ```
    public var retention = RetentionPolicy.keepEverything
    /// Capture mode: keep the last window of the session in memory and write it, as a closed
    /// session of its own, only when something goes wrong (``Recorder/capture(reason:)``, or an
    /// action the recorder loses). `nil`, the default: every entry is written as it comes.
    ///
    /// ```swift
    /// configuration.capture = CaptureWindow(entries: 5_000, duration: .seconds(60), bytes: 8 << 20)
    /// ```
    ///
    /// See <doc:CaptureMode>.
    public var capture: CaptureWindow?
    /// Called on the writer's thread for every failure: an entry that does not encode, entries dropped
    /// under back-pressure, a write that fails (once per episode: the next failures are only counted
    /// until a write succeeds again), a journal deleted or replaced while recording. The default prints
    /// to standard error. It may call `exit`: the session is still closed, and what the writer could
    /// not finish is counted in a gap (see ``Recorder/close()``); it is not called again after that.
    /// At the end of the process it must not wait for the thread that is ending it.
    public var onError: @Sendable (ActionLogError) -> Void = ActionLogError.printToStandardError
    /// For tests: the writer takes nothing from the queue until a flush or close asks for it, as a
    /// writer that fell behind would, so that a test can fill the queue and see what is dropped.
    /// (Otherwise the writer takes each entry as soon as it is handed over.)
    package var writerWaitsForFlush = false
    /// For tests: how long no step must be dropped for an overload to be over, so that the next drop
    /// is reported again (see ``ActionLogError/Code/dropped``). Under a sustained load the writer
    /// catches up and falls behind again many times a second; none of those is a new overload.
    package var overloadQuietPeriod: Duration = .seconds(1)
    /// For tests: the time an overload's quiet period is measured by, so that a test says when it
    /// has passed instead of sleeping past it (which a loaded machine may take longer than to run a round).
    package var overloadClock: @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    /// For tests where no small file system can be mounted: fails the writer's transactions as a full
    /// disk or a read-only file would.
    package var writeFaults: WriteFaults?
    /// For the benchmark's cost of checksums: `false` writes the entries after entry 0, and their
    /// handler records, without checksums, as an ActionLog before them did (they read and verify as
    /// such rows do).
    package var writesChecksums = true

    public init() {}
}

/// When the writer stores a full state (a keyframe) instead of the change from the previous state
/// (an RFC 6902 delta). Reading the state at any entry costs one keyframe plus the deltas after it,
/// and this policy bounds those deltas.
///
/// ```swift
/// var configuration = RecorderConfiguration()
/// configuration.keyframes.deltaBudget = 0.5      // more keyframes: faster random access, bigger file
/// configuration.keyframes = .keyframesOnly       // every entry a full state
/// ```
package struct KeyframePolicy: Sendable, Equatable {
    /// A new keyframe when the deltas since the last keyframe would add up to more bytes than the
    /// keyframe itself times this factor. A delta larger than the last keyframe is never written either.
    ///
    /// Default 2: in steady state keyframes take about a third of the bytes, and reading any state
    /// parses one keyframe and at most twice its size in patches. Patches apply in place, so the chain
    /// costs less than decoding the keyframe into the state type (measured with `actionlog-bench`: a
    /// 1,000-item cart reads back at a random step in 1.7× one keyframe parse + decode, at ~180 bytes
    /// per entry; with 1, 1.5× at ~205 bytes). Lower it for faster random access, raise it for smaller files.
    package var deltaBudget: Double
    /// At most this many deltas in a row, however small. Default 4096.
    ///
    /// After a keyframe larger than 512 KiB, the run may be longer: one delta per 128 bytes of the
    /// keyframe, when that is more: a state that grows (a history, a feed) would
    /// otherwise be written whole every few thousand entries, and the file would grow with the
    /// square of the session. The byte budget (``deltaBudget``) still bounds what a read applies.
    /// `0` (``keyframesOnly``) allows no delta at all.
    package var maximumDeltaRun: Int

    /// - Parameters:
    ///   - deltaBudget: the deltas' byte budget, as a multiple of the keyframe's size.
    ///   - maximumDeltaRun: the most deltas between two keyframes.
    package init(deltaBudget: Double = 2, maximumDeltaRun: Int = 4096) {
        self.deltaBudget = deltaBudget
        self.maximumDeltaRun = maximumDeltaRun
    }

    /// Every entry holds its full state.
    package static let keyframesOnly = KeyframePolicy(deltaBudget: 0, maximumDeltaRun: 0)
}

extension KeyframePolicy {
    /// What a session has spent of its policy since the last keyframe: decides, entry by entry,
    /// whether the next state may be stored as a delta. The recorder and anything else that writes
    /// sessions (re-recorded goldens) share it, so both place keyframes the same way.
    ///
    /// ```swift
    /// var budget = KeyframePolicy.Budget(KeyframePolicy())
    /// budget.keyframe(bytes: initialText.utf8.count)   // entry 0
    /// let (kind, text) = budget.store(delta: { (patchText, patchText.utf8.count) }, keyframe: { (stateText, stateText.utf8.count) })
    /// ```
    package struct Budget: Sendable {
        /// The policy being followed.
        package let policy: KeyframePolicy
        private var keyframeBytes = 0
        private var deltaBytes = 0
        private var deltaRun = 0

        /// A budget with nothing spent; the first entry must be a keyframe.
        ///
        /// - Parameter policy: the policy to follow.
        package init(_ policy: KeyframePolicy) {
            self.policy = policy
        }

        /// Whether another delta may follow at all (the run is not at ``KeyframePolicy/maximumDeltaRun``):
        /// check it before spending time on the patch's text.
        package var allowsDelta: Bool {
            guard policy.maximumDeltaRun > 0 else { return false }
            guard keyframeBytes > Self.largeKeyframe else { return deltaRun < policy.maximumDeltaRun }
            return deltaRun < max(policy.maximumDeltaRun, keyframeBytes / Self.keyframeBytesPerDelta)
        }

        /// A keyframe larger than this may be followed by a run longer than `maximumDeltaRun`.
        static let largeKeyframe = 512 << 10
        /// After a large keyframe, the run may be one delta per this many of its bytes.
        static let keyframeBytesPerDelta = 128

        /// Counts a delta of `size` bytes and returns `true` when the policy allows it: the run is not
        /// at its maximum, the delta is no larger than the last keyframe, and the deltas since that
        /// keyframe stay within its size times ``KeyframePolicy/deltaBudget``. Returns `false`, counting
        /// nothing, when the entry should be a keyframe instead.
        ///
        /// - Parameter size: the delta's size in bytes.
        package mutating func admitDelta(bytes size: Int) -> Bool {
            guard allowsDelta, size <= keyframeBytes, Double(deltaBytes + size) <= Double(keyframeBytes) * policy.deltaBudget else {
                return false
            }
            deltaBytes += size
            deltaRun += 1
            return true
        }

        /// Decides how the next state is stored, keyframe or delta: the one place the recorder and
        /// re-recorded goldens decide it. A delta when `delta` gives one (it is asked only while the
        /// run allows another) and ``admitDelta(bytes:)`` admits its size; otherwise the keyframe
        /// `keyframe` gives, which starts a new interval.
        ///
        /// ```swift
        /// let (kind, text) = budget.store(
        ///     delta: { patch.map { ($0.canonicalText, $0.canonicalText.utf8.count) } },
        ///     keyframe: { (state.canonicalText, state.canonicalText.utf8.count) })
        /// ```
        ///
        /// - Parameters:
        ///   - delta: what is stored for the change from the previous state, and its size in bytes;
        ///     `nil` when the change cannot be stored as one (after a step that did not encode, or a patch
        ///     that cannot be redacted).
        ///   - keyframe: what is stored for the full state, and its size in bytes.
        /// - Returns: the kind chosen and what it stores.
        package mutating func store<Stored>(
            delta: () throws -> (Stored, bytes: Int)?, keyframe: () throws -> (Stored, bytes: Int)
        ) rethrows -> (kind: Entry.Kind, stored: Stored) {
            if allowsDelta, let (stored, size) = try delta(), admitDelta(bytes: size) { return (.delta, stored) }
            let (stored, size) = try keyframe()
            self.keyframe(bytes: size)
            return (.keyframe, stored)
        }

        /// Starts a new interval at a keyframe of `size` bytes.
        ///
        /// - Parameter size: the keyframe's size in bytes.
        package mutating func keyframe(bytes size: Int) {
            keyframeBytes = size
            deltaBytes = 0
            deltaRun = 0
        }
    }
}
