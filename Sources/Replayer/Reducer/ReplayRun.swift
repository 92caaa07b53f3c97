import ActionLog
import Foundation

/// One run of a ``Replay``: walks the entries, keeps the recorded and the replayed state side by
/// side, and collects what differs.
struct ReplayRun<State: Codable, Action: Decodable, Effect: Encodable> {
    let replay: Replay<State, Action, Effect>
    let recording: RecordedSession
    private var options: ReplayOptions { replay.options }
    /// Encode dates as the session did (see ``DateConvention``), so that a session recorded before
    /// ISO 8601 dates replays unchanged.
    private let encoder: JSONValueEncoder
    private let changes: ChangeEncoder<State>

    /// The replayed state.
    private var state: State?
    /// The replayed state's JSON.
    private var replayedJSON: JSONValue = .null
    /// Whether ``replayedJSON`` is exactly the recorded state of the previous entry: then a delta
    /// needs comparing only where something changed.
    private var inSync = false
    /// Set when a keyframe shows that `State`'s `==` disagrees with its encoding: compare whole states.
    private var encodeInFull = false
    /// Set when a start left its full encoding in the change encoder, for a delta to go on from;
    /// cleared by the first step. A keyframe that comes first encodes as if nothing were held.
    private var changesHoldStart = false
    /// The session's redacted paths of the state (from its metadata): the replayed state is redacted
    /// the same way where it is compared, so placeholders meet placeholders. ``replayedJSON`` itself stays whole.
    private let redactor: Redactor
    /// The session's redacted paths of its effects: the replayed effect is redacted before it is compared.
    private let effectRedactor: Redactor
    /// Why the session's list of redacted paths cannot be read, if it cannot.
    private let redactionProblem: RedactionMetadataError?

    /// Entries up to this seq may compare large arrays only where the recorded patch changed them
    /// (``ChangeHints``); later ones compare everything. `Int.max`: every entry may.
    private let hintedThrough: Int
    /// The last entry whose replayed state was compared in full and matched: no change can hide
    /// before it.
    private var lastCheck = 0
    /// Array elements taken as unchanged since ``lastCheck``, and steps since then.
    private var assumedSinceCheck = 0
    private var stepsSinceCheck = 0
    /// Elements the last hinted step took as unchanged: what a full comparison now would read.
    private var lastAssumed = 0
    /// Set when a divergence shows after steps that took elements as unchanged: it may have
    /// started at any of them. Replay runs again, comparing everything after ``lastCheck``.
    private var rerunAfter: Int?

    private var findings: ReplayFindings

    /// The session's entries, one at a time: a journal's through a cursor, so that replaying a long
    /// session holds one page of entries, not the session. A journal's keyframes come as their stored
    /// text, parsed only when a comparison or the delta after them needs it.
    private var nextEntry: () throws(ActionLogError) -> (entry: Entry, keyframeText: [UInt8]?)?

    /// - Parameters:
    ///   - recording: the session's metadata and file; its entries, when `entries` is left out.
    ///   - entries: the entries one at a time, for a session not held in memory.
    ///   - hintedThrough: the last entry that may compare only the places the recorded patch
    ///     changed; `Int.max` for all of them.
    init(
        replay: Replay<State, Action, Effect>, recording: RecordedSession, hintedThrough: Int = .max,
        entries: (() throws(ActionLogError) -> (entry: Entry, keyframeText: [UInt8]?)?)? = nil
    ) {
        self.replay = replay
        self.recording = recording
        findings = ReplayFindings(recording: recording)
        let dates = DateConvention.recorded(in: recording.session.metadata)
        encoder = JSONValueEncoder(dates: dates)
        changes = ChangeEncoder<State>(dates: dates)
        self.hintedThrough = replay.options.comparesWholeStates ? .min : hintedThrough
        if let entries {
            nextEntry = entries
        } else {
            var iterator = recording.entries.makeIterator()
            nextEntry = { iterator.next().map { ($0, nil) } }
        }
        // The previous JSON is patched in place: an append to a long array costs the append.
        changes.patchesPreviousJSON = true
        // The reducer's append to a ChunkedArray copies its last leaf and group, specialized, rather
        // than the encoder detaching them, unspecialized (nothing here waits on the reducer's thread).
        changes.sharesChunkedArrayEnds = true
        switch Redaction.recorded(in: recording.session.metadata) {
        case .success(let redaction): (redactor, effectRedactor, redactionProblem) = (redaction.state, redaction.effects, nil)
        case .failure(let error): (redactor, effectRedactor, redactionProblem) = (.none, .none, error)
        }
    }

    /// How a run ended: with its report, or asking to be run again comparing everything after an
    /// entry, because a divergence showed where a change might have hidden earlier.
    enum Outcome {
        case report(ReplayReport)
        case rerun(hintedThrough: Int)
    }

    mutating func run() throws(ActionLogError) -> Outcome {
        let report = try walk()
        if let rerunAfter { return .rerun(hintedThrough: rerunAfter) }
        return .report(report)
    }

    private mutating func walk() throws(ActionLogError) -> ReplayReport {
        if let failure = refusal() { return findings.report(failure) }
        // Entry 0 must hold the initial state, by the rules every reader applies (StateWalk);
        // a session without one is a failure of this replay, not an error of the file's reading.
        var recorded = StateWalk(file: recording.file, session: recording.journalID)
        let first: Entry
        let initialState: JSONValue?
        let startedFromText: Bool
        do throws(ActionLogError) {
            guard let read = try nextEntry() else {
                try recorded.requireEntries()
                return findings.report(nil)
            }
            first = read.entry
            try recorded.advance(past: first, keyframeText: read.keyframeText)
            startedFromText = startFromText(&recorded, at: first)
            initialState = startedFromText ? nil : try recorded.resolvedState()
        } catch where error.code == .corrupt && error.file == recording.file {
            return findings.report(recording.failure(.noInitialState, entry: error.entry, error.reason))
        } catch {
            throw error
        }
        if !startedFromText {
            guard let initial = initialState else {
                // StateWalk leaves a state after entry 0 whenever it accepts it; never trap on a file.
                return findings.report(recording.failure(.noInitialState, entry: 0, "entry 0 left no state to start from"))
            }
            if let failure = start(from: initial, at: first) { return findings.report(failure) }
        }

        var rebase = false
        // One entry read ahead: whether the next one is a delta decides how this one is encoded.
        var upcoming = try nextEntry()
        while let (entry, keyframeText) = upcoming {
            upcoming = try nextEntry()
            if entry.action != nil { findings.entriesWithActions += 1 }
            let recordedPatch = try recording.locating { () throws(ActionLogError) in
                try recorded.advance(past: entry, keyframeText: keyframeText)
            }
            guard recorded.state != nil || recorded.pendingKeyframeText != nil else {
                // A gap: the actions lost here cannot be re-driven.
                findings.skipped.append(entry.seq)
                rebase = true
                continue
            }
            if rebase {
                // Actions before this entry were lost: go on from what was recorded here.
                findings.skipped.append(entry.seq)
                rebase = false
                if !startFromText(&recorded, at: entry), let failure = start(from: try resolvedState(&recorded), at: entry) {
                    return findings.report(failure)
                }
                continue
            }
            guard let actionJSON = entry.action else { continue }
            let nextIsDelta = upcoming?.entry.kind == .delta
            // A step may take elements as unchanged only when the next one is a replayed delta, so
            // that the last step before a keyframe, a gap or the end compares everything.
            let mayAssume = nextIsDelta && upcoming?.entry.action != nil && entry.seq <= hintedThrough
            if let failure = try step(
                entry, action: actionJSON, recorded: &recorded, recordedPatch: recordedPatch, nextIsDelta: nextIsDelta,
                mayAssume: mayAssume)
            {
                return findings.report(failure)
            }
            if rerunAfter != nil { return findings.report(nil) }
            if !findings.divergences.isEmpty, options.stopAtFirstDivergence {
                // The report counts every entry with an action, as a whole-session reader would.
                if upcoming?.entry.action != nil { findings.entriesWithActions += 1 }
                while let rest = try nextEntry() {
                    if rest.entry.action != nil { findings.entriesWithActions += 1 }
                }
                break
            }
        }
        return findings.report(nil)
    }

    // MARK: - Steps

    /// The recorded state after the entry `recorded` last walked, parsing a keyframe left unparsed;
    /// an error names the file, the session and the keyframe.
    private func resolvedState(_ recorded: inout StateWalk) throws(ActionLogError) -> JSONValue {
        try recording.locating { () throws(ActionLogError) in
            guard let state = try recorded.resolvedState() else {
                // Unreachable: called only where the walk knows the state; never trap on a file.
                throw ActionLogError(.corrupt, file: recording.file, session: recording.journalID, reason: "the recorded state is unknown")
            }
            return state
        }
    }

    /// Replays one entry; returns a failure that stops the replay.
    ///
    /// A keyframe whose stored text is not parsed yet is compared as text first: when it is the
    /// canonical text of the replayed state (redacted as recorded), the states are equal without
    /// parsing it; otherwise it is parsed and compared as JSON, as any other.
    private mutating func step(
        _ entry: Entry, action actionJSON: JSONValue, recorded: inout StateWalk, recordedPatch: JSONPatch?, nextIsDelta: Bool,
        mayAssume: Bool
    ) throws(ActionLogError) -> ReplayError? {
        let actions: [(label: String, action: Action)]
        do {
            actions = try recording.actions(of: entry, actionJSON, upcasters: options.upcasters)
        } catch {
            return error
        }
        // Taken out, not copied: a second reference would make the reducer copy every collection it
        // changes in place (copy-on-write), costing the state's size instead of the change.
        guard var state = self.state.take() else { return nil }
        var effect: Effect?
        for (_, action) in actions {
            effect = replay.reducer(&state, action)
        }
        self.state = state

        // Large arrays compared only where the recorded patch changed them, while the replayed state
        // is known to match, and everything from time to time: about every 64th element per step.
        var hints: ChangeHints?
        if mayAssume, inSync, let recordedPatch, entry.kind == .delta, !encodeInFull,
            stepsSinceCheck < Swift.max(Self.checkInterval, lastAssumed / 64)
        {
            hints = ChangeHints(recordedPatch)
        }
        let replayedPatch: JSONPatch?
        let replayedEffect: JSONValue?
        do {
            replayedPatch = try encode(state, at: entry, nextIsDelta: nextIsDelta, hints: hints)
            // Redacted as the recorder redacted the recorded one: a secret the reducer passes on is no difference.
            replayedEffect = try effect.map { effectRedactor.keyframe(try encoder.encode($0)) }
        } catch {
            return recording.failure(.encodingFailed, at: entry, "the replayed state or effect does not encode: \(error)")
        }

        var stateEqual: Bool
        let recordedState: JSONValue
        if let redacted = replayedJSONStandingFor(recorded) {
            // Equal as canonical text: the keyframe is not parsed. When a delta follows, the recorded
            // state is the replayed JSON (redacted as recorded), which the text stands for.
            stateEqual = true
            if nextIsDelta { recorded.adoptPendingKeyframe(as: redacted) }
            recordedState = redacted
        } else if inSync, let recordedPatch, let replayedPatch, let known = recorded.state {
            recordedState = known
            // The same patch applied to equal states gives equal states; otherwise compare where
            // either patch touched. The replayed patch is redacted as the recorder redacted its own
            // (a patch it cannot redact exactly was recorded as a keyframe: then compare by places).
            let redactedPatch = redactor.delta(replayedPatch)
            stateEqual = recordedPatch == redactedPatch
                || TouchedPlaces(recordedPatch, redactedPatch ?? replayedPatch).valuesEqual(recordedState, replayedJSON, redactingRight: redactor)
        } else {
            recordedState = try resolvedState(&recorded)
            stateEqual = recordedState == redactor.keyframe(replayedJSON)
        }
        if hints != nil {
            lastAssumed = changes.assumedUnchanged
            assumedSinceCheck += lastAssumed
            stepsSinceCheck += 1
        }
        if !stateEqual, !encodeInFull, entry.kind == .delta, assumedSinceCheck == 0 {
            // Before reporting a change-encoded state, make sure it is not stale JSON that a wrong
            // `==` kept: a divergence must be one in the state, not in its equality. (After elements
            // were taken as unchanged, the JSON may lag on purpose: the rerun below finds out.)
            do {
                if try confirmEncoding(state, at: entry.seq) { stateEqual = recordedState == redactor.keyframe(replayedJSON) }
            } catch {
                return recording.failure(.encodingFailed, at: entry, "the replayed state does not encode: \(error)")
            }
        }
        inSync = stateEqual
        if hints == nil, stateEqual { checked(at: entry.seq) }
        // Redacted places hold placeholders on both sides; they are left out as ignored fields are.
        let ignoredInState = IgnoredFields(patterns: options.ignoring, redactor: redactor)
        let ignoredInEffect = IgnoredFields(patterns: options.ignoring, redactor: effectRedactor)
        let stateDifferences = stateEqual ? [] : ignoredInState.differences(recordedState, redactor.keyframe(replayedJSON))
        let effectDifferences = ignoredInEffect.differences(entry.effect, replayedEffect)
        guard !stateDifferences.isEmpty || !effectDifferences.isEmpty else {
            findings.matched += 1
            return nil
        }
        if assumedSinceCheck > 0 {
            // A change taken as absent may have made this one: find where it began.
            rerunAfter = lastCheck
            return nil
        }
        findings.divergences.append(Divergence(
            at: entry, label: actions.count == 1 ? actions[0].label : (entry.label ?? "?"), state: stateDifferences,
            stateDump: stateDifferences.isEmpty ? nil : DumpDiff.diff(recorded: recordedState, replayed: state, ignored: ignoredInState, replayedJSON: replayedJSON),
            effect: effectDifferences,
            effectDump: effectDifferences.isEmpty ? nil : DumpDiff.effectDiff(recorded: entry.effect, replayed: effect, ignored: ignoredInEffect, replayedJSON: replayedEffect)
        ))
        // Go on from what was recorded, so that later findings do not follow from this one.
        if !options.stopAtFirstDivergence {
            return start(from: try resolvedState(&recorded), at: entry)
        }
        return nil
    }

    /// Starts from the keyframe `recorded` holds unparsed, decoding the state straight from its stored
    /// text: when the state encodes back to that text exactly (redacted as recorded), the text is
    /// never parsed into a `JSONValue`, and a keyframe of megabytes is read once, by the decoder. The
    /// recorded state is then the replayed JSON, as for a keyframe compared as text in ``step``.
    ///
    /// - Returns: `false`, having changed nothing that ``start(from:at:)`` does not set again, when
    ///   no keyframe is pending, when its text does not decode or encode, or when it does not come
    ///   back the same (a text written by another encoder): the caller then starts from the parsed
    ///   state, which names any problem.
    private mutating func startFromText(_ recorded: inout StateWalk, at entry: Entry) -> Bool {
        guard let text = recorded.pendingKeyframeText, let decoded = try? JournalDate.decoder().decode(State.self, from: Data(text)) else {
            return false
        }
        guard let encoded = try? encodeStart(decoded) else { return false }
        replayedJSON = encoded
        guard let redacted = replayedJSONStandingFor(recorded) else { return false }
        state = decoded
        inSync = true
        checked(at: entry.seq)
        recorded.adoptPendingKeyframe(as: redacted)
        return true
    }

    /// The replayed JSON, redacted as the recorder redacted its keyframes, when its canonical text is
    /// the stored text of the keyframe `recorded` holds unparsed: then it stands for that keyframe,
    /// which need not be parsed. `nil` when no keyframe is pending or the texts differ.
    private func replayedJSONStandingFor(_ recorded: StateWalk) -> JSONValue? {
        guard let text = recorded.pendingKeyframeText else { return nil }
        let redacted = redactor.keyframe(replayedJSON)
        return redacted.canonicalBytes == text ? redacted : nil
    }

    /// Decodes `json` as the replayed state, and takes its encoding as the base of the next change.
    private mutating func start(from json: JSONValue, at entry: Entry) -> ReplayError? {
        do {
            state = try json.decode(State.self)
        } catch {
            return recording.failure(.stateDoesNotDecode, at: entry, recording.undecodable(error, redactedBy: \.state))
        }
        do {
            replayedJSON = try encodeStart(state!)
        } catch {
            return recording.failure(.encodingFailed, at: entry, "the recorded state does not encode again: \(error)")
        }
        inSync = redactor.keyframe(replayedJSON) == json
        checked(at: entry.seq)
        return nil
    }

    /// Encodes the state a replay starts from with the change encoder, set aside first: its full
    /// encoding is then the base the first delta goes on from, encoding only what its action
    /// changed, instead of encoding the whole state a second time.
    private mutating func encodeStart(_ state: State) throws -> JSONValue {
        changes.reset()
        let json = try changes.encode(state).json
        changesHoldStart = true
        return json
    }

    /// Steps between two full comparisons while taking elements as unchanged, at least.
    private static var checkInterval: Int { 256 }

    /// Notes that the replayed state was compared in full at `seq`.
    private mutating func checked(at seq: Int) {
        lastCheck = seq
        assumedSinceCheck = 0
        stepsSinceCheck = 0
    }

    /// Encodes the replayed state into ``replayedJSON``; returns the change from the previous one when
    /// the change encoder made it.
    ///
    /// The change encoder runs through deltas. At a keyframe it is checked against a full encoding
    /// (`==` must agree with `encode(to:)`) and goes on when a delta follows, so a large state costs
    /// one full encoding per keyframe; before another keyframe it is set aside, so a run of keyframes
    /// (a small state, or one replaced wholesale) costs one full encoding per entry. A start (the
    /// first keyframe, or one after a gap or a divergence) leaves its full encoding in it, so that a
    /// delta right after it encodes only what its action changed.
    private mutating func encode(_ state: State, at entry: Entry, nextIsDelta: Bool, hints: ChangeHints?) throws -> JSONPatch? {
        if encodeInFull {
            replayedJSON = try encoder.encode(state)
            return nil
        }
        // Held only by the change encoder while it encodes, so that it can patch it in place.
        replayedJSON = .null
        if changesHoldStart, entry.kind == .keyframe { changes.reset() }
        changesHoldStart = false
        guard entry.kind == .keyframe else {
            let change = try changes.encode(state, expecting: hints)
            replayedJSON = change.json
            return change.patch
        }
        if changes.previousJSON != nil {
            replayedJSON = try changes.encode(state).json
            _ = try confirmEncoding(state, at: entry.seq)
            if !nextIsDelta || encodeInFull { changes.reset() }
        } else if nextIsDelta {
            // Starts the change encoder: its first encoding is a full one.
            replayedJSON = try changes.encode(state).json
        } else {
            replayedJSON = try encoder.encode(state)
        }
        return nil
    }

    /// Compares ``replayedJSON``, made by the change encoder, with a full encoding of `state`. When
    /// they differ, `State`'s `==` disagrees with its encoding: warns, keeps the full encoding, and
    /// encodes whole states from here on. Returns whether they differed.
    private mutating func confirmEncoding(_ state: State, at seq: Int) throws -> Bool {
        let full = try encoder.encode(state)
        guard full != replayedJSON else { return false }
        let field = replayedJSON.differences(to: full).first.map { " (field \($0.path))" } ?? ""
        findings.warnings.append("""
            \(String(reflecting: State.self))'s == disagrees with its encoding at entry \(seq)\(field): \
            the rest of the replay compared whole states
            """)
        encodeInFull = true
        replayedJSON = full
        return true
    }

    // MARK: - Reporting

    /// A session this reader must not replay: recorded by a newer ActionLog, or with a newer version
    /// of the state type (`VersionedState`).
    private func refusal() -> ReplayError? {
        // A ViewModel's session has turns and service answers that a reducer cannot take.
        if let architecture = SessionArchitecture.of(recording.session.metadata).architecture, architecture != .reducer {
            return recording.failure(.wrongArchitecture, "the session holds \(architecture.phrase), but the replay asked for a reducer; replay it with ViewModelReplay or EventViewModelReplay")
        }
        if let redactionProblem { return recording.unreadable(redactionProblem) }
        if let recorded = StateVersion.recorded(in: recording.session.metadata) {
            let today = StateVersion.of(State.self)
            if recorded > (today ?? 1) {
                let name = String(reflecting: State.self)
                return recording.failure(.newerSession, """
                    recorded with version \(recorded) of \(name), newer than this build's version \(today.map(String.init) ?? "(none)"); \
                    replay it with a build that knows version \(recorded)
                    """)
            }
        }
        let recordedVersion = recording.session.libraryVersion
        guard LibraryVersion(recordedVersion) > LibraryVersion(ActionLogLibrary.version) else { return nil }
        return recording.failure(.newerSession, """
            recorded by ActionLog \(recordedVersion), newer than this reader (\(ActionLogLibrary.version)); \
            replay it with ActionLog \(recordedVersion) or later
            """)
    }

}

/// A dotted version number compared part by part: `0.10.0` is newer than `0.9.2`.
struct LibraryVersion: Comparable {
    let parts: [Int]

    init(_ text: String) {
        parts = text.split(separator: "-").first.map { $0.split(separator: ".").map { Int($0) ?? 0 } } ?? []
    }

    static func < (lhs: LibraryVersion, rhs: LibraryVersion) -> Bool {
        let count = max(lhs.parts.count, rhs.parts.count)
        let left = lhs.parts + Array(repeating: 0, count: count - lhs.parts.count)
        let right = rhs.parts + Array(repeating: 0, count: count - rhs.parts.count)
        return left.lexicographicallyPrecedes(right)
    }
}
