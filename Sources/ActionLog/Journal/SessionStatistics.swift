/// A summary of one session's entries: how they are stored, which actions ran, and how long the
/// reducer took. Made by ``Journal/statistics(in:labels:slowest:)``.
///
/// ```swift
/// let stats = try journal.statistics(in: 2)
/// print(stats.entries, stats.keyframes, stats.deltas, stats.gaps)
/// for label in stats.labels { print(label.label, label.entries) }
/// if let reducer = stats.reducer { print("p99:", reducer.p99) }
/// ```
///
/// Counts and byte sums saturate at `Int.max` instead of overflowing, whatever the file holds.
public struct SessionStatistics: Sendable, Hashable {
    /// The UTF-8 bytes of the session's stored texts, counted as `prune` counts them: their sum,
    /// ``total``, is what removing the session frees in the entries.
    public struct Bytes: Sendable, Hashable {
        /// The keyframes' and deltas' texts.
        public let states: Int
        /// The actions' texts.
        public let actions: Int
        /// The effects' texts.
        public let effects: Int
        /// The labels, the gaps' notes, and the texts of an asynchronous session's service calls and
        /// output events.
        public let other: Int

        /// All of the above, saturating at `Int.max`.
        public var total: Int {
            [states, actions, effects, other].reduce(0) { sum, bytes in
                let (result, overflow) = sum.addingReportingOverflow(bytes)
                return overflow ? .max : result
            }
        }
    }

    /// How many entries ran an action of one label.
    public struct LabelCount: Sendable, Hashable {
        /// The action's label (its case name), as stored.
        public let label: String
        /// How many entries have it.
        public let entries: Int
    }

    /// An entry and how long its reducer took.
    public struct TimedEntry: Sendable, Hashable {
        /// The entry's sequence number.
        public let seq: Int
        /// The entry's label, if it has one.
        public let label: String?
        /// How long the reducer took.
        public let duration: Duration
    }

    /// The reducer durations of the entries that recorded one.
    ///
    /// Percentiles are nearest-rank: the p-th percentile of n sorted durations is the one at rank
    /// ⌈p·n/100⌉, so it is always a duration that was recorded.
    public struct ReducerDurations: Sendable, Hashable {
        /// How many entries recorded a duration.
        public let entries: Int
        /// The median (nearest rank).
        public let p50: Duration
        /// The 99th percentile (nearest rank).
        public let p99: Duration
        /// The longest.
        public let max: Duration
        /// The slowest entries, slowest first; ties by sequence number.
        public let slowest: [TimedEntry]
    }

    /// The session's id.
    public let session: JournalSession.ID
    /// How many entries the session holds (entry 0, the initial state, included).
    public let entries: Int
    /// How many entries store their state whole.
    public let keyframes: Int
    /// How many entries store their state as a patch of the one before.
    public let deltas: Int
    /// How many entries mark actions the recorder lost.
    public let gaps: Int
    /// How many actions the gaps lost, in all.
    public let droppedActions: Int
    /// The stored bytes.
    public let bytes: Bytes
    /// How many different labels the entries have.
    public let distinctLabels: Int
    /// The labels, most frequent first, ties by label (byte order); cut at the limit asked for.
    public let labels: [LabelCount]
    /// The reducer durations; `nil` when no entry recorded one.
    public let reducer: ReducerDurations?

    /// ``Bytes/total`` divided by ``entries``, rounded down; 0 for a session without entries.
    public var bytesPerEntry: Int { entries > 0 ? bytes.total / entries : 0 }
}
