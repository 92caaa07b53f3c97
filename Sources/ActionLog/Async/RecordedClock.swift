
/// A `Clock` whose sleeps inside a recorded handler are journaled as service calls, and answered
/// from the journal on replay, so that a replay never sleeps in real time.
///
/// Give it to a ViewModel where it takes its clock, in one line:
///
/// ```swift
/// actor SearchViewModel {
///     let clock: any Clock<Duration>
///     private var generation = 0
///
///     init(clock: any Clock<Duration> = RecordedClock()) { self.clock = clock }
///
///     func handle(_ action: SearchAction) async {
///         guard case .queryChanged(let query) = action else { return }
///         generation += 1
///         let mine = generation
///         do { try await clock.sleep(for: .milliseconds(300)) } catch { return }   // debounce
///         guard mine == generation else { return }
///         …
///     }
/// }
/// ```
///
/// What a sleep does depends on where it is made, as a ``RecordedService`` call does:
///
/// - in a handler run by a ``ViewModelRecorder`` or ``EventViewModelRecorder``, the wrapped clock
///   sleeps, and the sleep is journaled with the handler's entry as the call
///   `RecordedClock.sleep("0.3 s")`: service `RecordedClock`, method `sleep`, one argument, the
///   duration slept as exact decimal seconds, never an instant, so every
///   recording of the same script journals the same call. Its answer is `null`, or the error the
///   sleep threw (a `CancellationError` when its task was cancelled);
/// - in a handler replayed by the Replayer, the wrapped clock is never called: the sleep is checked
///   against the recorded one and returns at once, or throws the recorded error (a
///   `CancellationError` again for a sleep that was cancelled);
/// - anywhere else, it is the wrapped clock: ``now`` reads it and a sleep sleeps on it.
///
/// **Virtual time.** Inside a recorded or replayed handler, ``now`` is virtual: each handler (with
/// the tasks it starts) has its own time line, which starts at the clock's origin (the instant the
/// clock was made) and advances only by the sleeps that handler's path finished
/// on this clock, to their deadlines. So `clock.now.advanced(by:)` followed by `sleep(until:)`
/// journals the same duration in every recording, and a replay sees the same instants. This is
/// also why a handler cannot measure how long a live service took with this clock (its `now` does
/// not move while it waits), nor compare instants read by two different handlers (each starts at
/// the origin): send the time into the ViewModel as part of an action when it matters.
///
/// **Listing it.** The clock's calls are journaled under the reserved service name
/// `RecordedClock`; it need not, and should not, be listed among the `services:` of a recorder or a
/// replay (the check of the recorded services leaves it out).
///
/// **`Task.sleep`.** A ViewModel that calls `Task.sleep(for:)` directly sleeps on the
/// `ContinuousClock`, which nothing can journal; each such call needs the clock named, which is one
/// edit at each call site: `Task.sleep(for: .seconds(5), clock: .recorded)` (see ``recorded``).
/// `Task.sleep(nanoseconds:)` has no clock parameter: write `Task.sleep(for: .nanoseconds(n), clock: .recorded)`.
public struct RecordedClock: Clock {
    /// A moment of a ``RecordedClock``: a duration since its origin, the instant the clock was made.
    ///
    /// ```swift
    /// let deadline = clock.now.advanced(by: .seconds(1))
    /// try await clock.sleep(until: deadline)
    /// ```
    public struct Instant: InstantProtocol {
        /// How long after the clock's origin this instant is.
        package var sinceOrigin: Duration

        /// The instant `duration` after the clock's origin.
        ///
        /// ```swift
        /// let start = RecordedClock.Instant(sinceOrigin: .zero)
        /// ```
        ///
        /// - Parameter sinceOrigin: how long after the origin.
        package init(sinceOrigin: Duration) {
            self.sinceOrigin = sinceOrigin
        }

        /// The clock's origin: where a handler's virtual time line starts.
        package static var origin: Instant { Instant(sinceOrigin: .zero) }

        /// The instant `duration` later (earlier when negative).
        ///
        /// - Parameter duration: how much later.
        /// - Returns: the instant.
        public func advanced(by duration: Duration) -> Instant {
            Instant(sinceOrigin: sinceOrigin + duration)
        }

        /// The duration from this instant to `other`.
        ///
        /// - Parameter other: the later instant.
        /// - Returns: `other` minus this instant.
        public func duration(to other: Instant) -> Duration {
            other.sinceOrigin - sinceOrigin
        }

        /// Whether `lhs` comes before `rhs`.
        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.sinceOrigin < rhs.sinceOrigin
        }
    }


    private let wrapped: WrappedClock
    private let timelines = Timelines()
    private let service = RecordedService(SessionArchitecture.clockService)

    /// A recorded clock over the `ContinuousClock`.
    ///
    /// ```swift
    /// let viewModel = SearchViewModel(clock: RecordedClock())
    /// ```
    public init() {
        self.init(wrapping: ContinuousClock())
    }

    /// A recorded clock over `clock`: what it reads and sleeps on outside replay.
    ///
    /// ```swift
    /// let viewModel = SearchViewModel(clock: RecordedClock(wrapping: SuspendingClock()))
    /// ```
    ///
    /// - Parameter clock: the clock to read and sleep on while recording and outside handlers.
    public init<Wrapped: Clock>(wrapping clock: Wrapped) where Wrapped.Duration == Duration {
        wrapped = WrappedClock(clock)
    }

    /// A shared recorded clock over the `ContinuousClock`, for `Task.sleep`'s `clock:` argument.
    ///
    /// ```swift
    /// try await Task.sleep(for: .seconds(5), clock: .recorded)   // was: Task.sleep(for: .seconds(5))
    /// ```
    package static let shared = RecordedClock()

    /// Now: the wrapped clock's time since the origin; inside a recorded or replayed handler, the
    /// handler's virtual time (the origin, advanced by the sleeps it finished).
    public var now: Instant {
        if let run = Self.handlerRun { return Instant(sinceOrigin: timelines.now(of: run)) }
        return Instant(sinceOrigin: wrapped.now())
    }

    /// The wrapped clock's minimum resolution.
    public var minimumResolution: Duration { wrapped.minimumResolution }

    /// Sleeps until `deadline`: on the wrapped clock, journaled inside a recorded handler; answered
    /// from the journal, at once, inside a replayed one.
    ///
    /// ```swift
    /// try await clock.sleep(until: clock.now.advanced(by: .milliseconds(300)))
    /// ```
    ///
    /// - Parameters:
    ///   - deadline: when to wake up.
    ///   - tolerance: how late the wrapped clock may wake up; not journaled.
    /// - Throws: `CancellationError` when the task is cancelled (on replay: when the recorded sleep
    ///   was); on replay, a ``ActionLogError`` of code ``ActionLogError/Code/serviceCallDiverged`` when the handler sleeps where the recording
    ///   has another call, which the replay reports.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        guard let run = Self.handlerRun else {
            return try await wrapped.sleepUntil(deadline.sinceOrigin, tolerance)
        }
        let duration = deadline.sinceOrigin - timelines.now(of: run)
        try await service.call("sleep", Self.journaled(duration)) {
            try await wrapped.sleepFor(duration, tolerance)
        }
        timelines.advance(run, to: deadline.sinceOrigin)
    }

    /// How a sleep's duration is journaled: exact decimal seconds and ` s`, without trailing zeros
    /// (`"0.3 s"`, `"5 s"`, `"-0.000000001 s"`), the same text for the same `Duration`.
    ///
    /// ```swift
    /// RecordedClock.journaled(.milliseconds(300))   // "0.3 s"
    /// ```
    ///
    /// - Parameter duration: the duration slept.
    /// - Returns: its text.
    package static func journaled(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let negative = seconds < 0 || attoseconds < 0
        // Both components carry the sign; their magnitudes are at most Int64.max and 10^18 - 1.
        let whole = seconds.magnitude
        var fraction = String(attoseconds.magnitude)
        fraction = String(repeating: "0", count: max(0, 18 - fraction.count)) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return (negative ? "-" : "") + "\(whole)" + (fraction.isEmpty ? "" : ".\(fraction)") + " s"
    }

    /// The handler whose sleeps are journaled or replayed now; `nil` outside one, or inside the
    /// live call of a recorded service (which is not journaled either).
    private static var handlerRun: HandlerRun? {
        guard let run = HandlerRun.current else { return nil }
        return run
    }
}

extension Clock where Self == RecordedClock {
    /// A shared recorded clock over the `ContinuousClock`: `Task.sleep(for: .seconds(5), clock: .recorded)` is
    /// journaled inside a recorded handler and does not sleep on replay.
    ///
    /// ```swift
    /// try await Task.sleep(for: .milliseconds(300), clock: .recorded)
    /// ```
    public static var recorded: RecordedClock { .shared }
}

// MARK: - The wrapped clock

/// The wrapped clock, with its type erased: its instants as durations since the instant it was
/// wrapped.
private struct WrappedClock: Sendable {
    let now: @Sendable () -> Duration
    let sleepUntil: @Sendable (Duration, Duration?) async throws -> Void
    let sleepFor: @Sendable (Duration, Duration?) async throws -> Void
    let minimumResolution: Duration

    init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let origin = clock.now
        now = { origin.duration(to: clock.now) }
        sleepUntil = { offset, tolerance in try await clock.sleep(until: origin.advanced(by: offset), tolerance: tolerance) }
        sleepFor = { duration, tolerance in try await clock.sleep(for: duration, tolerance: tolerance) }
        minimumResolution = clock.minimumResolution
    }
}

// MARK: - Virtual time lines

/// Each handler's virtual now, by handler run. A run's line is dropped once the run is gone (it
/// is looked up by identity, and an identity can be reused by a later run: the weak reference
/// tells them apart).
private final class Timelines: Sendable {
    private struct Line {
        weak var run: HandlerRun?
        var now: Duration
    }
    private let lines = Locked<[ObjectIdentifier: Line]>([:])

    func now(of run: HandlerRun) -> Duration {
        lines.withLock { lines in
            guard let line = lines[ObjectIdentifier(run)], line.run === run else { return .zero }
            return line.now
        }
    }

    /// Moves `run`'s now to `deadline` when that is later (sleeps side by side end at the latest).
    func advance(_ run: HandlerRun, to deadline: Duration) {
        lines.withLock { lines in
            lines = lines.filter { $0.value.run != nil }
            let key = ObjectIdentifier(run)
            let current = lines[key].flatMap { $0.run === run ? $0.now : nil } ?? .zero
            lines[key] = Line(run: run, now: max(current, deadline))
        }
    }
}
