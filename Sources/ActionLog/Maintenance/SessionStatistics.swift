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
package struct SessionStatistics: Sendable, Hashable {
    /// The UTF-8 bytes of the session's stored texts, counted as `prune` counts them: their sum,
    /// ``total``, is what removing the session frees in the entries.
    package struct Bytes: Sendable, Hashable {
        /// The keyframes' and deltas' texts.
        package let states: Int
        /// The actions' texts.
        package let actions: Int
        /// The effects' texts.
        package let effects: Int
        /// The labels, the gaps' notes, and the texts of an asynchronous session's service calls and
        /// output events.
        package let other: Int

        /// All of the above, saturating at `Int.max`.
        package var total: Int {
            [states, actions, effects, other].reduce(0) { sum, bytes in
                let (result, overflow) = sum.addingReportingOverflow(bytes)
                return overflow ? .max : result
            }
        }
    }

    /// How many entries ran an action of one label.
    package struct LabelCount: Sendable, Hashable {
        /// The action's label (its case name), as stored.
        package let label: String
        /// How many entries have it.
        package let entries: Int
    }

    /// An entry and how long its reducer took.
    package struct TimedEntry: Sendable, Hashable {
        /// The entry's sequence number.
        package let seq: Int
        /// The entry's label, if it has one.
        package let label: String?
        /// How long the reducer took.
        package let duration: Duration
    }

    /// The reducer durations of the entries that recorded one.
    ///
    /// Percentiles are nearest-rank: the p-th percentile of n sorted durations is the one at rank
    /// ⌈p·n/100⌉, so it is always a duration that was recorded.
    package struct ReducerDurations: Sendable, Hashable {
        /// How many entries recorded a duration.
        package let entries: Int
        /// The median (nearest rank).
        package let p50: Duration
        /// The 99th percentile (nearest rank).
        package let p99: Duration
        /// The longest.
        package let max: Duration
        /// The slowest entries, slowest first; ties by sequence number.
        package let slowest: [TimedEntry]
    }

    /// The session's id.
    package let session: JournalSession.ID
    /// How many entries the session holds (entry 0, the initial state, included).
    package let entries: Int
    /// How many entries store their state whole.
    package let keyframes: Int
    /// How many entries store their state as a patch of the one before.
    package let deltas: Int
    /// How many entries mark actions the recorder lost.
    package let gaps: Int
    /// How many actions the gaps lost, in all.
    package let droppedActions: Int
    /// The stored bytes.
    package let bytes: Bytes
    /// How many different labels the entries have.
    package let distinctLabels: Int
    /// The labels, most frequent first, ties by label (byte order); cut at the limit asked for.
    package let labels: [LabelCount]
    /// The reducer durations; `nil` when no entry recorded one.
    package let reducer: ReducerDurations?

    /// ``Bytes/total`` divided by ``entries``, rounded down; 0 for a session without entries.
    package var bytesPerEntry: Int { entries > 0 ? bytes.total / entries : 0 }
}
