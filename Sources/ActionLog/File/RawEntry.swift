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
    /// entry holds a placeholder (`null`) in its place. See ``StateWalk/advance(past:keyframeText:)``.
    func parsedDeferringKeyframe(file: String) throws(ActionLogError) -> (entry: Entry, keyframeText: [UInt8]?) {
        guard kind == Entry.Kind.keyframe.rawValue, let text = state else { return (try parsed(file: file), nil) }
        // Read as a timeline reads it, which leaves a keyframe's state out: the placeholder.
        return (try parsed(file: file, readingStates: false), text)
    }

    /// Parses the row; the error names the file, session, entry and column.
    ///
    /// - Parameter readingStates: `false` for a reader that never looks at states (a timeline): a
    ///   keyframe's or delta's content is then an empty placeholder of its kind, and a damaged state
    ///   does not fail the read.
    func parsed(file: String, readingStates: Bool = true) throws(ActionLogError) -> Entry {
        func fail(_ reason: String) -> ActionLogError {
            // A sequence number stored as text or a blob reads as 0 (or its leading digits): it
            // names no entry, and the message says what it is instead.
            ActionLogError(.corrupt, file: file, session: session, entry: seqIsNumber ? Int(seq) : nil, reason: reason)
        }
        if let misstored {
            throw fail(seqIsNumber
                ? "the \(misstored.column) is stored as \(misstored.type), not as an integer"
                : "an entry's sequence number is stored as \(misstored.type), not as an integer")
        }
        guard let seq = Int(exactly: seq), seq >= 0 else {
            throw fail("the sequence number \(self.seq) is negative")
        }
        if let timeProblem { throw fail(timeProblem) }
        func json(_ bytes: [UInt8]?, _ column: String) throws(ActionLogError) -> JSONValue? {
            guard let bytes else { return nil }
            do {
                return try JSONValue(parsing: bytes)
            } catch {
                throw fail(Self.notJSON(column, error))
            }
        }
        let content: Entry.Content
        do {
            // A delta is read straight into its operations; anything wrong goes the general way, which names it.
            let patch = readingStates && kind == Entry.Kind.delta.rawValue ? state.flatMap(JSONPatch.parsing) : nil
            switch kind {
            case Entry.Kind.keyframe.rawValue where !readingStates: content = .keyframe(.null)
            case Entry.Kind.delta.rawValue where !readingStates: content = .delta(JSONPatch())
            default:
                if let patch {
                    content = .delta(patch)
                } else {
                    content = try Entry.Content(kind: kind, state: try json(state, "state"), dropped: dropped, note: note)
                }
            }
        } catch let problem as EntryProblem {
            throw fail(problem.reason)
        } catch let error as ActionLogError {
            throw error
        } catch {
            throw fail("\(error)")
        }
        return Entry(
            session: session, seq: seq,
            time: Date(timeIntervalSince1970: time),
            label: label,
            action: try json(action, "action"),
            content: content,
            effect: try json(effect, "effect"),
            reducerDuration: durationNanoseconds.map { .nanoseconds($0) }
        )
    }
}
