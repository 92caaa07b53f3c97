import Foundation

/// One step of a session: the action, the state it produced, the effect it emitted.
///
/// Entry 0 holds the initial state and no action. What an entry stores of the state is its
/// ``content``: the full state (a keyframe), the change from the previous entry's state (a delta),
/// or nothing, for actions that were lost (a gap: the writer fell behind, or a write failed).
///
/// ```swift
/// let entry = try journal.entry(3, in: session.id)
/// switch entry.content {
/// case .keyframe(let state): print("state", state.canonicalText)
/// case .delta(let patch): print("changed", patch)
/// case .gap(let dropped, _): print(dropped, "actions lost")
/// }
/// ```
///
/// To know the state after an entry, ask ``Journal/state(at:in:)``.
public struct Entry: Sendable, Hashable {
    /// How an entry's state is stored: the names the journal's `kind` column and the text form use.
    package enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The full state.
        case keyframe
        /// The change from the previous entry's state, as an RFC 6902 JSON Patch.
        case delta
        /// Lost actions: no action, no state.
        case gap
    }

    /// What an entry stores of the state.
    public enum Content: Sendable, Hashable {
        /// The full state after the entry.
        case keyframe(JSONValue)
        /// The change from the previous entry's state to this one's.
        case delta(JSONPatch)
        /// `dropped` actions (at least one) were lost here, for the reason in `note`; the state is
        /// unknown until the next keyframe.
        case gap(dropped: Int, note: String?)

        /// The kind of content, as the journal names it.
        package var kind: Kind {
            switch self {
            case .keyframe: .keyframe
            case .delta: .delta
            case .gap: .gap
            }
        }
    }

    /// The session's id in its journal (0 outside a journal).
    package let session: JournalSession.ID
    public let seq: Int
    public let time: Date
    /// The action's case name, e.g. `addToCart`, or `input.queryChanged` for a nested enum.
    public let label: String?
    /// The action as canonical JSON; `nil` for entry 0 and gaps.
    public let action: JSONValue?
    /// The state after the entry: in full, as a change, or lost.
    public let content: Content
    /// The effect the reducer returned, if any.
    public let effect: JSONValue?
    /// How long the reducer took.
    package let reducerDuration: Duration?

    /// How the state is stored: ``Content/kind`` of ``content``.
    package var kind: Kind { content.kind }

    /// Makes an entry, for code that builds sessions itself (importing a text form, re-recording a golden).
    ///
    /// ```swift
    /// let first = Entry(session: 0, seq: 0, time: .now, label: nil, action: nil,
    ///                   content: .keyframe(["count": 0]), effect: nil)
    /// ```
    ///
    /// - Parameters:
    ///   - session: the session's id (0 outside a journal).
    ///   - seq: the sequence number; entry 0 is the initial state.
    ///   - time: when the action was dispatched.
    ///   - label: the action's case name.
    ///   - action: the action's JSON; `nil` for entry 0 and gaps.
    ///   - content: the state: a keyframe, a delta or a gap.
    ///   - effect: the effect's JSON, if any.
    ///   - reducerDuration: how long the reducer took.
    package init(
        session: JournalSession.ID, seq: Int, time: Date, label: String?, action: JSONValue?, content: Content,
        effect: JSONValue?, reducerDuration: Duration? = nil
    ) {
        self.session = session
        self.seq = seq
        self.time = time
        self.label = label
        self.action = action
        self.content = content
        self.effect = effect
        self.reducerDuration = reducerDuration
    }

    /// This entry with another content (and, if given, another action and effect), everything else kept:
    /// how re-recording and migrating rewrite an entry.
    ///
    /// ```swift
    /// let rewritten = entry.replacing(content: .keyframe(replayedState))
    /// ```
    ///
    /// - Parameters:
    ///   - content: the new content.
    ///   - action: the new action, or `nil` to keep the entry's.
    ///   - effect: the new effect; pass `.some(nil)` to remove it, leave out to keep the entry's.
    package func replacing(content: Content, action: JSONValue? = nil, label: String? = nil, effect: JSONValue?? = .none) -> Entry {
        Entry(
            session: session, seq: seq, time: time, label: label ?? self.label, action: action ?? self.action,
            content: content, effect: effect ?? self.effect, reducerDuration: reducerDuration)
    }
}

// MARK: - The stored form

extension Entry.Content {
    /// Makes the content from its stored parts, checking the rules of a well-formed entry; every
    /// reader of stored entries (journal rows, the text form) comes through here, so each rule and
    /// its message exists once.
    ///
    /// - Parameters:
    ///   - kind: the stored kind's name.
    ///   - state: the stored state (keyframe) or patch (delta), already parsed.
    ///   - dropped: for a gap, how many actions were lost.
    ///   - note: for a gap, why.
    /// - Throws: the reason the parts are not an entry's content, as a sentence fragment.
    package init(kind: String, state: JSONValue?, dropped: Int64?, note: String?) throws(EntryProblem) {
        guard let known = Entry.Kind(rawValue: kind) else {
            throw EntryProblem("unknown entry kind \(JSONPatch.quoted(kind)) (expected keyframe, delta or gap)")
        }
        switch known {
        case .keyframe:
            guard let state else { throw EntryProblem("a keyframe without a state") }
            self = .keyframe(state)
        case .delta:
            guard let state else { throw EntryProblem("a delta without a patch") }
            do {
                self = .delta(try JSONPatch(state))
            } catch {
                throw EntryProblem("the delta is not a JSON Patch: \(error)")
            }
        case .gap:
            guard state == nil else { throw EntryProblem("a gap holding a state") }
            guard let dropped, dropped > 0, let count = Int(exactly: dropped) else {
                throw EntryProblem("a gap that lost no actions")
            }
            self = .gap(dropped: count, note: note)
        }
    }

    /// The stored state text's JSON: the keyframe's state, the delta's patch, `nil` for a gap.
    package var storedJSON: JSONValue? {
        switch self {
        case .keyframe(let state): state
        case .delta(let patch): patch.jsonValue
        case .gap: nil
        }
    }

    /// For a gap, how many actions were lost and why.
    package var gap: (dropped: Int, note: String?)? {
        if case .gap(let dropped, let note) = self { return (dropped, note) }
        return nil
    }
}

/// Why stored parts are not an entry: a sentence fragment that callers locate (file, session,
/// entry, line).
package struct EntryProblem: Error, Sendable {
    package let reason: String
    package init(_ reason: String) { self.reason = reason }
}

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
    /// entry holds a placeholder (`null`) in its place. See ``SessionStates/advance(past:keyframeText:)``.
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
