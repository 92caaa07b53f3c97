import Foundation

/// An entry row as a reader finds it: where it is (session and sequence number) and what it stores,
/// with what is wrong with its integer and time columns noted rather than thrown, so that readers
/// that must survive bad rows (verify) can go on.
struct RawEntry: Sendable {
    let session: JournalSession.ID
    let seq: Int64
    var stored: StoredEntry
    /// An integer column (sequence number, duration, dropped count) that holds something else, and
    /// what: SQLite would read `1.5` as entry 1, so such a row is refused rather than rounded.
    let misstored: (column: String, type: String)?
    /// Why the time column is not a time a journal holds (``StoredTime``), when it is not.
    var timeProblem: String?
    /// Whether the sequence number is stored as a number (an integer, or a real number refused as
    /// ``misstored``): SQLite orders text and blobs after every number, so a cursor cannot go on
    /// from such a row by its value.
    var seqIsNumber = true
    /// What the row's checksum (``StoredEntry/checksum(seq:)``) says of it: checked once every other
    /// check of the row has passed, as its other problems say more. A row written before checksums
    /// (or by an older ActionLog) has none, and reads as it always did.
    var checksum = ChecksumCheck.absent

    static let columns = "session_id, seq, " + StoredEntry.columns

    /// In ``init(row:readingState:)``'s row: the columns of each half of the checksum, and the checksum.
    private static let stateHalf: [Int32] = [1, 2, 6, 9]
    private static let timelineHalf: [Int32] = [1, 2, 3, 4, 5, 7, 8, 9, 10]
    static let checksumColumn: Int32 = 11

    /// A row of which only the columns that rebuild a state were read.
    /// `row` holds `seq, kind, state, dropped, checksum` (see ``StoredEntry/stateColumns``).
    init(session: JournalSession.ID, stateRow row: Row) {
        // The checksum first, before a read converts a column to another type.
        let checksum = ChecksumCheck(row, column: 4, halves: [(shift: 32, columns: [0, 1, 2, 3])])
        self.session = session
        self.seq = row.int(0)
        self.stored = StoredEntry(kind: row.text(1) ?? "", time: 0, state: row.bytes(2), dropped: row.optionalInt(3))
        self.misstored = Self.misstored(row, seq: 0, duration: nil, dropped: 3)
        self.checksum = checksum
    }

    /// `row` holds ``columns`` and the checksum (or NULL where the file has none); without the state
    /// (NULL in its place) unless `readingState`.
    init(row: Row, readingState: Bool = true) {
        var halves: [(shift: UInt64, columns: [Int32])] = [(shift: 0, columns: Self.timelineHalf)]
        if readingState { halves.append((shift: 32, columns: Self.stateHalf)) }
        checksum = ChecksumCheck(row, column: Self.checksumColumn, halves: halves)
        session = row.int(0)
        seq = row.int(1)
        var time = 0.0
        switch row.time(3, "the entry's time") {
        case .success(let seconds): time = seconds
        case .failure(let problem): timeProblem = problem.reason
        case nil: timeProblem = "the entry has no time"
        }
        stored = StoredEntry(
            kind: row.text(2) ?? "", time: time, label: row.text(4), action: row.bytes(5), state: row.bytes(6),
            effect: row.bytes(7), durationNanoseconds: row.optionalInt(8), dropped: row.optionalInt(9), note: row.text(10))
        misstored = Self.misstored(row, seq: 1, duration: 8, dropped: 9)
        seqIsNumber = row.isNumber(1)
    }

    /// The first of the row's integer columns that holds something else; `duration` and `dropped` may be NULL.
    static func misstored(_ row: Row, seq: Int32, duration: Int32?, dropped: Int32) -> (column: String, type: String)? {
        if let type = row.nonIntegerType(seq) { return ("sequence number", type) }
        if let duration, !row.isNull(duration), let type = row.nonIntegerType(duration) { return ("duration", type) }
        if !row.isNull(dropped), let type = row.nonIntegerType(dropped) { return ("dropped count", type) }
        return nil
    }

    /// Why a JSON column does not parse: the one wording for a row's columns, parsed at once or later.
    static func notJSON(_ column: String, _ error: ActionLogError) -> String {
        "the \(column) is not valid JSON: \(error)"
    }

    /// The row parsed, except a keyframe's state: its stored text is handed back instead, and the
    /// entry holds `null` in its place until ``StateWalk/advance(past:keyframeText:)`` parses it.
    func parsedDeferringKeyframe(file: String) throws(ActionLogError) -> (entry: Entry, keyframeText: [UInt8]?) {
        guard stored.kind == Entry.Kind.keyframe.rawValue, let text = stored.state else { return (try parsed(file: file), nil) }
        let entry = try entry(seq: try checkedSeq(file: file), content: .keyframe(.null), file: file)
        try checkChecksum(file: file)
        return (entry, text)
    }

    /// The row as a timeline shows it: its state is neither read nor checked.
    func summary(file: String) throws(ActionLogError) -> EntrySummary {
        let seq = try checkedSeq(file: file)
        let kind: Entry.Kind
        var gap: (dropped: Int, note: String?)?
        switch stored.kind {
        case Entry.Kind.keyframe.rawValue: kind = .keyframe
        case Entry.Kind.delta.rawValue: kind = .delta
        default:
            let content = try content(state: nil, file: file)
            kind = content.kind
            gap = content.gap
        }
        let summary = EntrySummary(
            seq: seq, time: Date(timeIntervalSince1970: stored.time), label: stored.label, action: try json(stored.action, "action", file: file),
            effect: try json(stored.effect, "effect", file: file), reducerDuration: stored.durationNanoseconds.map { .nanoseconds($0) },
            kind: kind, gap: gap)
        try checkChecksum(file: file)
        return summary
    }

    /// Parses the row; the error names the file, session, entry and column.
    func parsed(file: String) throws(ActionLogError) -> Entry {
        let seq = try checkedSeq(file: file)
        // A delta is read straight into its operations; anything wrong goes the general way, which names it.
        let parsed: Entry
        if stored.kind == Entry.Kind.delta.rawValue, let patch = stored.state.flatMap(JSONPatch.parsing) {
            parsed = try entry(seq: seq, content: .delta(patch), file: file)
        } else {
            parsed = try entry(seq: seq, content: try content(state: try json(stored.state, "state", file: file), file: file), file: file)
        }
        try checkChecksum(file: file)
        return parsed
    }

    /// The last check of a row: every other check of it has passed, and its bytes are the ones written.
    private func checkChecksum(file: String) throws(ActionLogError) {
        if let problem = checksum.problem("the entry") { throw fail(problem, file: file) }
    }

    /// The entry with `content`, its action and effect parsed after it.
    private func entry(seq: Int, content: Entry.Content, file: String) throws(ActionLogError) -> Entry {
        Entry(
            seq: seq, time: Date(timeIntervalSince1970: stored.time), label: stored.label, action: try json(stored.action, "action", file: file),
            content: content, effect: try json(stored.effect, "effect", file: file), reducerDuration: stored.durationNanoseconds.map { .nanoseconds($0) })
    }

    private func json(_ bytes: [UInt8]?, _ column: String, file: String) throws(ActionLogError) -> JSONValue? {
        guard let bytes else { return nil }
        do {
            return try JSONValue(parsing: bytes)
        } catch {
            throw fail(Self.notJSON(column, error), file: file)
        }
    }

    private func content(state: JSONValue?, file: String) throws(ActionLogError) -> Entry.Content {
        do {
            return try Entry.Content(kind: stored.kind, state: state, dropped: stored.dropped, note: stored.note)
        } catch {
            throw fail(error.reason, file: file)
        }
    }

    /// The sequence number, once the integer and time columns are checked.
    private func checkedSeq(file: String) throws(ActionLogError) -> Int {
        if let misstored {
            throw fail(seqIsNumber
                ? "the \(misstored.column) is stored as \(misstored.type), not as an integer"
                : "an entry's sequence number is stored as \(misstored.type), not as an integer", file: file)
        }
        guard let seq = Int(exactly: seq), seq >= 0 else {
            throw fail("the sequence number \(seq) is negative", file: file)
        }
        if let timeProblem { throw fail(timeProblem, file: file) }
        return seq
    }

    /// An error about this row, naming the file, the session and the entry.
    private func fail(_ reason: String, file: String) -> ActionLogError {
        // A sequence number stored as text or a blob reads as 0 (or its leading digits): it names no
        // entry, and the message says what it is instead.
        ActionLogError(.corrupt, file: file, session: session, entry: seqIsNumber ? Int(seq) : nil, reason: reason)
    }
}
