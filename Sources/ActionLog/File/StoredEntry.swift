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

extension StoredEntry {
    /// The entry's checksum as the `checksum` column stores it: in its high 32 bits the CRC-32C
    /// (``RowChecksum``) of what rebuilds a state (``stateColumns``), in its low 32 bits that of
    /// what a timeline shows (``timelineColumns``), both with the sequence number. Each reader
    /// checks the half, or both, of the columns it reads: a walk to a state reads no label, a
    /// timeline no state.
    func checksum(seq: Int64) -> Int64 {
        Int64(bitPattern: UInt64(stateChecksum(seq: seq)) << 32 | UInt64(timelineChecksum(seq: seq)))
    }

    /// The columns of the high half, in order: `seq, kind, state, dropped`.
    static let stateColumns = "seq, kind, state, dropped"
    /// The columns of the low half, in order: every column but `session_id` and `state`.
    static let timelineColumns = "seq, kind, time, label, action, effect, duration_ns, dropped, note"

    func stateChecksum(seq: Int64) -> UInt32 {
        var checksum = RowChecksum()
        checksum.integer(seq)
        checksum.text(kind.utf8)
        checksum.text(state)
        checksum.integer(dropped)
        return checksum.crc
    }

    func timelineChecksum(seq: Int64) -> UInt32 {
        var checksum = RowChecksum()
        checksum.integer(seq)
        checksum.text(kind.utf8)
        checksum.real(time)
        checksum.text(label?.utf8)
        checksum.text(action)
        checksum.text(effect)
        checksum.integer(durationNanoseconds)
        checksum.integer(dropped)
        checksum.text(note?.utf8)
        return checksum.crc
    }
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
