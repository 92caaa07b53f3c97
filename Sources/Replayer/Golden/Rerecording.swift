import ActionLog
import Foundation

/// Writes goldens: re-records a session's states and effects with today's reducer, keeping its
/// actions, or records a new session from a list of actions.
enum Rerecording {
    /// A re-recorded session and what changed in it.
    struct Result {
        var recording: RecordedSession
        /// Entries with an action, kept as recorded.
        var actions: Int
        /// Entries whose state is not the recorded one any more.
        var rewroteStates: [Int]
        /// Entries whose effect is not the recorded one any more.
        var rewroteEffects: [Int]
    }

    /// Replays `recorded`'s actions through `reducer` from its initial state and stores what the
    /// reducer produces now. Gaps stay gaps; after one, re-recording resumes from the recorded state.
    ///
    /// - Throws: ``ReplayError`` when an action or state no longer decodes (add an upcaster
    ///   first), `ActionLogError` when the session is damaged.
    static func rerecord<State: Codable, Action: Decodable, Effect: Encodable>(
        _ recorded: RecordedSession, upcasters: [Upcaster], reducer: (inout State, Action) -> Effect?
    ) throws -> Result {
        // Dates as the session wrote them: a golden recorded before ISO 8601 dates keeps its numbers.
        let encoder = JSONValueEncoder(dates: DateConvention.recorded(in: recorded.session.metadata))
        func decodeState(_ json: JSONValue, _ entry: Entry) throws -> State {
            do { return try json.decode(State.self) } catch {
                throw recorded.failure(.stateDoesNotDecode, at: entry, recorded.undecodable(error, redactedBy: \.state))
            }
        }

        // A golden keeps its session's redacted paths: today's states and effects are redacted as the recorder did.
        let redaction: Redaction
        switch Redaction.recorded(in: recorded.session.metadata) {
        case .success(let paths): redaction = paths
        case .failure(let error):
            throw recorded.unreadable(error)
        }
        let redactor = redaction.state
        var builder = SessionBuilder()
        var result = Result(recording: recorded, actions: 0, rewroteStates: [], rewroteEffects: [])
        var recordedStates = StateWalk(file: recorded.file, session: recorded.journalID)
        var state: State?
        for entry in recorded.entries {
            _ = try recorded.locating { () throws(ActionLogError) in try recordedStates.advance(past: entry) }
            guard let recordedJSON = recordedStates.state else {
                builder.append(entry, state: nil, effect: nil)
                state = nil
                continue
            }
            guard var current = state, let actionJSON = entry.action else {
                // Entry 0, or the first entry after a gap: start from what was recorded there.
                let resumed = try decodeState(recordedJSON, entry)
                if entry.seq == 0 {
                    let json = redactor.keyframe(try encoder.encode(resumed))
                    if json != recordedJSON { result.rewroteStates.append(0) }
                    builder.append(entry, state: json, effect: entry.effect)
                } else {
                    builder.append(entry, state: recordedJSON, effect: entry.effect)
                }
                state = resumed
                continue
            }
            result.actions += 1
            var effect: Effect?
            for (_, action) in try recorded.actions(of: entry, actionJSON, upcasters: upcasters) as [(label: String, action: Action)] {
                effect = reducer(&current, action)
            }
            state = current
            let json: JSONValue
            let effectJSON: JSONValue?
            do {
                json = redactor.keyframe(try encoder.encode(current))
                effectJSON = try effect.map { redaction.effects.keyframe(try encoder.encode($0)) }
            } catch {
                throw recorded.failure(.encodingFailed, at: entry, "the replayed state or effect does not encode: \(error)")
            }
            if json != recordedJSON { result.rewroteStates.append(entry.seq) }
            if effectJSON != entry.effect { result.rewroteEffects.append(entry.seq) }
            builder.append(entry, state: json, effect: effectJSON)
        }
        result.recording = RecordedSession(
            session: recorded.session.rewritten(for: State.self, Action.self, Effect.self, entries: builder.entries),
            entries: builder.entries, source: recorded.source)
        return result
    }

    /// A new session: `initial`, then each action through `reducer`. Times are zero, so that recording
    /// the same actions twice gives the same golden.
    static func record<State: Encodable, Action: Encodable, Effect: Encodable>(
        name: String, file: String, from initial: State, actions: [Action], reducer: (inout State, Action) -> Effect?
    ) throws -> RecordedSession {
        let encoder = JSONValueEncoder()
        let epoch = Date(timeIntervalSince1970: 0)
        var builder = SessionBuilder()
        var state = initial
        func entry(_ seq: Int, label: String?, action: JSONValue?) -> Entry {
            // The content is a placeholder: the builder stores the state it is given.
            Entry(seq: seq, time: epoch, label: label, action: action, content: .keyframe(.null), effect: nil)
        }
        builder.append(entry(0, label: nil, action: nil), state: try encoder.encode(state), effect: nil)
        for (index, action) in actions.enumerated() {
            let effect = reducer(&state, action)
            builder.append(
                entry(index + 1, label: ActionLabel.of(action), action: try encoder.encode(action)),
                state: try encoder.encode(state), effect: try effect.map { try encoder.encode($0) })
        }
        let session = SessionHeader(
            name: name, startedAt: epoch, endedAt: epoch, status: .closed, libraryVersion: "", appVersion: nil, stateType: "",
            actionType: "", effectType: nil, metadata: DateConvention.iso8601.marking([:]), entryCount: 0, droppedCount: 0, lastEntryAt: epoch)
        return RecordedSession(
            session: session.rewritten(for: State.self, Action.self, Effect.self, entries: builder.entries),
            entries: builder.entries, source: .textFile(file))
    }
}

/// Turns full states into keyframes and deltas the way the recorder does, with the same
/// `KeyframePolicy.Budget` at the policy's defaults: the entry after a gap too is stored as what
/// changed since the last state stored, before the gap.
struct SessionBuilder {
    private(set) var entries: [Entry] = []
    private var budget = KeyframePolicy.Budget(KeyframePolicy())
    /// The state of the last entry appended that is not a gap.
    private var previous: JSONValue?

    /// Appends `entry` with a new full `state` (`nil` for a gap) and `effect`; everything else is kept.
    mutating func append(_ entry: Entry, state: JSONValue?, effect: JSONValue?) {
        guard let state, entry.kind != .gap else {
            entries.append(entry)
            return
        }
        let previous = self.previous
        let content = budget.store(
            delta: { previous.map { JSONPatch.diff(from: $0, to: state) }.map { (Entry.Content.delta($0), $0.canonicalText.utf8.count) } },
            keyframe: { (Entry.Content.keyframe(state), state.canonicalText.utf8.count) }
        ).stored
        self.previous = state
        entries.append(entry.replacing(content: content, effect: .some(effect)))
    }
}

extension SessionHeader {
    /// The header of a golden written by this library with today's types.
    func rewritten<State, Action, Effect>(for _: State.Type, _: Action.Type, _: Effect.Type, entries: [Entry]) -> SessionHeader {
        // The same session, re-recorded: it keeps its stored id, and a golden that has none (one
        // recorded by `record`, whose text stays free of an id that would only churn) still has none.
        var header = self
        if status == .recording { header.status = .interrupted }
        header.libraryVersion = ActionLogLibrary.version
        header.stateType = String(reflecting: State.self)
        header.actionType = String(reflecting: Action.self)
        header.effectType = Effect.self == Never.self ? nil : String(reflecting: Effect.self)
        header.metadata = StateVersion.adding(State.self, to: metadata)
        header.entryCount = entries.count
        return header
    }
}
