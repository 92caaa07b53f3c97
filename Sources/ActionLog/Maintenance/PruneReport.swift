/// What ``Journal/prune(_:dryRun:now:)`` removed (or, in a dry run, would remove), oldest first.
///
/// ```swift
/// let report = try journal.prune(RetentionPolicy(maximumSessions: 5), dryRun: true)
/// for removal in report.removed { print(removal.id, removal.name, removal.reason) }
/// ```
package struct PruneReport: Sendable, Equatable {
    /// Which limit made a session go.
    package enum Reason: Sendable, Equatable {
        /// It ended longer ago than ``RetentionPolicy/maximumAge``.
        case age
        /// It was beyond the newest ``RetentionPolicy/maximumSessions``.
        case count
        /// The sessions' bytes were over ``RetentionPolicy/maximumBytes``.
        case size
    }

    /// One session removed.
    package struct Removal: Sendable, Equatable {
        /// The session's id in the journal.
        package let id: JournalSession.ID
        /// The session's name.
        package let name: String
        /// `closed` or `interrupted`: a live session is never removed.
        package let status: SessionHeader.Status
        /// Its entries, entry 0 and gaps included.
        package let entryCount: Int
        /// The UTF-8 bytes of its entries' texts (see ``RetentionPolicy/maximumBytes``).
        package let bytes: Int
        /// The first limit that made it go, in the order age, count, bytes.
        package let reason: Reason
    }

    /// The sessions removed, oldest first.
    package let removed: [Removal]
    /// Live sessions that a limit would have removed had they not been recording, by id.
    package let keptLive: [JournalSession.ID]
    /// The sessions left.
    package let remainingSessions: Int
    /// The bytes of the sessions left, when ``RetentionPolicy/maximumBytes`` made them counted.
    package let remainingBytes: Int?
    /// Whether nothing was changed (``Journal/prune(_:dryRun:now:)`` with `dryRun`).
    package let dryRun: Bool
}
