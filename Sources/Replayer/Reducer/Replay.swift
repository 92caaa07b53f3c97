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
///
/// Replay compares *changes* where it can: while the replayed state equals the recorded one, an
/// entry stored as a delta is checked only where its patch, or the replayed change, touched the
/// state: a replaced field or element where it is, an append by the array's
/// count and the new element, an insertion or removal in the middle from there to the end — and the
/// replayed JSON is the replayed patch applied in place. So comparing costs what each action
/// changed. (The change encoder still holds the previous state's values, so a reducer that changes
/// a collection in place copies it, and the copy is released after: a collection the action
/// changed still costs its size.) At every recorded keyframe
/// the replayed state is also encoded in full and compared with the keyframe's stored text, which
/// is parsed only when the texts differ or the delta after it needs it; if the full encoding disagrees with the change encoder (a type
/// whose `==` ignores something it encodes), the rest of the session is compared whole, and
/// ``ReplayReport/warnings`` says so.
public struct Replay<State: Codable, Action: Decodable, Effect: Encodable>: @unchecked Sendable {
    // @unchecked: the reducer closure is called only from `run`, on the caller's thread.

    private enum Source {
        case journal(Journal, JournalSession.ID)
        case recording(RecordedSession)
    }

    private let source: Source
    /// What to ignore, whether to stop at the first divergence, and how to upcast older actions.
    var options: ReplayOptions
    let reducer: (inout State, Action) -> Effect?

    /// Replays a session of a journal.
    ///
    /// ```swift
    /// let replay = Replay(journal: try Journal(path: "app.actionlog"), session: recorder.sessionID, reducer: Checkout.reduce)
    /// ```
    ///
    /// - Parameters:
    ///   - journal: the journal, usually opened read-only.
    ///   - session: the session to replay.
    ///   - options: what to ignore, when to stop, which upcasters to run.
    ///   - reducer: today's reducer.
    public init(
        journal: Journal, session: JournalSession.ID, options: ReplayOptions = ReplayOptions(),
        reducer: @escaping (inout State, Action) -> Effect?
    ) {
        self.source = .journal(journal, session)
        self.options = options
        self.reducer = reducer
    }

    /// Replays a session already in memory: read from a journal or from a JSONL golden.
    ///
    /// ```swift
    /// let recording = try RecordedSession(contentsOfJSONL: url)
    /// let report = try Replay(recording: recording, reducer: Checkout.reduce).run()
    /// ```
    ///
    /// - Parameters:
    ///   - recording: the session and its entries.
    ///   - options: what to ignore, when to stop, which upcasters to run.
    ///   - reducer: today's reducer.
    public init(
        recording: RecordedSession, options: ReplayOptions = ReplayOptions(),
        reducer: @escaping (inout State, Action) -> Effect?
    ) {
        self.source = .recording(recording)
        self.options = options
        self.reducer = reducer
    }

    /// Replays the whole session.
    ///
    /// ```swift
    /// let report = try Replay(journal: journal, session: 1, reducer: Checkout.reduce).run()
    /// if let divergence = report.divergence { print("behaviour changed at entry \(divergence.seq)") }
    /// ```
    ///
    /// - Returns: the report; divergences and entries that cannot be replayed are findings in the
    ///   report, not errors.
    /// - Throws: `ActionLogError` when the journal cannot be read (missing session, damaged entry).
    public func run() throws(ActionLogError) -> ReplayReport {
        switch source {
        case .journal(let journal, let id):
            // Entry by entry through a cursor: a session of any length costs one page of entries.
            let header = RecordedSession(session: try journal.session(id).header, entries: [], source: .journal(file: journal.fileName, id: id))
            return try runs { hintedThrough throws(ActionLogError) in
                var cursor = try journal.entryCursor(in: id)
                return ReplayRun(replay: self, recording: header, hintedThrough: hintedThrough) { () throws(ActionLogError) in
                    try cursor.nextDeferringKeyframe()
                }
            }
        case .recording(let recorded):
            return try runs { hintedThrough in ReplayRun(replay: self, recording: recorded, hintedThrough: hintedThrough) }
        }
    }

    /// Runs `makeRun(hintedThrough)` until it reports: a run that found a divergence after steps
    /// that took array elements as unchanged runs again, comparing everything after the last entry
    /// it checked in full, so that the report names the entry where the divergence began.
    private func runs(
        _ makeRun: (_ hintedThrough: Int) throws(ActionLogError) -> ReplayRun<State, Action, Effect>
    ) throws(ActionLogError) -> ReplayReport {
        var hintedThrough = Int.max
        var reruns = 0
        while true {
            var run = try makeRun(hintedThrough)
            switch try run.run() {
            case .report(let report):
                return report
            case .rerun(let seq):
                // Each rerun compares everything from an earlier entry on; the second compares everything.
                reruns += 1
                hintedThrough = reruns < 2 ? seq : .min
            }
        }
    }

    /// The state the session recorded after entry `seq`, decoded into `State`: time travel to any
    /// step of the recording. It is read from the journal (a keyframe and the deltas after it), not
    /// computed: the reducer does not run, so after a change of behaviour it still answers what the
    /// app did then. ``run()`` says where today's reducer differs.
    ///
    /// ```swift
    /// let replay = Replay(journal: journal, session: id, reducer: Cart.reduce)
    /// let cartAtStep5 = try replay.state(at: 5)
    /// ```
    ///
    /// - Parameter seq: the entry; 0 is the initial state.
    /// - Returns: the recorded state after that entry.
    /// - Throws: `ActionLogError` when there is no state at `seq` (no such entry, or a gap), or
    ///   ``ReplayError`` when the recorded state no longer decodes into `State`.
    public func state(at seq: Int) throws -> State {
        let json: JSONValue
        let failure: (String) -> ReplayError
        switch source {
        case .journal(let journal, let id):
            json = try journal.state(at: seq, in: id)
            failure = { ReplayError(.stateDoesNotDecode, file: journal.fileName, session: id, sessionName: "session \(id)", entry: seq, reason: $0) }
        case .recording(let recording):
            json = try recording.state(at: seq)
            failure = { recording.failure(.stateDoesNotDecode, entry: seq, $0) }
        }
        do {
            return try json.decode(State.self)
        } catch {
            throw failure(JSONValue.describe(error))
        }
    }
}

extension Replay where Effect == Never {
    /// Replays a reducer that returns no effect.
    ///
    /// ```swift
    /// let report = try Replay(journal: journal, session: 1, reducer: Checkout.transition).run()   // states only
    /// ```
    ///
    /// - Parameters:
    ///   - journal: the journal, usually opened read-only.
    ///   - session: the session to replay.
    ///   - options: what to ignore, when to stop, which upcasters to run.
    ///   - reducer: today's reducer, which returns no effect.
    public init(
        journal: Journal, session: JournalSession.ID, options: ReplayOptions = ReplayOptions(),
        reducer: @escaping (inout State, Action) -> Void
    ) {
        self.init(journal: journal, session: session, options: options, reducer: Self.noEffect(reducer))
    }

    /// Replays a session in memory with a reducer that returns no effect.
    ///
    /// ```swift
    /// let recording = try RecordedSession(contentsOfJSONL: url)
    /// let report = try Replay(recording: recording, reducer: Checkout.transition).run()   // states only
    /// ```
    ///
    /// - Parameters:
    ///   - recording: the session and its entries.
    ///   - options: what to ignore, when to stop, which upcasters to run.
    ///   - reducer: today's reducer, which returns no effect.
    public init(recording: RecordedSession, options: ReplayOptions = ReplayOptions(), reducer: @escaping (inout State, Action) -> Void) {
        self.init(recording: recording, options: options, reducer: Self.noEffect(reducer))
    }

    private static func noEffect(_ reducer: @escaping (inout State, Action) -> Void) -> (inout State, Action) -> Never? {
        { state, action in
            reducer(&state, action)
            return nil
        }
    }
}
