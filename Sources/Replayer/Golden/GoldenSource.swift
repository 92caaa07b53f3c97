import ActionLog

/// Where a golden that does not exist yet comes from, when the record mode allows recording it.
///
/// ```swift
/// assertReplay(
///     golden: "fixtures/counter.jsonl",
///     of: .reducer(Counter.reduce, ifMissing: .actions(from: Counter(), [.increment, .increment, .reset]))
/// )
/// ```
public enum GoldenSource<State, Action> {
    /// Runs today's reducer from `initial` through `actions` and keeps what it produced. Times are
    /// left at zero, so recording twice gives the same file.
    case actions(from: State, [Action])
    /// A session recorded some other way: by a `Recorder` in the app or in the test, read back
    /// with `Journal.recordedSession(_:)`. Called only when the golden is missing; written in the
    /// deterministic time form (every time 0, no durations), as every golden a record mode writes.
    case recorded(() throws -> RecordedSession)
}
