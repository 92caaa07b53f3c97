import Foundation

/// One entry as the `entries` table stores it, from the writer to every reader: the columns after the
/// session and the sequence number, the JSON ones as canonical UTF-8 bytes, not parsed.
///
/// The recorder (``EntryInserter``) and an import write it; every reader of a journal reads it
/// (``RawEntry``) and parses it into an ``Entry``, or an ``EntrySummary`` for a timeline.
struct StoredEntry: Sendable, Equatable {
    /// `keyframe`, `delta` or `gap` (``Entry/Kind``); a damaged file may hold anything.
    var kind: String
    /// Seconds since 1970, as stored.
    var time: Double
    var label: String?
    var action: [UInt8]?
    /// A keyframe's state, a delta's patch; `nil` for a gap.
    var state: [UInt8]?
    var effect: [UInt8]?
    var durationNanoseconds: Int64?
    /// For a gap, how many actions were lost.
    var dropped: Int64?
    /// For a gap, why.
    var note: String?

    /// The column names, in the order of the properties, after `session_id, seq`.
    static let columns = "kind, time, label, action, state, effect, duration_ns, dropped, note"
}

extension StoredEntry {
    /// An entry to write. Its kind is an ``Entry/Kind``: what the writer stores meets the schema's
    /// `CHECK` constraints by construction.
    init(
        _ kind: Entry.Kind, time: Date, label: String? = nil, action: [UInt8]? = nil, state: [UInt8]? = nil,
        effect: [UInt8]? = nil, durationNanoseconds: Int64? = nil, dropped: Int? = nil, note: String? = nil
    ) {
        self.init(
            kind: kind.rawValue, time: time.timeIntervalSince1970, label: label, action: action, state: state,
            effect: effect, durationNanoseconds: durationNanoseconds, dropped: dropped.map(Int64.init), note: note)
    }

    /// A gap of `dropped` lost actions, for the reason in `note`.
    static func gap(_ dropped: Int, note: String, time: Date) -> StoredEntry {
        StoredEntry(.gap, time: time, dropped: dropped, note: note)
    }

    /// Whether the entry is a gap.
    var isGap: Bool { kind == Entry.Kind.gap.rawValue }

    /// The actions the entry stands for: one, or what a gap lost.
    var actions: Int { isGap ? Int(clamping: dropped ?? 0) : 1 }
}

extension Entry {
    /// The entry as stored: its JSON as canonical text, everything else as it is.
    ///
    /// One switch, each case making the whole entry: the Swift 6.3.1 optimizer aborts (an ownership
    /// verifier error, release builds only) on a version that reads `content` twice, through
    /// `kind` and a second switch.
    var stored: StoredEntry {
        let (action, effect) = (self.action?.canonicalBytes, self.effect?.canonicalBytes)
        switch content {
        case .keyframe(let state):
            return StoredEntry(.keyframe, time: time, label: label, action: action, state: state.canonicalBytes, effect: effect, durationNanoseconds: durationNanoseconds)
        case .delta(let patch):
            return StoredEntry(.delta, time: time, label: label, action: action, state: patch.canonicalBytes, effect: effect, durationNanoseconds: durationNanoseconds)
        case .gap(let dropped, let note):
            return StoredEntry(.gap, time: time, label: label, action: action, effect: effect, durationNanoseconds: durationNanoseconds, dropped: dropped, note: note)
        }
    }
}
