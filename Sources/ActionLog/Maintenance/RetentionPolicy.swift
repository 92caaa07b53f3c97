/// How much of its history a journal keeps: at most so many sessions, so many bytes, and none older
/// than a duration. The oldest closed or interrupted sessions go first; a live session (one a
/// recorder is writing now) is never removed, even when that leaves a limit exceeded.
///
/// ```swift
/// var configuration = RecorderConfiguration()
/// configuration.retention = RetentionPolicy(maximumSessions: 20, maximumAge: .seconds(7 * 86_400))
/// // or on demand:
/// let report = try Journal(path: "app.actionlog", mode: .readWrite).prune(configuration.retention)
/// ```
///
/// A recorder applies its configuration's policy when it opens the journal, on its writer thread
/// before the first entry, with its own new session counted (and kept). `replay-cli prune` applies
/// one on demand.
public struct RetentionPolicy: Sendable, Equatable {
    /// Keep at most this many sessions, live ones included: the newest. `nil`: no limit.
    public var maximumSessions: Int?
    /// Keep the sessions' stored bytes at or under this: the UTF-8 bytes of their entries' texts
    /// (actions, states, effects, labels, gap notes, and an asynchronous handler's service calls
    /// and output events), what a session costs the journal before
    /// SQLite's own overhead. `nil`: no limit. See `replay-cli prune`.
    public var maximumBytes: Int?
    /// Remove sessions that ended longer ago than this (an interrupted session ended at its last
    /// entry). `nil`: no limit.
    public var maximumAge: Duration?

    /// A policy; every limit left out is no limit. Negative limits count as zero.
    ///
    /// ```swift
    /// let policy = RetentionPolicy(maximumSessions: 10, maximumBytes: 20_000_000)
    /// ```
    ///
    /// - Parameters:
    ///   - maximumSessions: the most sessions to keep.
    ///   - maximumBytes: the most bytes of entries to keep.
    ///   - maximumAge: how long after its end a session is kept.
    public init(maximumSessions: Int? = nil, maximumBytes: Int? = nil, maximumAge: Duration? = nil) {
        self.maximumSessions = maximumSessions
        self.maximumBytes = maximumBytes
        self.maximumAge = maximumAge
    }

    /// No limit: every session is kept. The default of ``RecorderConfiguration/retention``.
    public static let keepEverything = RetentionPolicy()

    /// Whether the policy sets no limit at all.
    package var keepsEverything: Bool {
        maximumSessions == nil && maximumBytes == nil && maximumAge == nil
    }
}
