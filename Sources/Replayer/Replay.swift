import ActionLog
import Foundation

/// Re-drives today's reducer through a recorded session, without running effects, and compares each
/// state and effect with the recorded one.
///
/// Replay starts from the recorded initial state (entry 0) and feeds every recorded action, feedback
/// included, so effects never run: whatever the outside world answered is already in the journal.
///
/// ```swift
/// let journal = try Journal(path: "fixtures/checkout.actionlog")
/// let replay = Replay(journal: journal, session: 1, reducer: Checkout.reduce)
/// let report = try replay.run()
/// XCTAssertTrue(report.isMatch, report.description)
/// let state = try replay.state(at: 5)   // time travel: the recorded state after entry 5
/// ```
public struct Replay<State: Codable, Action: Decodable, Effect: Encodable>: @unchecked Sendable {
    // @unchecked: the reducer closure is called only from `run`, on the caller's thread.

    public let journal: Journal
    public let sessionID: Session.ID
    private let reducer: (inout State, Action) -> Effect?
    private let decoder = JSONDecoder()
    /// The encoder the recorder uses, so equal values give equal JSON.
    private let encoder = JSONValueEncoder()

    /// - Parameters:
    ///   - journal: the journal, usually opened read-only.
    ///   - session: the session to replay.
    ///   - reducer: today's reducer.
    public init(journal: Journal, session: Session.ID, reducer: @escaping (inout State, Action) -> Effect?) {
        self.journal = journal
        self.sessionID = session
        self.reducer = reducer
    }

    /// Replays the whole session and reports the first divergence.
    ///
    /// - Returns: the report; a divergence or an undecodable action is a finding in the report, not an error.
    /// - Throws: ``JournalError`` when the journal cannot be read (missing session, damaged entry).
    public func run() throws(JournalError) -> ReplayReport {
        let session = try journal.session(sessionID)
        let entries = try journal.entries(in: sessionID)
        let file = journal.fileName
        let withActions = entries.filter { $0.action != nil }.count
        var replayed = 0
        var skipped: [Int] = []

        func report(_ outcome: ReplayReport.Outcome) -> ReplayReport {
            ReplayReport(file: file, session: session, entriesReplayed: replayed, entriesWithActions: withActions, skipped: skipped, outcome: outcome)
        }
        func failure(_ code: ReplayFailure.Code, _ entry: Entry, _ reason: String) -> ReplayReport {
            report(.failed(ReplayFailure(code: code, file: file, session: sessionID, seq: entry.seq, label: entry.label, reason: reason)))
        }

        guard let first = entries.first, first.seq == 0, first.kind == .keyframe, let initial = first.state else {
            let reason = "the session has no initial state (entry 0), so it cannot be replayed"
            return report(.failed(ReplayFailure(code: .noInitialState, file: file, session: sessionID, seq: 0, label: nil, reason: reason)))
        }
        var state: State
        do {
            state = try initial.decode(State.self, decoder: decoder)
        } catch {
            return failure(.stateDoesNotDecode, first, JSONValue.describe(error))
        }
        // The recorded state, rebuilt entry by entry from keyframes and deltas.
        var recorded: JSONValue? = initial
        var rebase = false
        for entry in entries.dropFirst() {
            try entry.advance(&recorded, file: file)
            guard let recordedState = recorded else {
                // A gap: the actions lost here cannot be re-driven.
                skipped.append(entry.seq)
                rebase = true
                continue
            }
            if rebase {
                // Actions before this entry were lost: continue from what was recorded here.
                skipped.append(entry.seq)
                do {
                    state = try recordedState.decode(State.self, decoder: decoder)
                } catch {
                    return failure(.stateDoesNotDecode, entry, JSONValue.describe(error))
                }
                rebase = false
                continue
            }
            guard let actionJSON = entry.action else { continue }
            let action: Action
            do {
                action = try actionJSON.decode(Action.self, decoder: decoder)
            } catch {
                return failure(.actionDoesNotDecode, entry, JSONValue.describe(error))
            }
            let effect = reducer(&state, action)
            let replayedState: JSONValue
            let replayedEffect: JSONValue?
            do {
                replayedState = try encoder.encode(state)
                replayedEffect = try effect.map { try encoder.encode($0) }
            } catch {
                return failure(.encodingFailed, entry, "the replayed state or effect does not encode: \(error)")
            }
            let stateDifferences = recordedState.differences(to: replayedState)
            let effectDifferences = Self.differences(entry.effect, replayedEffect)
            if !stateDifferences.isEmpty || !effectDifferences.isEmpty {
                return report(.diverged(Divergence(
                    seq: entry.seq, label: entry.label ?? "?", action: actionJSON,
                    stateDifferences: stateDifferences, effectDifferences: effectDifferences
                )))
            }
            replayed += 1
        }
        return report(.matched)
    }

    /// The recorded state after entry `seq`, decoded: time travel to any step.
    ///
    /// - Throws: ``JournalError`` when there is no state at `seq` (no such entry, or a gap), or
    ///   ``ReplayFailure`` when the recorded state no longer decodes into `State`.
    public func state(at seq: Int) throws -> State {
        let json = try journal.state(at: seq, in: sessionID)
        do {
            return try json.decode(State.self, decoder: decoder)
        } catch {
            throw ReplayFailure(code: .stateDoesNotDecode, file: journal.fileName, session: sessionID, seq: seq, label: nil, reason: JSONValue.describe(error))
        }
    }

    private static func differences(_ recorded: JSONValue?, _ replayed: JSONValue?) -> [FieldDifference] {
        switch (recorded, replayed) {
        case (nil, nil): return []
        case (let recorded?, let replayed?): return recorded.differences(to: replayed)
        default: return [FieldDifference(path: FieldPath(), recorded: recorded, replayed: replayed)]
        }
    }
}

extension Replay where Effect == Never {
    /// Replays a reducer that returns no effect.
    ///
    /// ```swift
    /// let report = try Replay(journal: journal, session: 1, reducer: Checkout.reduce).run()
    /// ```
    public init(journal: Journal, session: Session.ID, reducer: @escaping (inout State, Action) -> Void) {
        self.init(journal: journal, session: session) { (state: inout State, action: Action) -> Never? in
            reducer(&state, action)
            return nil
        }
    }
}
