import Foundation
import Testing
@testable import ActionLog

@Suite("Recorder: back-pressure and failures never crash or block the app")
struct RecorderFailureTests {
    let directory = TemporaryDirectory()

    /// A recorder whose queue holds one action and whose writer takes only when a flush asks: entry
    /// 0 is committed when it starts, and everything after the first action is dropped until a
    /// flush drains the queue.
    private func overflowingRecorder(
        path: String, log: ErrorLog, overloadQuietPeriod: Duration = .seconds(1),
        clock: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) throws -> CounterRecorder {
        try CounterRecorder(path: path, sessionName: "s", initialState: Counter(), configuration: configuration(log) {
            $0.overloadQuietPeriod = overloadQuietPeriod
            $0.overloadClock = clock
            $0.queueCapacity = 1
            $0.batchSize = 10_000
            $0.writerWaitsForFlush = true
            $0.batchInterval = .seconds(3600)
            $0.backpressure = .drop
        })
    }

    /// Dispatches `.add(1)` `times` times back to back, recording each count `count` reaches.
    private static func add(_ times: Int, to recorder: CounterRecorder, count: inout Int) {
        for _ in 0..<times {
            count += 1
            recorder.record(action: .add(1), state: Counter(count: count), effect: nil)
        }
    }

    @Test("when the queue is full, entries are dropped, counted, and recorded as a gap")
    func dropsUnderBackpressure() throws {
        let path = directory.path("drop.actionlog")
        let log = ErrorLog()
        let recorder = try overflowingRecorder(path: path, log: log)
        recorder.record(action: .add(1), state: Counter(count: 1), effect: nil)
        recorder.record(action: .add(2), state: Counter(count: 3), effect: nil)
        recorder.record(action: .add(3), state: Counter(count: 6), effect: nil)
        #expect(recorder.statistics.dropped == 2)
        recorder.flush()
        recorder.record(action: .add(4), state: Counter(count: 10), effect: nil)
        recorder.close()

        #expect(recorder.statistics == RecorderStatistics(recorded: 3, dropped: 2, committed: 3, lost: 0, pending: 0))
        let journal = try Journal(path: path)
        let entries = try journal.entries(in: recorder.sessionID)
        #expect(entries.map(\.kind) == [.keyframe, .keyframe, .gap, .keyframe])
        #expect(entries[2].content.gap?.dropped == 2)
        #expect(entries[2].content.gap?.note == "2 actions dropped: the writer fell behind")
        #expect(try entries[3].content.storedJSON?.decode(Counter.self) == Counter(count: 10))
        #expect(try journal.session(recorder.sessionID).droppedCount == 2)
        #expect(log.all.map(\.description) == [
            "drop.actionlog, session 1, entry 2: 2 actions dropped: the writer fell behind; recorded as a gap"
                + " (further drops are counted, and told again once the writer has kept up for a second)",
        ])
        #expect(try journal.verify().isValid)
    }

    @Test("an overload is told once however many gaps it leaves, and again once no step was dropped for the quiet period")
    func dropsAreToldOncePerEpisode() throws {
        let path = directory.path("episodes.actionlog")
        let log = ErrorLog()
        // The test's own time: it passes only where the test says, however long a round takes.
        let start = ContinuousClock.now
        let elapsed = Locked(Duration.zero)
        let recorder = try overflowingRecorder(path: path, log: log, overloadQuietPeriod: .milliseconds(50)) { start + elapsed.withLock { $0 } }
        var count = 0
        func dispatch(_ times: Int) { Self.add(times, to: recorder, count: &count) }
        // One overload: three rounds, each leaving a gap behind the step that got through.
        for _ in 0..<3 {
            dispatch(3)
            recorder.flush()
        }
        // The step after the last drops carries their gap; the round after it is the first without
        // drops, after the quiet period: the writer has kept up. Then a second overload.
        dispatch(1)
        recorder.flush()
        elapsed.withLock { $0 += .milliseconds(100) }
        dispatch(1)
        recorder.flush()
        dispatch(3)
        recorder.close()

        #expect(recorder.statistics.dropped == 8)
        #expect(log.all.map(\.code) == [.dropped, .dropped], "one report per overload")
        let gaps = try Journal(path: path).entries(in: recorder.sessionID).compactMap { $0.content.gap?.dropped }
        #expect(gaps == [2, 2, 2, 2])
    }

    @Test("a sustained load, under which the writer catches up and falls behind again and again within the quiet period, is one overload: told once")
    func sustainedLoadIsOneOverload() throws {
        let path = directory.path("sustained.actionlog")
        let log = ErrorLog()
        let recorder = try overflowingRecorder(path: path, log: log, overloadQuietPeriod: .seconds(3600))
        var count = 0
        // Ten times: a burst that overflows the queue, then a round the writer keeps up with.
        for _ in 0..<10 {
            Self.add(3, to: recorder, count: &count)
            recorder.flush()
            Self.add(1, to: recorder, count: &count)
            recorder.flush()
        }
        recorder.close()

        #expect(recorder.statistics.dropped == 20)
        #expect(log.all.map(\.code) == [.dropped], "one report for the whole load")
        let gaps = try Journal(path: path).entries(in: recorder.sessionID).compactMap { $0.content.gap?.dropped }
        #expect(gaps == Array(repeating: 2, count: 10))
    }

    @Test("waiting back-pressure gives up after its timeout, so the caller is never blocked for long")
    func waitTimesOut() throws {
        let path = directory.path("wait.actionlog")
        let recorder = try CounterRecorder(path: path, sessionName: "s", initialState: Counter(), configuration: configuration(ErrorLog()) {
            $0.queueCapacity = 1
            $0.batchSize = 10_000
            $0.writerWaitsForFlush = true
            $0.batchInterval = .seconds(3600)
            $0.backpressure = .wait(timeout: .milliseconds(5))
        })
        recorder.record(action: .increment, state: Counter(count: 1), effect: nil)
        recorder.record(action: .increment, state: Counter(count: 2), effect: nil)
        #expect(recorder.statistics.dropped == 1)
        recorder.close()
        let entries = try Journal(path: path).entries(in: recorder.sessionID)
        #expect(entries.map(\.kind) == [.keyframe, .keyframe, .gap])
        #expect(entries[2].content.gap?.dropped == 1)
    }

    @Test("an action that does not encode becomes a gap, is reported, and recording goes on")
    func encodingFailure() throws {
        let path = directory.path("encode.actionlog")
        let log = ErrorLog()
        let recorder = try Recorder<Counter, PoisonableAction, Never>(path: path, sessionName: "s", initialState: Counter(), configuration: configuration(log))
        recorder.record(action: PoisonableAction(.increment), state: Counter(count: 1))
        recorder.record(action: PoisonableAction(.poison), state: Counter(count: 1))
        recorder.record(action: PoisonableAction(.increment), state: Counter(count: 2))
        recorder.close()

        #expect(log.all.map(\.description) == [
            #"encode.actionlog, session 1, entry 2: "poison" does not encode: refused to encode; recorded as a gap"#
        ])
        #expect(log.all.map(\.code) == [.encodingFailed])
        #expect(recorder.statistics == RecorderStatistics(recorded: 4, dropped: 0, committed: 3, lost: 1, pending: 0))
        let entries = try Journal(path: path).entries(in: recorder.sessionID)
        #expect(entries.map(\.kind) == [.keyframe, .keyframe, .gap, .keyframe])
        #expect(entries[2].content.gap?.note == #""poison" does not encode: refused to encode"#)
        #expect(try entries[3].content.storedJSON?.decode(Counter.self) == Counter(count: 2))
    }

    @Test("a failed write loses only its batch, is reported, and becomes a gap once writes succeed again")
    func writeFailure() throws {
        let path = directory.path("full.actionlog")
        let log = ErrorLog()
        let recorder = try CounterRecorder(path: path, sessionName: "s", initialState: Counter(), configuration: configuration(log))
        recorder.record(action: .increment, state: Counter(count: 1), effect: nil)
        recorder.flush()
        // Another connection makes inserts fail, as a full disk would.
        try sql(path, "CREATE TRIGGER refuse BEFORE INSERT ON entries BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END;")
        recorder.record(action: .increment, state: Counter(count: 2), effect: nil)
        recorder.record(action: .increment, state: Counter(count: 3), effect: nil)
        recorder.flush()
        try sql(path, "DROP TRIGGER refuse")
        recorder.record(action: .increment, state: Counter(count: 4), effect: nil)
        recorder.close()

        #expect(log.all.map(\.description) == [
            "full.actionlog, session 1, entry 2: entries 2...3 were not written: SQLite error 19: database or disk is full — while executing "
                + "INSERT INTO entries (session_id, seq, kind, time, label, action, state, effect, duration_ns, dropped, note, checksum) "
                + "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12); until a write succeeds again, what is recorded is lost, and then written as a gap"
        ])
        #expect(recorder.statistics == RecorderStatistics(recorded: 5, dropped: 0, committed: 3, lost: 2, pending: 0))
        let journal = try Journal(path: path)
        let entries = try journal.entries(in: recorder.sessionID)
        #expect(entries.map(\.kind) == [.keyframe, .keyframe, .gap, .keyframe])
        #expect(entries[2].content.gap?.dropped == 2)
        #expect(try entries[3].content.storedJSON?.decode(Counter.self) == Counter(count: 4))
        #expect(try journal.session(recorder.sessionID).status == .closed)
        #expect(try journal.verify().isValid)
    }

    @Test("steps encoded while a commit stalls and then fails are lost with it, in one gap, and the next entry is a keyframe")
    func failureWhileCommitStalls() throws {
        let path = directory.path("stall.actionlog")
        let log = ErrorLog()
        let faults = WriteFaults()
        let recorder = try CounterRecorder(path: path, sessionName: "s", initialState: Counter(), configuration: configuration(log) {
            $0.batchSize = 1
            $0.writeFaults = faults
        })
        recorder.record(action: .add(1), state: Counter(count: 1), effect: nil)
        recorder.flush()
        faults.set(.diskFull)
        faults.hold()
        recorder.record(action: .add(2), state: Counter(count: 3), effect: nil)
        while !faults.isHoldingOne { usleep(1_000) }
        // The commit of entry 2 waits: entries 3 and 4 are encoded meanwhile, as deltas from entry 2.
        recorder.record(action: .add(3), state: Counter(count: 6), effect: nil)
        recorder.record(action: .add(4), state: Counter(count: 10), effect: nil)
        while recorder.encodedSteps < 4 { usleep(1_000) }
        faults.release()
        recorder.flush()
        faults.set(nil)
        recorder.record(action: .add(5), state: Counter(count: 15), effect: nil)
        recorder.close()

        #expect(log.all.map(\.description) == [
            "stall.actionlog, session 1, entry 2: entry 2 was not written: SQLite error 13: database or disk is full — while executing COMMIT; "
                + "until a write succeeds again, what is recorded is lost, and then written as a gap"
        ])
        #expect(recorder.statistics == RecorderStatistics(recorded: 6, dropped: 0, committed: 3, lost: 3, pending: 0))
        let journal = try Journal(path: path)
        let entries = try journal.entries(in: recorder.sessionID)
        #expect(entries.map(\.kind) == [.keyframe, .keyframe, .gap, .keyframe])
        #expect(entries[2].content.gap?.dropped == 3)
        #expect(entries[2].content.gap?.note == "3 actions lost: the write failed (SQLite error 13: database or disk is full — while executing COMMIT)")
        #expect(try entries[3].content.storedJSON?.decode(Counter.self) == Counter(count: 15))
        #expect(try journal.verify().isValid)
    }

    @Test("while the disk stalls, the writer still lets each state go: the app's next in-place mutation copies nothing")
    func stalledDiskHoldsNoState() throws {
        struct History: Codable, Equatable, Sendable {
            var lines: [Int]
        }
        let path = directory.path("stalled.actionlog")
        let faults = WriteFaults()
        let recorder = try Recorder<History, CounterAction, Never>(
            path: path, sessionName: "s", initialState: History(lines: []), configuration: configuration(ErrorLog()) {
                $0.batchSize = 1
                $0.writeFaults = faults
            })
        var state = History(lines: Array(0..<10_000))
        recorder.record(action: .increment, state: state)
        recorder.flush()
        faults.hold()
        state.lines.append(10_000)
        recorder.record(action: .increment, state: state)
        while !faults.isHoldingOne { usleep(1_000) }
        state.lines.append(10_001)
        recorder.record(action: .increment, state: state)
        while recorder.encodedSteps < 3 { usleep(1_000) }
        // The commit of the first append still waits; the second append is encoded and released.
        let before = state.lines.withUnsafeBufferPointer { $0.baseAddress }
        state.lines[0] = -1
        let after = state.lines.withUnsafeBufferPointer { $0.baseAddress }
        faults.release()
        recorder.close()

        #expect(before == after)
        #expect(recorder.statistics == RecorderStatistics(recorded: 4, dropped: 0, committed: 4, lost: 0, pending: 0))
        let states = try Journal(path: path).entries(in: recorder.sessionID).count
        #expect(states == 4)
    }

    @Test("the entry after a gap of dropped actions is a delta from the state before the gap, made from what changed: an unchanged part of the state is not encoded again")
    func entryAfterGapEncodesTheChange() throws {
        let path = directory.path("gap-delta.actionlog")
        let log = ErrorLog()
        var state = Catalogue()
        // Large enough that a change of the count is stored as a delta, as the keyframe policy decides.
        state.part.names = (0..<3).map { "a name long enough that the whole state outweighs a change of the count, \($0)" }
        let recorder = try Recorder<Catalogue, CounterAction, Never>(
            path: path, sessionName: "s", initialState: state,
            configuration: configuration(log) {
                $0.queueCapacity = 1
                $0.batchSize = 10_000
                $0.writerWaitsForFlush = true
                $0.batchInterval = .seconds(3600)
                $0.backpressure = .drop
            })
        // Three steps into a queue that holds one: the last two are dropped, the next step after
        // the flush follows a gap.
        for step in 1...3 {
            state.count = step
            recorder.record(action: .add(1), state: state)
        }
        recorder.flush()
        let encodedBefore = CountedPart.encodeCount.withLock { $0 }
        state.count = 10
        recorder.record(action: .add(7), state: state)
        recorder.close()

        #expect(CountedPart.encodeCount.withLock { $0 } == encodedBefore, "the unchanged part was encoded again")
        let journal = try Journal(path: path)
        let entries = try journal.entries(in: recorder.sessionID)
        #expect(entries.map(\.kind) == [.keyframe, .delta, .gap, .delta])
        #expect(entries[3].content == .delta(JSONPatch(operations: [.replace(path: JSONPointer("/count")!, value: 10)])))
        #expect(try journal.state(at: 3, in: recorder.sessionID).decode(Catalogue.self) == state)
        #expect(log.all.map(\.code) == [.dropped])
    }

    @Test("a file the recorder cannot open for writing throws at start-up, naming the file")
    func unwritableLocation() throws {
        let path = directory.path("no/such/dir/x.actionlog")
        let error = #expect(throws: ActionLogError.self) {
            try CounterRecorder(path: path, sessionName: "s", initialState: Counter())
        }
        #expect(error?.description == "x.actionlog: cannot create \(path): No such file or directory")
        #expect(error?.code == .fileSystem)
    }
}

@Suite("ActionLogError: what the default handler prints")
struct RecorderErrorReportTests {
    @Test("control and bidirectional characters from a file name or a reason are escaped, on one line")
    func escapesControlCharacters() {
        let error = ActionLogError(.encodingFailed, file: "app\u{1B}]0;x\u{07}.actionlog", session: 3, entry: 4,
            reason: "action \"add\ncart\u{202E}\" does not encode")
        #expect(error.description == #"app\u{1B}]0;x\u{7}.actionlog, session 3, entry 4: action "add\u{A}cart\u{202E}" does not encode"#)
    }
}

/// A state with a part that counts how often it is encoded: what a writer encodes again shows in
/// ``CountedPart/encodeCount``.
private struct Catalogue: Codable, Equatable, Sendable {
    var count = 0
    var part = CountedPart()
}

private struct CountedPart: Codable, Equatable, Sendable {
    static let encodeCount = Locked(0)
    var names = ["a", "b", "c"]

    init() {}

    init(from decoder: any Decoder) throws {
        names = try decoder.singleValueContainer().decode([String].self)
    }

    func encode(to encoder: any Encoder) throws {
        Self.encodeCount.withLock { $0 += 1 }
        var container = encoder.singleValueContainer()
        try container.encode(names)
    }
}
