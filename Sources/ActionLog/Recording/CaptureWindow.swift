import Foundation

/// Capture mode: the recorder keeps the last stretch of the session in memory and writes it only
/// when something goes wrong, as a closed session of its own (see ``RecorderConfiguration/capture``).
///
/// The window is the last `entries` entries, those recorded in the last `duration` (by the
/// entries' own recorded times, never by a timer: what a capture holds does not depend on how busy
/// the machine is), and what fits in `bytes` of encoded text, whichever is smallest. Nothing is
/// written, and no file is created, until a trigger: ``Recorder/capture(reason:)``, or an action
/// the recorder loses (one that does not encode, or one dropped because the writer fell behind).
/// The trigger writes the window as a new session whose entry 0 is the full state at the window's
/// start, goes on writing the stretch after it (`followingEntries` entries, or the entries
/// recorded within `followingDuration` of the trigger, whichever ends first), then closes it.
///
/// ```swift
/// var configuration = RecorderConfiguration()
/// configuration.capture = CaptureWindow(
///     entries: 5_000, duration: .seconds(60), bytes: 8 << 20,
///     followingEntries: 200, followingDuration: .seconds(5))
/// configuration.redactedPaths = ["/user/token"]
/// let recorder = try Recorder(path: path, sessionName: "checkout", initialState: state, configuration: configuration)
/// // later, in the app's error handler or behind a "report a bug" button:
/// recorder.capture(reason: "checkout failed: \(error)")
/// ```
public struct CaptureWindow: Sendable, Equatable {
    /// The most entries the window holds (at least 1).
    package var entries: Int
    /// How far back, by the entries' recorded times, the window reaches from its newest entry.
    package var duration: Duration
    /// The most bytes of encoded text the window holds: the states (the full state at its start
    /// and the changes after it), actions and effects.
    package var bytes: Int
    /// The most entries written after a trigger.
    package var followingEntries: Int
    /// How long after the trigger, by the entries' recorded times, the entries written after it reach.
    package var followingDuration: Duration

    /// Describes the window capture mode keeps, and the stretch it writes after a trigger.
    ///
    /// ```swift
    /// configuration.capture = CaptureWindow(entries: 5_000, duration: .seconds(60), bytes: 8 << 20)
    /// ```
    ///
    /// - Parameters:
    ///   - entries: the most entries kept before a trigger (at least 1). Default 5,000.
    ///   - duration: how far back the kept entries reach, by their recorded times. Default 60 s.
    ///   - bytes: the most bytes of encoded states, actions and effects kept. Default 8 MiB. A state
    ///     larger than this cannot be kept: the window stays empty until a state that fits.
    ///   - followingEntries: the most entries written after the trigger. Default 200.
    ///   - followingDuration: how long after the trigger the entries written reach, by their
    ///     recorded times. Default 5 s. The session closes with the first entry past either limit,
    ///     or when the recorder closes.
    public init(
        entries: Int = 5_000, duration: Duration = .seconds(60), bytes: Int = 8 << 20,
        followingEntries: Int = 200, followingDuration: Duration = .seconds(5)
    ) {
        self.entries = max(1, entries)
        self.duration = max(.zero, duration)
        self.bytes = max(0, bytes)
        self.followingEntries = max(0, followingEntries)
        self.followingDuration = max(.zero, followingDuration)
    }
}
