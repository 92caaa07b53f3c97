import Foundation

/// One step of a session: the action, the state it produced, the effect it emitted.
///
/// Entry 0 holds the initial state and no action. A ``Kind/gap`` entry stands for actions that were
/// lost (the writer fell behind, or a write failed); the entry after a gap holds a full state again.
///
/// ```swift
/// let entry = try journal.entry(3, in: session.id)
/// print(entry.label ?? "initial", entry.action?.canonicalText ?? "")
/// ```
public struct Entry: Sendable, Hashable {
    /// How the entry's state is stored.
    public enum Kind: String, Sendable, Hashable {
        /// The full state.
        case keyframe
        /// The change from the previous entry's state, as an RFC 6902 JSON Patch.
        case delta
        /// Lost actions: no action, no state.
        case gap
    }

    public let session: Session.ID
    public let seq: Int
    public let kind: Kind
    public let time: Date
    /// The action's case name, e.g. `addToCart`, or `input.queryChanged` for a nested enum.
    public let label: String?
    /// The action as canonical JSON; `nil` for entry 0 and gaps.
    public let action: JSONValue?
    /// The full state for a keyframe, the patch for a delta, `nil` for a gap.
    public let state: JSONValue?
    /// The effect the reducer returned, if any.
    public let effect: JSONValue?
    /// How long the reducer took.
    public let reducerDuration: Duration?
    /// For a gap: how many actions were lost.
    public let dropped: Int?
    /// For a gap: why the actions were lost.
    public let note: String?

    /// Makes an entry, for code that builds sessions itself (importing a text form, re-recording a golden).
    ///
    /// ```swift
    /// let first = Entry(session: 0, seq: 0, kind: .keyframe, time: .now, label: nil, action: nil,
    ///                   state: ["count": 0], effect: nil)
    /// ```
    ///
    /// - Parameters:
    ///   - session: the session's id (0 outside a journal).
    ///   - seq: the sequence number; entry 0 is the initial state.
    ///   - kind: how ``state`` is stored.
    ///   - time: when the action was dispatched.
    ///   - label: the action's case name.
    ///   - action: the action's JSON; `nil` for entry 0 and gaps.
    ///   - state: the full state (keyframe), the patch (delta), or `nil` (gap).
    ///   - effect: the effect's JSON, if any.
    ///   - reducerDuration: how long the reducer took.
    ///   - dropped: for a gap, how many actions were lost.
    ///   - note: for a gap, why.
    public init(
        session: Session.ID, seq: Int, kind: Kind, time: Date, label: String?, action: JSONValue?,
        state: JSONValue?, effect: JSONValue?, reducerDuration: Duration? = nil, dropped: Int? = nil, note: String? = nil
    ) {
        self.session = session
        self.seq = seq
        self.kind = kind
        self.time = time
        self.label = label
        self.action = action
        self.state = state
        self.effect = effect
        self.reducerDuration = reducerDuration
        self.dropped = dropped
        self.note = note
    }
}

/// An entry row as stored: texts not parsed yet. Readers that must survive bad rows (verify) use it.
struct RawEntry: Sendable {
    let session: Session.ID
    let seq: Int
    let kind: String
    let time: Double
    let label: String?
    let action: String?
    let state: String?
    let effect: String?
    let durationNanoseconds: Int64?
    let dropped: Int64?
    let note: String?

    static let columns = "session_id, seq, kind, time, label, action, state, effect, duration_ns, dropped, note"

    init(row: Row) {
        session = row.int(0)
        seq = Int(row.int(1))
        kind = row.text(2) ?? ""
        time = row.double(3)
        label = row.text(4)
        action = row.text(5)
        state = row.text(6)
        effect = row.text(7)
        durationNanoseconds = row.optionalInt(8)
        dropped = row.optionalInt(9)
        note = row.text(10)
    }

    /// Parses the row; the error names the file, session, entry and column.
    func parsed(file: String) throws(JournalError) -> Entry {
        guard let kind = Entry.Kind(rawValue: kind) else {
            throw JournalError(.corrupt, file: file, session: session, entry: seq, reason: "unknown entry kind \"\(self.kind)\"")
        }
        func json(_ text: String?, _ column: String) throws(JournalError) -> JSONValue? {
            guard let text else { return nil }
            do {
                return try JSONValue(parsing: text)
            } catch {
                throw JournalError(.corrupt, file: file, session: session, entry: seq, reason: "the \(column) is not valid JSON: \(error)")
            }
        }
        return Entry(
            session: session, seq: seq, kind: kind,
            time: Date(timeIntervalSince1970: time),
            label: label,
            action: try json(action, "action"),
            state: try json(state, "state"),
            effect: try json(effect, "effect"),
            reducerDuration: durationNanoseconds.map { .nanoseconds($0) },
            dropped: dropped.map { Int($0) },
            note: note
        )
    }
}
