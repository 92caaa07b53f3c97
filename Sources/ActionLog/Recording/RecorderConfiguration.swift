/// How a ``Recorder`` hands entries to its writer and reports trouble.
///
/// A value with sensible defaults; change what you need:
///
/// ```swift
/// var configuration = RecorderConfiguration()
/// configuration.appVersion = "2.4.1 (311)"
/// configuration.backpressure = .drop
/// configuration.onError = { error in logger.warning("\(error)") }
/// let recorder = try Recorder(path: url.path, session: "checkout", initialState: state, configuration: configuration)
/// ```
public struct RecorderConfiguration: Sendable {
    /// What `record` does when the hand-off queue is full because the writer fell behind.
    public enum Backpressure: Sendable, Equatable {
        /// Drop the entry and count it. The loss is written as a `gap` entry, so the session never looks complete.
        case drop
        /// Wait up to `timeout` for room, then drop as ``drop`` does. The caller is never blocked longer.
        case wait(timeout: Duration)
    }

    /// Entries handed over and not yet written. Default 4096.
    public var queueCapacity = 4096
    /// Default: wait up to 50 ms, then drop.
    public var backpressure = Backpressure.wait(timeout: .milliseconds(50))
    /// The writer commits when this many entries are waiting... Default 256.
    public var batchSize = 256
    /// ...or when the oldest waiting entry is this old. Default 100 ms: at most that much is lost when
    /// the process dies (committed entries always survive).
    public var batchInterval = Duration.milliseconds(100)
    /// Stored with the session.
    public var appVersion: String?
    /// Free-form JSON object stored with the session (device, build, user id hash...).
    public var metadata: JSONValue = [:]
    /// Called on the writer's thread for every failure: an entry that does not encode, a write that
    /// fails, entries dropped under back-pressure. The default prints to standard error.
    public var onError: @Sendable (RecorderError) -> Void = RecorderError.printToStandardError

    public init() {}
}
