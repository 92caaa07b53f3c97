/// What a ``Recorder`` did so far: how many entries were handed over, written, and lost.
///
/// ```swift
/// let stats = recorder.statistics
/// if stats.dropped > 0 { print("journal dropped \(stats.dropped) actions under load") }
/// ```
public struct RecorderStatistics: Sendable, Equatable {
    /// Entries handed to the writer (entry 0 included).
    public var recorded: Int
    /// Entries dropped on the dispatching side because the queue was full (or the recorder closed).
    public var dropped: Int
    /// Entries the writer committed.
    public var committed: Int
    /// Entries handed over but lost by the writer: they did not encode, or their transaction failed.
    public var lost: Int
    /// Entries handed over and not processed yet.
    public var pending: Int
}
