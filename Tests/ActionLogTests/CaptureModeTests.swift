import Foundation
import Testing
@testable import ActionLog

@Suite("Capture mode: the last window in memory, written on a trigger")
struct CaptureModeTests {
    let directory = TemporaryDirectory()

    /// Records `count` actions through `recorder`, returning the app's states, index 0 the initial state.
    private func record(_ count: Int, _ recorder: CounterRecorder, from start: Counter = Counter(), action: (Int) -> CounterAction = { $0 % 3 == 0 ? .add($0) : .increment }) -> [Counter] {
        var state = start
        var states = [state]
        for index in 0..<count {
            let effect = reduceCounter(&state, action(index))
            recorder.record(action: action(index), state: state, effect: effect)
            states.append(state)
        }
        return states
    }

    /// The states of every entry of the session, entry 0 first.
    private func states(_ journal: Journal, _ session: JournalSession.ID) throws -> [Counter] {
        var walk = StateWalk(file: journal.fileName, session: session)
        var states: [Counter] = []
        for entry in try journal.entries(in: session) {
            try walk.advance(past: entry)
            states.append(try #require(walk.state).decode(Counter.self))
        }
        return states
    }

    private func capture(_ log: ErrorLog, _ window: CaptureWindow, _ change: (inout RecorderConfiguration) -> Void = { _ in }) -> RecorderConfiguration {
        configuration(log) {
            $0.capture = window
            $0.backpressure = .block
            change(&$0)
        }
    }

    @Test("nothing is written, and no file created, while nothing triggers a capture")
    func nothingOnDisk() throws {
        let path = directory.path("quiet.actionlog")
        let log = ErrorLog()
        let recorder = try CounterRecorder(path: path, sessionName: "app", initialState: Counter(), configuration: capture(log, CaptureWindow(entries: 50)))
        _ = record(500, recorder)
        recorder.flush()
        #expect(!FileManager.default.fileExists(atPath: path))
        recorder.close()
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
        #expect(recorder.sessionID == 0)
        #expect(log.all.isEmpty)
    }

    @Test("a capture writes the window from the state at its start, then the stretch after it, closed, with its reason")
    func writesWindowAndStretch() throws {
        let path = directory.path("capture.actionlog")
        let log = ErrorLog()
        let recorder = try CounterRecorder(path: path, sessionName: "app", initialState: Counter(), configuration: capture(log,
            CaptureWindow(entries: 50, duration: .seconds(3600), bytes: 1 << 20, followingEntries: 5, followingDuration: .seconds(3600))))
        let before = record(200, recorder)
        recorder.capture(reason: "checkout failed")
        let after = record(10, recorder, from: before[200])
        recorder.flush()
        let journal = try Journal(path: path)
        let sessions = try journal.sessions()
        try #require(sessions.count == 1)
        let session = sessions[0]
        #expect(recorder.sessionID == session.id)
        #expect(session.status == .closed)
        #expect(session.entryCount == 1 + 50 + 5)
        #expect(session.name == "app")
        #expect(session.metadata[CaptureCommitter.metadataKey] == ["reason": "checkout failed", "actionsBefore": .number("150")])
        #expect(try states(journal, session.id) == Array(before[150...200]) + Array(after[1...5]))
        let entries = try journal.entries(in: session.id)
        #expect(entries[0].content.kind == .keyframe && entries[0].action == nil)
        #expect(try entries[1].action?.decode(CounterAction.self) == .add(150))
        #expect(entries.allSatisfy { $0.kind != .gap })
        recorder.close()
        #expect(try journal.sessions().count == 1)
        #expect(log.all.isEmpty)
    }

    @Test("a capture during the stretch is folded into its session; one after it writes a new session")
    func capturesFoldAndFollow() throws {
        let path = directory.path("twice.actionlog")
        let log = ErrorLog()
        let recorder = try CounterRecorder(path: path, sessionName: "app", initialState: Counter(), configuration: capture(log,
            CaptureWindow(entries: 10, duration: .seconds(3600), followingEntries: 4, followingDuration: .seconds(3600))))
        var states = record(20, recorder)
        recorder.capture(reason: "first")
        states += record(2, recorder, from: states.last!).dropFirst()
        recorder.capture(reason: "second")   // two entries into the stretch: it runs on for 4 more
        states += record(30, recorder, from: states.last!).dropFirst()
        recorder.capture(reason: "third")
        recorder.close()
        let journal = try Journal(path: path)
        let sessions = try journal.sessions()
        try #require(sessions.count == 2)
        #expect(try self.states(journal, sessions[0].id) == Array(states[10...26]))
        #expect(sessions[0].metadata[CaptureCommitter.metadataKey]?["reason"] == "first")
        #expect(try self.states(journal, sessions[1].id) == Array(states[42...52]))
        #expect(sessions[1].metadata[CaptureCommitter.metadataKey] == ["reason": "third", "actionsBefore": .number("42")])
        #expect(sessions.allSatisfy { $0.status == .closed })
        #expect(log.all.isEmpty)
    }

    @Test("the window holds what was recorded within its duration of the newest entry, by the entries' recorded times")
    func windowByRecordedTime() throws {
        let path = directory.path("time.actionlog")
        let recorder = try CounterRecorder(path: path, sessionName: "app", initialState: Counter(), configuration: capture(ErrorLog(),
            CaptureWindow(entries: 1_000, duration: .milliseconds(1), followingEntries: 0)))
        let states = record(300, recorder)
        recorder.capture(reason: "now")
        recorder.close()
        let journal = try Journal(path: path)
        let session = try #require(try journal.sessions().first)
        let entries = try journal.entries(in: session.id)
        let newest = try #require(entries.last).time
        // Every entry after entry 0 is within the window's duration of the newest; the one before the
        // first of them (entry 0's) is not, or is the initial state.
        #expect(entries.dropFirst().allSatisfy { newest.timeIntervalSince($0.time) <= 0.001 })
        let recorded = try self.states(journal, session.id)
        #expect(recorded == Array(states.suffix(recorded.count)))
        #expect(session.metadata[CaptureCommitter.metadataKey]?["actionsBefore"] == .number(String(300 - (entries.count - 1))))
    }

    @Test("many small entries: the window never holds more than its bytes, and a capture still starts from a full state")
    func bytesBoundSmallEntries() throws {
        let path = directory.path("small.actionlog")
        let log = ErrorLog()
        let recorder = try CounterRecorder(path: path, sessionName: "app", initialState: Counter(), configuration: capture(log,
            CaptureWindow(entries: 100_000, duration: .seconds(3600), bytes: 16 << 10, followingEntries: 0)))
        // Small entries (a rename each, an increment now and then): the window's bytes, not its count, decide.
        let states = record(3_000, recorder) { $0 % 100 == 0 ? .increment : .rename(to: "name \($0)") }
        recorder.capture(reason: "bytes")
        recorder.close()
        #expect(recorder.captureHeldBytesPeak <= 16 << 10)
        #expect(recorder.captureHeldBytesPeak > 8 << 10)
        let journal = try Journal(path: path)
        let session = try #require(try journal.sessions().first)
        let recorded = try self.states(journal, session.id)
        #expect(recorded.count > 10)
        #expect(recorded == Array(states.suffix(recorded.count)))
        #expect(log.all.isEmpty)
    }

    @Test("states of megabytes: the window never holds more than its bytes; one larger than all of them is not kept")
    func bytesBoundLargeStates() throws {
        let path = directory.path("large.actionlog")
        let log = ErrorLog()
        let big = Counter(count: 0, history: Array(0..<150_000), label: nil)  // about 1 MB encoded
        let recorder = try CounterRecorder(path: path, sessionName: "app", initialState: big, configuration: capture(log,
            CaptureWindow(entries: 1_000, duration: .seconds(3600), bytes: 3 << 20, followingEntries: 0)))
        let states = record(40, recorder, from: big)
        recorder.capture(reason: "large")
        recorder.flush()
        #expect(recorder.captureHeldBytesPeak <= 3 << 20)
        let journal = try Journal(path: path)
        let session = try #require(try journal.sessions().first)
        let recorded = try self.states(journal, session.id)
        #expect(recorded.count > 1)
        #expect(recorded == Array(states.suffix(recorded.count)))
        recorder.close()
        #expect(log.all.isEmpty)

        // A window of little more than one state: the state at its start is rebuilt as a keyframe.
        let tightPath = directory.path("tight.actionlog")
        let tightLog = ErrorLog()
        let tight = try CounterRecorder(path: tightPath, sessionName: "app", initialState: big, configuration: capture(tightLog,
            CaptureWindow(entries: 100_000, duration: .seconds(3600), bytes: 1_200_000, followingEntries: 0)))
        let tightStates = record(4_000, tight, from: big) { .rename(to: "a name long enough to fill the window \($0)") }
        tight.capture(reason: "tight")
        tight.close()
        #expect(tight.captureHeldBytesPeak <= 1_200_000)
        let tightJournal = try Journal(path: tightPath)
        let tightSession = try #require(try tightJournal.sessions().first)
        // Decoding a megabyte per entry is slow in a debug build: entry 0 and the last in full, the actions of all.
        let tightEntries = try tightJournal.entries(in: tightSession.id)
        let count = tightEntries.count
        #expect(count > 100 && count < 4_000)
        #expect(try tightJournal.state(at: 0, in: tightSession.id).decode(Counter.self) == tightStates[4_000 - (count - 1)])
        #expect(try tightJournal.state(at: count - 1, in: tightSession.id).decode(Counter.self) == tightStates[4_000])
        #expect(try tightEntries.dropFirst().map { try $0.action?.decode(CounterAction.self) }
            == (4_001 - count..<4_000).map { .rename(to: "a name long enough to fill the window \($0)") })
        #expect(tightLog.all.isEmpty)

        let smallPath = directory.path("too-small.actionlog")
        let smallLog = ErrorLog()
        let small = try CounterRecorder(path: smallPath, sessionName: "app", initialState: big, configuration: capture(smallLog,
            CaptureWindow(entries: 1_000, duration: .seconds(3600), bytes: 256 << 10, followingEntries: 0)))
        _ = record(5, small, from: big)
        small.capture(reason: "too large")
        small.close()
        #expect(small.captureHeldBytesPeak <= 256 << 10)
        #expect(!FileManager.default.fileExists(atPath: smallPath))
        #expect(smallLog.all.map(\.description) == [
            "too-small.actionlog: the capture \"too large\" was not written: the window holds no state (each was larger than its 262144 bytes)",
        ])
    }

    @Test("an action that does not encode triggers a capture whose window ends with its gap")
    func encodingFailureTriggers() throws {
        let path = directory.path("poison.actionlog")
        let log = ErrorLog()
        var config = configuration(log)
        config.capture = CaptureWindow(entries: 5, duration: .seconds(3600), followingEntries: 2, followingDuration: .seconds(3600))
        let recorder = try Recorder<Counter, PoisonableAction, Never>(path: path, sessionName: "app", initialState: Counter(), configuration: config)
        var state = Counter()
        for index in 1...12 {
            let action: CounterAction = index == 8 ? .poison : .increment
            _ = reduceCounter(&state, action)
            recorder.record(action: PoisonableAction(action), state: state)
        }
        recorder.close()
        let journal = try Journal(path: path)
        let session = try #require(try journal.sessions().first)
        let entries = try journal.entries(in: session.id)
        #expect(entries.count == 1 + 5 + 2)
        #expect(entries[5].kind == .gap)
        #expect(session.metadata[CaptureCommitter.metadataKey] == [
            "reason": "the recorder lost an action: \"poison\" does not encode: refused to encode", "actionsBefore": .number("3"),
        ])
        #expect(log.all.map(\.code) == [.encodingFailed])
    }

    /// Drops made deterministic as in GapDeltaTests: the writer takes nothing until the test
    /// flushes, and the queue holds 4, so 6 dispatches keep 4 and drop 2.
    @Test("actions the writer drops trigger a capture whose window ends with their gap")
    func droppedActionsTrigger() throws {
        let path = directory.path("dropped.actionlog")
        let log = ErrorLog()
        let window = CaptureWindow(entries: 50, duration: .seconds(3600), followingEntries: 2, followingDuration: .seconds(3600))
        let recorder = try CounterRecorder(
            path: path, sessionName: "app", initialState: Counter(),
            configuration: capture(log, window) {
                $0.writerWaitsForFlush = true
                $0.queueCapacity = 4
                $0.queueByteCapacity = 1 << 40
                $0.backpressure = .drop
            })
        let states = record(6, recorder, action: { _ in .increment })
        recorder.flush()
        var after = states.last ?? Counter()
        for _ in 0..<3 {
            let effect = reduceCounter(&after, .increment)
            recorder.record(action: .increment, state: after, effect: effect)
            recorder.flush()
        }
        recorder.close()
        let journal = try Journal(path: path)
        let session = try #require(try journal.sessions().first)
        let entries = try journal.entries(in: session.id)
        // The initial state, the 4 kept, the gap of the 2 dropped, then the 2 that follow it.
        #expect(entries.map { $0.kind == .gap } == [false, false, false, false, false, true, false, false])
        let counts = try entries.filter { $0.kind != .gap }.map { try journal.state(at: $0.seq, in: session.id).decode(Counter.self).count }
        #expect(counts == [0, 1, 2, 3, 4, 7, 8])
        #expect(session.metadata[CaptureCommitter.metadataKey]?["reason"] == .string("the recorder lost 2 actions: 2 actions dropped: the writer fell behind"))
        #expect(log.all.map(\.code) == [.dropped])
    }

    /// An actor ViewModel's recorder, as an app's "report a bug" button calls it.
    @Test("an actor ViewModel's recorder captures on capture(reason:), after settle, with the handlers that returned")
    func viewModelRecorderCaptures() async throws {
        let path = directory.path("view-model.actionlog")
        let log = ErrorLog()
        let tally = Tally()
        let recorder = try await ViewModelRecorder<Counter, CounterAction>(
            path: path, sessionName: "tally", configuration: capture(log, CaptureWindow(entries: 3, duration: .seconds(3600), followingEntries: 1, followingDuration: .seconds(3600))),
            handle: { _ in await tally.increment() },
            snapshot: { Counter(count: tally.count) })
        for _ in 0..<5 { recorder.send(.increment) }
        await recorder.settle()
        #expect(!FileManager.default.fileExists(atPath: path))
        recorder.capture(reason: "the tester tapped Report a bug")
        for _ in 0..<2 { recorder.send(.increment) }
        await recorder.settle()
        recorder.close()
        let journal = try Journal(path: path)
        let session = try #require(try journal.sessions().first)
        // The state before the window's 3 entries, the 3, then the 1 after the capture.
        let counts = try (0..<session.entryCount).map { try journal.state(at: $0, in: session.id).decode(Counter.self).count }
        #expect(counts == [2, 3, 4, 5, 6])
        #expect(session.metadata[CaptureCommitter.metadataKey]?["reason"] == .string("the tester tapped Report a bug"))
        #expect(log.all.isEmpty, "\(log.all)")
    }
}

/// An actor ViewModel's state class, as the app's view reads it.
@MainActor private final class Tally {
    var count = 0
    func increment() { count += 1 }
}
