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
    /// Entries handed over but lost by the writer: they did not encode, their transaction failed, or
    /// the journal was deleted or replaced (the batch committed just before the writer saw it, and
    /// everything after). Together with ``dropped``, what the session's gap entries add up to, unless
    /// the file stopped accepting writes before the recorder closed.
    public var lost: Int
    /// Entries handed over and not processed yet.
    public var pending: Int
}
