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
    /// let first = Entry(seq: 0, time: .now, label: nil, action: nil,
    ///                   content: .keyframe(["count": 0]), effect: nil)
    /// ```
    ///
    /// - Parameters:
    ///   - seq: the sequence number; entry 0 is the initial state.
    ///   - time: when the action was dispatched.
    ///   - label: the action's case name.
    ///   - action: the action's JSON; `nil` for entry 0 and gaps.
    ///   - content: the state: a keyframe, a delta or a gap.
    ///   - effect: the effect's JSON, if any.
    ///   - reducerDuration: how long the reducer took.
    package init(
        seq: Int, time: Date, label: String?, action: JSONValue?, content: Content,
        effect: JSONValue?, reducerDuration: Duration? = nil
    ) {
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
            seq: seq, time: time, label: label ?? self.label, action: action ?? self.action,
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

/// What a timeline shows of an entry: everything but its state, so that a damaged state fails only
/// the readers that need it (`replay-cli log`, the viewer's timeline).
package struct EntrySummary: Sendable {
    package let seq: Int
    package let time: Date
    package let label: String?
    package let action: JSONValue?
    package let effect: JSONValue?
    package let reducerDuration: Duration?
    package let kind: Entry.Kind
    /// For a gap, how many actions were lost and why.
    package let gap: (dropped: Int, note: String?)?
}

extension Entry {
    /// The entry as a timeline shows it.
    package var summary: EntrySummary {
        EntrySummary(
            seq: seq, time: time, label: label, action: action, effect: effect, reducerDuration: reducerDuration, kind: kind,
            gap: content.gap)
    }
}

/// Why stored parts are not an entry: a sentence fragment that callers locate (file, session,
/// entry, line).
package struct EntryProblem: Error, Sendable {
    package let reason: String
    package init(_ reason: String) { self.reason = reason }
}

// MARK: - Durations

extension Entry {
    /// ``reducerDuration`` in whole nanoseconds, as the journal stores it (clamped to `Int64`).
    var durationNanoseconds: Int64? {
        reducerDuration?.saturatingNanoseconds
    }
}

extension Duration {
    /// The duration in whole nanoseconds, saturating at the ends of `Int64` rather than trapping: a
    /// duration read from a damaged file, or measured across a suspended machine, may be anything.
    /// The one conversion the journal, the text form, the CLI and the viewer use.
    package var saturatingNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return seconds < 0 ? .min : .max }
        let (total, sumOverflow) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
        return sumOverflow ? (seconds < 0 ? .min : .max) : total
    }
}
