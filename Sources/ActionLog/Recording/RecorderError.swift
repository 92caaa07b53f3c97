import Foundation

/// A failure while recording. The app keeps running: the recorder reports it, counts it, writes a
/// `gap` entry for what was lost, and goes on.
///
///     checkout.actionlog, session 3, entry 42: action "addToCart" does not encode: ...; recorded as a gap
public struct RecorderError: Error, Sendable, CustomStringConvertible {
    public enum Code: Sendable, Equatable {
        /// An action, state or effect threw while encoding.
        case encodingFailed
        /// A transaction failed (disk full, read-only file, I/O error); its entries were lost. Reported
        /// once per episode: the failures after it are counted, not reported, until a write succeeds,
        /// and what they lost is then written as one gap. Also reported when the session cannot be
        /// marked closed.
        case writeFailed
        /// The journal file (or its write-ahead log) was deleted, moved away or replaced by another
        /// file while recording. Nothing more is written to the session, the new file at the path is
        /// left alone, and what is recorded from then on is counted as lost.
        case fileGone
        /// Entries were dropped because the writer fell behind. Reported once per overload: later
        /// drops are counted (in ``RecorderStatistics/dropped`` and in the session's gaps) without a
        /// report until the writer has kept up for a second (no step dropped for a second). Under a
        /// sustained load the writer catches up and falls behind many times a second: that is one
        /// overload, told once, not a report every few entries.
        case dropped
        /// `record` was called after `close()`.
        case recordAfterClose
        /// A keyframe showed that the state's `==` disagrees with its `encode(to:)`: the recorder now
        /// encodes that session's states in full.
        case equalityMismatch
        /// The retention policy could not be applied when the recorder opened the journal; the old
        /// sessions stay until the next recorder (or `replay-cli prune`) removes them.
        case retentionFailed
        /// An asynchronous handler kept its turn for over ``RecorderConfiguration/turnRelease`` without awaiting a recorded call or
        /// returning, with another handler waiting behind it (see ``ViewModelRecorder``): it waits for
        /// something ActionLog cannot see. Its turn was given on, so that the app goes on; the order
        /// from there was decided by time, so its entry is marked (``HandlerRecord/releasedAt``) and
        /// replay reports it as not reproducible.
        case turnHeld
        /// An event ViewModel emitted an output event outside any handler's work after its first
        /// action (from a timer, `Task.detached`, a GCD or delegate callback): it is not journaled.
        /// Said once per session; the rest are counted (``EventViewModelRecorder/outsideHandlers``).
        case untrackedWork
    }

    public let code: Code
    public let file: String
    public let session: Int64
    /// The entry concerned, where there is one.
    public let entry: Int?
    /// The explanation, without the location.
    public let reason: String

    /// `file, session N, entry M: reason`, with control and bidirectional characters escaped (as
    /// every ActionLog message is): a reason may quote a label or a path from the app.
    public var description: String {
        "\(file), session \(session)\(entry.map { ", entry \($0)" } ?? ""): \(reason)".displayEscaped
    }

    /// The default error handler: one line on standard error.
    public static let printToStandardError: @Sendable (RecorderError) -> Void = { error in
        FileHandle.standardError.write(Data("ActionLog: \(error)\n".utf8))
    }
}
