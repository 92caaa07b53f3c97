import ActionLog
import Foundation
import Replayer

// The reading side: the state at a random step of a long session, and replay speed.

// MARK: - Long sessions

/// Records `count` actions into a fresh journal with a long back-pressure wait, so nothing is dropped; returns how long recording took, up to `close()`.
func recordLongSession<State, Action>(_ workload: Workload<State, Action>, count: Int, path: String) throws -> (elapsed: Duration, session: JournalSession.ID, lost: Int) {
    var configuration = RecorderConfiguration()
    configuration.queueCapacity = 1_024  // Bounds the memory of queued states; the wait means nothing is dropped.
    configuration.backpressure = .wait(timeout: .seconds(60))
    let start = clock.now
    let recorder = try Recorder<State, Action, Never>(path: path, sessionName: "\(workload.name) long", initialState: workload.initial, configuration: configuration)
    var state = workload.initial
    let chunk = 65_536
    var done = 0
    while done < count {
        for action in workload.actions(min(chunk, count - done)) {
            workload.reduce(&state, action)
            recorder.record(action: action, state: state)
        }
        done += chunk
    }
    recorder.close()
    let statistics = recorder.statistics
    return (start.duration(to: clock.now), recorder.sessionID, statistics.dropped + statistics.lost)
}

/// Records up to `count` actions of a workload whose state grows (each action costs the writer more
/// than the last), a chunk at a time with a `flush()` after each, and stops early once `budget` is
/// spent (unless `budget` is `nil`): a rate measured on a short run cannot predict how long it takes.
func recordGrowingSession<State, Action>(
    _ workload: Workload<State, Action>, count: Int, budget: Duration?, path: String
) throws -> (count: Int, elapsed: Duration, session: JournalSession.ID, lost: Int) {
    var configuration = RecorderConfiguration()
    configuration.queueCapacity = 1_024
    configuration.backpressure = .wait(timeout: .seconds(60))
    let start = clock.now
    let recorder = try Recorder<State, Action, Never>(path: path, sessionName: "\(workload.name) long", initialState: workload.initial, configuration: configuration)
    var state = workload.initial
    let actions = workload.actions(count)
    let chunk = 1_000
    var done = 0
    while done < count {
        for action in actions[done..<min(done + chunk, count)] {
            workload.reduce(&state, action)
            recorder.record(action: action, state: state)
        }
        done = min(done + chunk, count)
        recorder.flush()
        if let budget, start.duration(to: clock.now) > budget { break }
    }
    recorder.close()
    let statistics = recorder.statistics
    return (done, start.duration(to: clock.now), recorder.sessionID, statistics.dropped + statistics.lost)
}

// MARK: - State at a random step

struct RandomStepResult {
    var samples: Int
    /// `Journal.state(at:in:)` + decode to the model type: median seconds.
    var stateAt: Double
    /// The largest keyframe's text: `JSONValue(parsing:)` alone, and parsing + decoding.
    var keyframeParse: Double
    var keyframeParseDecode: Double
    /// The keyframe each sampled step starts from, read with one primary-key `SELECT` on a raw SQLite
    /// connection, parsed and decoded: what reading a keyframe from the file costs at least.
    var keyframeRead: Double
    var keyframeBytes: Int
    /// Deltas applied after the keyframe, median over the sampled steps.
    var medianChain: Double
    var keyframes: Int
    /// `Journal.entries(in:from:limit: 1)`: one entry row read and parsed.
    var oneEntry: Double
    /// The whole session's stored JSON (state + action columns) and file size per entry: every keyframe
    /// the policy chose, entry 0 included, amortized.
    var payloadBytesPerEntry: Double
    var fileBytesPerEntry: Double
    /// Stored JSON per entry from the first keyframe to the last one (exclusive): whole keyframe
    /// intervals, the steady state. `nil` with fewer than two keyframes.
    var intervalPayloadBytesPerEntry: Double?

    var ratio: Double { stateAt / keyframeParseDecode }
    var readRatio: Double { stateAt / keyframeRead }
}

func measureRandomStep<State: Decodable>(
    _ type: State.Type, path: String, session: JournalSession.ID, entries: Int, samples: Int, budget: Duration
) throws -> RandomStepResult {
    let journal = try Journal(path: path)
    let database = try Database(path: path, readOnly: true)
    let decoder = JSONDecoder()
    var random = SplitMix64(seed: 99)

    let keyframeBefore = try database.prepare("SELECT max(seq) FROM entries WHERE session_id = ?1 AND seq <= ?2 AND kind = 'keyframe'")
    let keyframeRow = try database.prepare("SELECT state FROM entries WHERE session_id = ?1 AND seq = ?2")
    var times: [Double] = []
    var reads: [Double] = []
    var chains: [Double] = []
    _ = try journal.state(at: entries, in: session)  // Warm the page cache.
    let start = clock.now
    while times.count < samples, times.isEmpty || start.duration(to: clock.now) < budget {
        let seq = 1 + random.next(below: entries)
        let begin = clock.now
        let json = try journal.state(at: seq, in: session)
        blackHole(try json.decode(State.self, decoder: decoder))
        times.append(begin.duration(to: clock.now).seconds)
        keyframeBefore.bind(1, Int(session))
        keyframeBefore.bind(2, seq)
        _ = try keyframeBefore.step()
        let keyframeSeq = keyframeBefore.int(0)
        chains.append(Double(seq - keyframeSeq))
        keyframeBefore.reset()
        let readBegin = clock.now
        keyframeRow.bind(1, Int(session))
        keyframeRow.bind(2, keyframeSeq)
        _ = try keyframeRow.step()
        let text = keyframeRow.text(0) ?? "null"
        keyframeRow.reset()
        blackHole(try JSONValue(parsing: text).decode(State.self, decoder: decoder))
        reads.append(readBegin.duration(to: clock.now).seconds)
    }

    let largest = try database.prepare("""
        SELECT state, (SELECT count(*) FROM entries WHERE session_id = ?1 AND kind = 'keyframe')
        FROM entries WHERE session_id = ?1 AND kind = 'keyframe' ORDER BY length(state) DESC LIMIT 1
        """)
    largest.bind(1, Int(session))
    _ = try largest.step()
    let keyframeText = largest.text(0) ?? "{}"
    let keyframes = largest.int(1)
    let sizes = try database.prepare("""
        SELECT count(*), sum(length(CAST(state AS BLOB))), sum(length(CAST(action AS BLOB))) FROM entries WHERE session_id = ?1
        """)
    sizes.bind(1, Int(session))
    _ = try sizes.step()
    let count = Double(max(1, sizes.int(0)))
    let payload = Double(sizes.int(1) + sizes.int(2)) / count
    let file = Double(try database.logicalSize()) / count
    let interval = try database.prepare("""
        WITH bounds AS (SELECT min(seq) AS first, max(seq) AS last FROM entries WHERE session_id = ?1 AND kind = 'keyframe')
        SELECT bounds.last - bounds.first,
               (SELECT coalesce(sum(length(CAST(state AS BLOB))), 0) + coalesce(sum(length(CAST(action AS BLOB))), 0)
                FROM entries WHERE session_id = ?1 AND seq >= bounds.first AND seq < bounds.last)
        FROM bounds
        """)
    interval.bind(1, Int(session))
    _ = try interval.step()
    let intervalEntries = interval.int(0)
    let intervalPayload = intervalEntries > 0 ? Double(interval.int(1)) / Double(intervalEntries) : nil
    let parse = try medianTime(repeats: 21, budget: .seconds(1)) {
        blackHole(try JSONValue(parsing: keyframeText))
    }
    let parseDecode = try medianTime(repeats: 21, budget: .seconds(1)) {
        blackHole(try JSONValue(parsing: keyframeText).decode(State.self, decoder: decoder))
    }
    let oneEntry = try medianTime(repeats: 5, budget: .seconds(2)) {
        blackHole(try journal.entries(in: session, from: entries / 2, limit: 1))
    }
    return RandomStepResult(
        samples: times.count, stateAt: median(times),
        keyframeParse: parse, keyframeParseDecode: parseDecode, keyframeRead: median(reads), keyframeBytes: keyframeText.utf8.count,
        medianChain: median(chains), keyframes: keyframes,
        oneEntry: oneEntry, payloadBytesPerEntry: payload, fileBytesPerEntry: file,
        intervalPayloadBytesPerEntry: intervalPayload
    )
}

// MARK: - Replay

struct ReplayResult {
    var entries: Int
    /// Parsing + decoding every action, the texts already in memory: seconds per pass.
    var decodeOnly: Double
    /// Reading every entry with `Journal.entries(in:)`, rebuilding each state with `Entry.advance`, and
    /// decoding each action.
    var reconstruct: Double
    /// The same two in the measuring thread's CPU time (which leaves out the host's steal).
    var decodeOnlyCPU: Double
    var reconstructCPU: Double
    /// The same two in instructions retired by the measuring thread, which the host's load hardly
    /// moves; `nil` where there is no counter.
    var decodeOnlyInstructions: Double?
    var reconstructInstructions: Double?
    /// `Replay.run()`: the above, plus running the reducer, encoding its state and comparing (if measured).
    var replay: Double?
    var replayMatched: Bool?
    /// The start, which any reading of the session from entry 0 pays once whatever its length: entry
    /// 0's keyframe parsed from its text in memory, then freed, in seconds.
    var start: Double

    /// Reconstruction speed as a fraction of decode-only speed.
    var reconstructShare: Double { decodeOnly / reconstruct }
    /// The same in CPU time.
    var reconstructShareCPU: Double { decodeOnlyCPU / reconstructCPU }
    /// The same in instructions.
    var reconstructShareInstructions: Double? {
        guard let decodeOnlyInstructions, let reconstructInstructions, reconstructInstructions > 0 else { return nil }
        return decodeOnlyInstructions / reconstructInstructions
    }
    var replayShare: Double? { replay.map { decodeOnly / $0 } }
    /// The share of the rest of rebuild+decode, the start taken out: what each entry costs beside
    /// decoding its action, apart from the one state every reading from entry 0 parses.
    var shareAfterStart: Double { decodeOnly / max(reconstruct - start, .leastNonzeroMagnitude) }
}

/// The action texts of a session, read with a plain `SELECT`: what the decode-only loop decodes.
func actionTexts(path: String, session: JournalSession.ID) throws -> [String] {
    try actionTexts(in: Database(path: path, readOnly: true), session: session)
}

/// ``actionTexts(path:session:)`` on a connection already open.
func actionTexts(in database: Database, session: JournalSession.ID) throws -> [String] {
    let texts = try database.prepare("SELECT action FROM entries WHERE session_id = ?1 AND action IS NOT NULL ORDER BY seq")
    texts.bind(1, Int(session))
    var actionTexts: [String] = []
    while try texts.step() { actionTexts.append(texts.text(0) ?? "") }
    return actionTexts
}

/// Entry 0's stored state, the keyframe every reading of the session from its start parses.
func startKeyframeText(in database: Database, path: String, session: JournalSession.ID) throws -> [UInt8] {
    let row = try database.prepare("SELECT state FROM entries WHERE session_id = ?1 AND seq = 0")
    row.bind(1, Int(session))
    guard try row.step(), let text = row.text(0) else { throw BenchError("session \(session) of \(path) has no entry 0") }
    return Array(text.utf8)
}

/// The decode-only loop, the replay share's numerator: parses and decodes each action text, what
/// any replay must do at least.
func decodeActions<Action: Decodable>(_ actionTexts: [String], decoding: Action.Type, decoder: JSONDecoder) throws {
    for text in actionTexts {
        blackHole(try JSONValue(parsing: text).decode(Action.self, decoder: decoder))
    }
}

/// Reads a session as `Replay.run()` does and decodes every action: each entry through a cursor,
/// its state walked by `StateWalk`, a keyframe's text parsed when the delta after it needs it
/// (a replay compares the others as text first), and the last state parsed. Returns the entries read.
func rebuild<Action: Decodable>(_ journal: Journal, session: JournalSession.ID, decoding: Action.Type, decoder: JSONDecoder) throws -> Int {
    var states = StateWalk(file: journal.fileName, session: session)
    var cursor = try journal.entryCursor(in: session)
    var count = 0
    while let (entry, keyframeText) = try cursor.nextDeferringKeyframe() {
        try states.advance(past: entry, keyframeText: keyframeText)
        if let action = entry.action {
            blackHole(try action.decode(Action.self, decoder: decoder))
        }
        count += 1
    }
    blackHole(try states.resolvedState())
    return count
}

func measureReplay<State, Action>(_ workload: Workload<State, Action>, path: String, session: JournalSession.ID, repeats: Int, runReplay: Bool) throws -> ReplayResult {
    let journal = try Journal(path: path)
    let decoder = JSONDecoder()
    let database = try Database(path: path, readOnly: true)
    let texts = try actionTexts(in: database, session: session)
    let startText = try startKeyframeText(in: database, path: path, session: session)

    let times = try interleavedMedians(repeats: repeats, [
        { try decodeActions(texts, decoding: Action.self, decoder: decoder) },
        { blackHole(try rebuild(journal, session: session, decoding: Action.self, decoder: decoder)) },
        { blackHole(try JSONValue(parsing: startText)) },
    ])
    let (decodeOnly, reconstruct, start) = (times[0], times[1], times[2])
    var matched: Bool?
    var replay: Double?
    if runReplay {
        replay = try medianTime(repeats: repeats) {
            let report = try Replay<State, Action, Never>(journal: journal, session: session, reducer: workload.reduce).run()
            matched = (matched ?? true) && report.isMatch
        }
    }
    return ReplayResult(
        entries: texts.count, decodeOnly: decodeOnly.wall, reconstruct: reconstruct.wall, decodeOnlyCPU: decodeOnly.cpu,
        reconstructCPU: reconstruct.cpu, decodeOnlyInstructions: decodeOnly.instructions, reconstructInstructions: reconstruct.instructions,
        replay: replay, replayMatched: matched, start: start.wall)
}
