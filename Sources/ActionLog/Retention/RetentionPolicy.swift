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
    /// (actions, states, effects, labels, gap notes), what a session costs the journal before
    /// SQLite's own overhead. `nil`: no limit. See ``Journal/prune(_:dryRun:now:)``.
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
    public var keepsEverything: Bool {
        maximumSessions == nil && maximumBytes == nil && maximumAge == nil
    }
}

/// What ``Journal/prune(_:dryRun:now:)`` removed (or, in a dry run, would remove), oldest first.
///
/// ```swift
/// let report = try journal.prune(RetentionPolicy(maximumSessions: 5), dryRun: true)
/// for removal in report.removed { print(removal.id, removal.name, removal.reason) }
/// ```
public struct PruneReport: Sendable, Equatable {
    /// Which limit made a session go.
    public enum Reason: Sendable, Equatable {
        /// It ended longer ago than ``RetentionPolicy/maximumAge``.
        case age
        /// It was beyond the newest ``RetentionPolicy/maximumSessions``.
        case count
        /// The sessions' bytes were over ``RetentionPolicy/maximumBytes``.
        case size
    }

    /// One session removed.
    public struct Removal: Sendable, Equatable {
        /// The session's id in the journal.
        public let id: Session.ID
        /// The session's name.
        public let name: String
        /// `closed` or `interrupted`: a live session is never removed.
        public let status: Session.Status
        /// Its entries, entry 0 and gaps included.
        public let entryCount: Int
        /// The UTF-8 bytes of its entries' texts (see ``RetentionPolicy/maximumBytes``).
        public let bytes: Int
        /// The first limit that made it go, in the order age, count, bytes.
        public let reason: Reason
    }

    /// The sessions removed, oldest first.
    public let removed: [Removal]
    /// Live sessions that a limit would have removed had they not been recording, by id.
    public let keptLive: [Session.ID]
    /// The sessions left.
    public let remainingSessions: Int
    /// The bytes of the sessions left, when ``RetentionPolicy/maximumBytes`` made them counted.
    public let remainingBytes: Int?
    /// Whether nothing was changed (``Journal/prune(_:dryRun:now:)`` with `dryRun`).
    public let dryRun: Bool
}
