import Foundation

/// An entry row as stored: texts not parsed yet. Readers that must survive bad rows (verify) use it.
struct RawEntry: Sendable {
    let session: JournalSession.ID
    let seq: Int64
    let kind: String
    let time: Double
    let label: String?
    /// The JSON columns as stored bytes: parsed as they are, so that bytes that are not UTF-8 are
    /// refused by the parser, as in the text form, rather than read as U+FFFD.
    let action: [UInt8]?
    var state: [UInt8]?
    let effect: [UInt8]?
    let durationNanoseconds: Int64?
    let dropped: Int64?
    let note: String?
    /// An integer column (sequence number, duration, dropped count) that holds something else, and
    /// what: SQLite would read `1.5` as entry 1, so such a row is refused rather than rounded.
    let misstored: (column: String, type: String)?
    /// Why the time column is not a time a journal holds (``StoredTime``), when it is not.
    var timeProblem: String?
    /// Whether the sequence number is stored as a number (an integer, or a real number refused as
    /// ``misstored``): SQLite orders text and blobs after every number, so a cursor cannot go on
    /// from such a row by its value.
    var seqIsNumber = true

    static let columns = "session_id, seq, kind, time, label, action, state, effect, duration_ns, dropped, note"

    /// A row of which only the columns that rebuild a state were read.
    init(session: JournalSession.ID, seq: Int64, kind: String, state: [UInt8]?, dropped: Int64?, misstored: (column: String, type: String)?) {
        self.session = session
        self.seq = seq
        self.kind = kind
        self.time = 0
        self.label = nil
        self.action = nil
        self.state = state
        self.effect = nil
        self.durationNanoseconds = nil
        self.dropped = dropped
        self.note = nil
        self.misstored = misstored
    }

    init(row: Row) {
        session = row.int(0)
        seq = row.int(1)
        kind = row.text(2) ?? ""
        switch row.time(3, "the entry's time") {
        case .success(let seconds): time = seconds
        case .failure(let problem): time = 0; timeProblem = problem.reason
        case nil: time = 0; timeProblem = "the entry has no time"
        }
        label = row.text(4)
        action = row.bytes(5)
        state = row.bytes(6)
        effect = row.bytes(7)
        durationNanoseconds = row.optionalInt(8)
        dropped = row.optionalInt(9)
        note = row.text(10)
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
        guard kind == Entry.Kind.keyframe.rawValue, let text = state else { return (try parsed(file: file), nil) }
        return (try checked(file: file).entry(content: .keyframe(.null)), text)
    }

    /// The row as a timeline shows it: its state is neither read nor checked.
    func summary(file: String) throws(ActionLogError) -> EntrySummary {
        let row = try checked(file: file)
        let content: Entry.Content
        switch kind {
        case Entry.Kind.keyframe.rawValue: content = .keyframe(.null)
        case Entry.Kind.delta.rawValue: content = .delta(JSONPatch())
        default: content = try row.content(state: nil)
        }
        return try row.entry(content: content).summary
    }

    /// Parses the row; the error names the file, session, entry and column.
    func parsed(file: String) throws(ActionLogError) -> Entry {
        let row = try checked(file: file)
        // A delta is read straight into its operations; anything wrong goes the general way, which names it.
        if kind == Entry.Kind.delta.rawValue, let patch = state.flatMap(JSONPatch.parsing) {
            return try row.entry(content: .delta(patch))
        }
        return try row.entry(content: try row.content(state: try row.json(state, "state")))
    }

    /// A row whose integer and time columns are checked, with its sequence number, and how to fail
    /// naming its entry.
    private struct Checked {
        let raw: RawEntry
        let seq: Int
        let fail: (String) -> ActionLogError

        func json(_ bytes: [UInt8]?, _ column: String) throws(ActionLogError) -> JSONValue? {
            guard let bytes else { return nil }
            do {
                return try JSONValue(parsing: bytes)
            } catch {
                throw fail(RawEntry.notJSON(column, error))
            }
        }

        func content(state: JSONValue?) throws(ActionLogError) -> Entry.Content {
            do {
                return try Entry.Content(kind: raw.kind, state: state, dropped: raw.dropped, note: raw.note)
            } catch {
                throw fail(error.reason)
            }
        }

        /// The entry, its action and effect parsed after its content.
        func entry(content: Entry.Content) throws(ActionLogError) -> Entry {
            Entry(
                seq: seq, time: Date(timeIntervalSince1970: raw.time), label: raw.label, action: try json(raw.action, "action"),
                content: content, effect: try json(raw.effect, "effect"), reducerDuration: raw.durationNanoseconds.map { .nanoseconds($0) })
        }
    }

    private func checked(file: String) throws(ActionLogError) -> Checked {
        let session = session, seq = seq, seqIsNumber = seqIsNumber
        let fail = { (reason: String) in
            // A sequence number stored as text or a blob reads as 0 (or its leading digits): it
            // names no entry, and the message says what it is instead.
            ActionLogError(.corrupt, file: file, session: session, entry: seqIsNumber ? Int(seq) : nil, reason: reason)
        }
        if let misstored {
            throw fail(seqIsNumber
                ? "the \(misstored.column) is stored as \(misstored.type), not as an integer"
                : "an entry's sequence number is stored as \(misstored.type), not as an integer")
        }
        guard let checkedSeq = Int(exactly: seq), checkedSeq >= 0 else {
            throw fail("the sequence number \(seq) is negative")
        }
        if let timeProblem { throw fail(timeProblem) }
        return Checked(raw: self, seq: checkedSeq, fail: fail)
    }
}
