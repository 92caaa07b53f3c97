/// Rebuilds and checks a session's states, entry by entry: the one place that knows how a
/// session's entries chain.
///
/// Feed it a session's entries in order; after each one, ``state`` is the recorded state (or `nil`
/// where a gap left it unknown). Every reader of sessions — ``Journal/state(at:in:)``,
/// ``RecordedSession``, ``Journal/verify()``, import, export, replay and re-recording — walks
/// sessions through it, so a session is valid for all of them or for none, with the same message.
///
/// ```swift
/// var states = StateWalk(file: journal.fileName, session: id)
/// for entry in try journal.entries(in: id) {
///     try states.advance(past: entry)
///     print(entry.seq, states.state?.canonicalText ?? "(unknown: a gap)")
/// }
/// try states.finish(droppedCount: session.droppedCount)
/// ```
///
/// The rules: entries run 0, 1, 2, … without holes; entry 0 is a keyframe holding the initial
/// state and no action; a delta applies to the state before it, which must be known; across a gap
/// (or a run of gaps), whose own state is unknown, that is the state of the last entry before it:
/// the recorder stores what changed since the last state it stored, lost actions and all (a
/// journal of schema version 2 or older has a keyframe there, which needs nothing before it);
/// rebuilding stays within `JSONPatch.Bounds` (no nesting deeper than ``JSONValue/maximumDepth``,
/// no growth by `copy` past four times the bytes stored since the keyframe, or 1 MiB); gaps lose at
/// least one action each, and add up to the session's dropped count. Sequence numbers and counts
/// are checked before any arithmetic.
///
/// After an error, the walk can go on, as ``Journal/verify()`` does to report every problem: the
/// state is unknown, and deltas are passed over without a second report until the next keyframe.
package struct StateWalk: Sendable {
    /// The file messages name.
    package let file: String
    /// The session messages name; `nil` for a session in text form.
    package let session: JournalSession.ID?
    /// The recorded state after the last entry, or `nil` when it is unknown (a gap, or an error).
    package private(set) var state: JSONValue?
    /// The actions the gaps so far lost, in all.
    package private(set) var droppedTotal = 0
    /// The entry expected next; `nil` once the sequence numbers ran out of integers.
    private var nextSeq: Int?
    /// Whether the walk starts mid-session, at a keyframe, rather than at entry 0.
    private var resuming: Bool
    /// Set after an error: deltas are passed over, unreported, until the next keyframe.
    private var lost = false
    /// While the walk is at a gap (or a run of them): the state of the last entry before it, which a
    /// delta after the gap patches. Held here, not in ``state``, which is `nil` at a gap; moved back
    /// (not copied) by that delta, and dropped by any entry that is not a gap.
    private var beforeGap: Known?

    /// A state the walk knows: parsed, or a keyframe's stored text not parsed yet.
    private enum Known: Sendable {
        case parsed(JSONValue)
        case text(seq: Int, text: [UInt8])
    }
    private var bounds = JSONPatch.Bounds()
    /// The last keyframe's stored text, when a walk that defers keyframes has not needed it parsed
    /// yet (see ``advance(past:keyframeText:)``); ``state`` is `nil` meanwhile.
    private var pendingKeyframe: (seq: Int, text: [UInt8])?
    /// Entries walked (or skipped) so far.
    package private(set) var entryCount = 0

    /// Starts a walk at entry 0.
    ///
    /// - Parameters:
    ///   - file: the file's name, for errors.
    ///   - session: the session's id, for errors; `nil` for a session in text form.
    package init(file: String, session: JournalSession.ID?) {
        self.file = file
        self.session = session
        self.nextSeq = 0
        self.resuming = false
    }

    /// Starts a walk mid-session, at a keyframe: how a state is read without walking from entry 0.
    ///
    /// - Parameters:
    ///   - file: the file's name, for errors.
    ///   - session: the session's id, for errors.
    ///   - seq: the entry the walk starts at, which must be a keyframe.
    package init(file: String, session: JournalSession.ID?, resumingAt seq: Int) {
        self.init(file: file, session: session)
        self.nextSeq = seq
        self.resuming = true
    }

    /// Goes on with a walk whose state after entry `seq` is known: how a reader that rebuilt the state
    /// at one entry reads it at a later one without going back to the keyframe.
    ///
    /// - Parameters:
    ///   - file: the file's name, for errors.
    ///   - session: the session's id, for errors.
    ///   - seq: the entry `state` follows; the walk expects `seq + 1` next.
    ///   - state: the state after entry `seq`.
    package init(file: String, session: JournalSession.ID?, after seq: Int, state: JSONValue) {
        self.init(file: file, session: session)
        self.nextSeq = seq.successor
        self.resuming = true
        self.state = state
    }

    /// Moves the state across `entry`: a keyframe replaces it, a delta patches it, a gap makes it
    /// unknown at the gap (the delta after the gap patches the state before it).
    ///
    /// - Parameter entry: the next entry of the session.
    /// - Returns: the delta's patch, for a caller that wants to know where the state changed; `nil`
    ///   for a keyframe, a gap, or a delta passed over after an error.
    /// - Throws: ``ActionLogError`` with code ``ActionLogError/Code/corrupt`` naming the file, the session
    ///   and the entry, when the entry breaks a rule. The walk can go on after it.
    @discardableResult
    package mutating func advance(past entry: Entry) throws(ActionLogError) -> JSONPatch? {
        let orderProblem = checkOrder(entry.seq)
        entryCount += 1
        defer { resuming = false }
        if orderProblem != nil {
            state = nil
            beforeGap = nil
            lost = true
        }
        // A delta parses the keyframe it follows; anything else replaces it (a gap keeps it, for the
        // delta after the gap).
        let pending = pendingKeyframe
        pendingKeyframe = nil
        var acrossGap = beforeGap
        beforeGap = nil
        switch entry.content {
        case .keyframe(let full):
            if !resuming, entry.seq == 0, entry.action != nil, orderProblem == nil {
                state = nil
                lost = true
                throw error(entry.seq, "entry 0 must be a keyframe holding the initial state and no action")
            }
            state = full
            lost = false
            bounds = JSONPatch.Bounds()
        case .delta(let patch):
            if let orderProblem { throw orderProblem }
            if entry.seq == 0, !resuming {
                lost = true
                throw error(0, "entry 0 must be a keyframe holding the initial state and no action")
            }
            if let pending {
                // The delta needs the keyframe before it: parsed now, an error naming the keyframe.
                try resolve(pending)
            }
            if state == nil, let known = acrossGap {
                // After a gap: the state before the gap, which the delta patches. Released here, so
                // that `state` holds the only reference while the patch changes it in place.
                acrossGap = nil
                switch known {
                case .parsed(let value): state = value
                case .text(let seq, let text): try resolve((seq, text))
                }
            }
            guard var current = state else {
                if lost { return nil }
                lost = true
                throw error(entry.seq, resuming ? "no keyframe at or before this entry" : "a delta with no keyframe before it")
            }
            // Patched in place: with `state` cleared, `current` holds the only reference, so a change
            // deep inside a large array copies none of it.
            state = nil
            do {
                try patch.apply(to: &current, within: &bounds)
            } catch {
                lost = true
                throw self.error(entry.seq, "the delta does not apply: \(error)")
            }
            state = current
            return patch
        case .gap(let dropped, _):
            // Kept for the delta after the gap, unless an error (this entry's place among them) left
            // it unknown; `lost` stays as it is, so that the deltas after the gap are then passed over.
            beforeGap = lost ? nil : state.map(Known.parsed) ?? pending.map { Known.text(seq: $0.seq, text: $0.text) } ?? acrossGap
            state = nil
            if entry.seq == 0, !resuming, orderProblem == nil {
                beforeGap = nil
                lost = true
                throw error(0, "entry 0 must be a keyframe holding the initial state and no action")
            }
            let (sum, overflow) = droppedTotal.addingReportingOverflow(dropped)
            guard !overflow else {
                throw error(entry.seq, "the gaps lose more actions than can be counted (\(droppedTotal) before this one, then \(dropped))")
            }
            droppedTotal = sum
        }
        if let orderProblem { throw orderProblem }
        return nil
    }

    /// Moves the state across `entry`, as ``advance(past:)`` does, but leaves a keyframe's stored
    /// `keyframeText` unparsed until something needs it: the delta after it, or
    /// ``resolvedState()``. A replay compares a keyframe with the replayed state's canonical text
    /// first, so a session of keyframes that match costs no parsing. Until it is parsed, ``state`` is
    /// `nil`; ``pendingKeyframeText`` is the text. `entry`'s content is then a placeholder.
    ///
    /// - Parameters:
    ///   - entry: the next entry of the session.
    ///   - keyframeText: for a keyframe, its stored state text, not parsed; `nil` for any other entry,
    ///     or a keyframe whose content is parsed.
    /// - Returns: the delta's patch, as ``advance(past:)`` does.
    /// - Throws: ``ActionLogError`` as ``advance(past:)`` does; a keyframe's text that is not JSON is
    ///   reported when it is parsed, naming the keyframe's entry.
    @discardableResult
    package mutating func advance(past entry: Entry, keyframeText: [UInt8]?) throws(ActionLogError) -> JSONPatch? {
        guard let keyframeText, entry.kind == .keyframe else { return try advance(past: entry) }
        defer {
            // What the keyframe case left as the state is the placeholder: the text stands for it.
            if state != nil {
                state = nil
                pendingKeyframe = (entry.seq, keyframeText)
            }
        }
        return try advance(past: entry)
    }

    /// At a gap (or a run of them): the state of the last entry before it, which the delta after the
    /// gap patches; `nil` anywhere else, when that state is unknown, or when it is a keyframe left
    /// unparsed (see ``advance(past:keyframeText:)``).
    package var stateBeforeGap: JSONValue? {
        if case .parsed(let known) = beforeGap { known } else { nil }
    }

    /// The stored text of the keyframe that ``state`` stands for, while it is not parsed.
    package var pendingKeyframeText: [UInt8]? { pendingKeyframe?.text }

    /// The recorded state after the last entry, parsing a keyframe left unparsed; `nil` when it is
    /// unknown (a gap, or an error).
    ///
    /// - Throws: ``ActionLogError`` naming the keyframe's entry when its text is not JSON.
    package mutating func resolvedState() throws(ActionLogError) -> JSONValue? {
        if let pending = pendingKeyframe {
            pendingKeyframe = nil
            try resolve(pending)
        }
        return state
    }

    /// Takes `state` as what the pending keyframe's text parses to, without parsing it: for a replay
    /// that found the text equal to `state`'s canonical text, so that the delta after the keyframe
    /// applies to a state it already holds. Does nothing when no keyframe is pending.
    ///
    /// - Parameter state: a value whose canonical text is the pending keyframe's stored text.
    package mutating func adoptPendingKeyframe(as state: JSONValue) {
        guard pendingKeyframe != nil else { return }
        pendingKeyframe = nil
        self.state = state
    }

    /// Parses a keyframe's stored text into ``state``, with the message a reader of rows gives.
    private mutating func resolve(_ pending: (seq: Int, text: [UInt8])) throws(ActionLogError) {
        do {
            state = try JSONValue(parsing: pending.text)
        } catch {
            state = nil
            lost = true
            throw self.error(pending.seq, RawEntry.notJSON("state", error))
        }
    }

    /// Marks entry `seq` as unreadable (its row did not parse): the state is unknown from there.
    ///
    /// - Parameter seq: the entry.
    package mutating func skip(_ seq: Int) {
        _ = checkOrder(seq)
        entryCount += 1
        pendingKeyframe = nil
        beforeGap = nil
        state = nil
        lost = true
    }

    /// Checks what is known only at the end of the session: that it has entries (at least entry 0,
    /// its initial state), and that its gaps add up to its dropped count.
    ///
    /// - Parameter droppedCount: the actions the session's metadata counts as lost.
    /// - Throws: ``ActionLogError`` naming the file and the session.
    package func finish(droppedCount: Int) throws(ActionLogError) {
        try requireEntries()
        guard droppedTotal == droppedCount else {
            throw ActionLogError(.corrupt, file: file, session: session, reason: """
                the session counts \(droppedCount) dropped actions, but its gaps add up to \(droppedTotal)
                """)
        }
    }

    /// Throws unless an entry has been walked: a session has at least entry 0, its initial state.
    package func requireEntries() throws(ActionLogError) {
        guard entryCount > 0 else {
            throw ActionLogError(.corrupt, file: file, session: session, reason: "no entries: a session needs at least entry 0, its initial state")
        }
    }

    /// Checks the actions' side of an entry: entry 0 has none; every later keyframe or delta has
    /// one, with its label. Readers that only rebuild states do not need it; verify and import do.
    ///
    /// - Parameter entry: the entry.
    /// - Throws: ``ActionLogError`` naming the entry.
    package func checkAction(of entry: Entry) throws(ActionLogError) {
        guard entry.seq > 0 else { return }
        switch entry.content {
        case .gap:
            if entry.action != nil { throw error(entry.seq, "a gap holding an action") }
        case .keyframe, .delta:
            if entry.action == nil { throw error(entry.seq, "no action recorded") }
            if entry.label == nil { throw error(entry.seq, "an action without its label") }
        }
    }

    /// The rules of sequence numbers; updates ``nextSeq``.
    private mutating func checkOrder(_ seq: Int) -> ActionLogError? {
        defer { nextSeq = seq.successor.map { max($0, nextSeq ?? $0) } }
        guard let expected = nextSeq else {
            return error(seq, "out of order: it follows the largest sequence number there is")
        }
        if seq == expected { return nil }
        if seq < expected { return error(seq, "out of order: entry \(expected) was expected") }
        if seq == expected + 1 { return error(expected, "missing: the entry is not in the file") }
        return error(expected, "missing: entries \(expected)...\(seq - 1) are not in the file")
    }

    private func error(_ seq: Int?, _ reason: String) -> ActionLogError {
        ActionLogError(.corrupt, file: file, session: session, entry: seq, reason: reason)
    }
}

// MARK: - The state at one entry

extension StateWalk {
    /// The state after entry `seq`, rebuilt from `chain`: the entries from a keyframe (or whatever
    /// precedes `seq` when there is none) up to `seq`, in order, `seq` last; the gaps on the way
    /// included (a delta after a gap patches the state before it).
    ///
    /// - Throws: ``ActionLogError``: ``ActionLogError/Code/entryNotFound`` when `seq` is a gap;
    ///   ``ActionLogError/Code/corrupt`` when the chain breaks a rule.
    package static func state(
        at seq: Int, chain: some Collection<Entry>, file: String, session: JournalSession.ID?
    ) throws(ActionLogError) -> JSONValue {
        try states(at: seq, chain: chain, file: file, session: session, keepingBefore: false).after
    }

    /// The state after entry `seq`, as ``state(at:chain:file:session:)`` rebuilds it, and, with
    /// `keepingBefore`, the state before the chain's last entry when the chain has it (a delta's
    /// chain does; a keyframe's is the keyframe alone; after a gap, the state there is unknown).
    ///
    /// - Throws: ``ActionLogError`` as ``state(at:chain:file:session:)`` does.
    package static func states(
        at seq: Int, chain: some Collection<Entry>, file: String, session: JournalSession.ID?, keepingBefore: Bool
    ) throws(ActionLogError) -> (before: JSONValue?, after: JSONValue) {
        if let target = chain.reversed().first, case .gap(let dropped, _) = target.content {
            throw ActionLogError(.entryNotFound, file: file, session: session, entry: seq, reason: """
                a gap: \(dropped) actions were lost here, so no state was recorded
                """)
        }
        guard let first = chain.first else {
            throw ActionLogError(.entryNotFound, file: file, session: session, entry: seq, reason: "no such entry")
        }
        var states = StateWalk(file: file, session: session, resumingAt: first.seq)
        var before: JSONValue?
        var remaining = chain.count
        for entry in chain {
            remaining -= 1
            // Kept only when asked: holding it makes the last delta copy the containers it changes.
            if remaining == 0, keepingBefore { before = states.state }
            try states.advance(past: entry)
        }
        guard let state = states.state else {
            // Unreachable for a chain that ends at `seq` without error, but never trap on a file.
            throw ActionLogError(.corrupt, file: file, session: session, entry: seq, reason: "no keyframe at or before this entry")
        }
        return (before, state)
    }
}
