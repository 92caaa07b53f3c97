import Foundation
import Testing
@testable import ActionLog

@Suite("Recorder: hand-off, batching, flush and close, crash recovery")
struct RecorderTests {
    let directory = TemporaryDirectory()

    @Test("N recorded actions read back identical, with labels, effects and durations")
    func readsBackIdentical() throws {
        let path = directory.path("n.actionlog")
        let log = ErrorLog()
        let recorder = try CounterRecorder(path: path, sessionName: "counter", initialState: Counter(), configuration: configuration(log) { $0.batchSize = 64 })
        var state = Counter()
        var expected: [(CounterAction, Counter, CounterEffect?)] = []
        let reduce = recorder.recording(reduceCounter)
        for index in 0..<1_000 {
            let action: CounterAction = index % 3 == 0 ? .add(index) : index % 7 == 0 ? .rename(to: "n\(index)") : .increment
            let effect = reduce(&state, action)
            expected.append((action, state, effect))
        }
        recorder.close()
        #expect(log.all.isEmpty)
        #expect(recorder.statistics == RecorderStatistics(recorded: 1_001, dropped: 0, committed: 1_001, lost: 0, pending: 0))

        let journal = try Journal(path: path)
        let session = try journal.session(recorder.sessionID)
        #expect(session.status == .closed)
        #expect(session.entryCount == 1_001)
        #expect(session.stateType == "ActionLogTests.Counter")
        #expect(session.actionType == "ActionLogTests.CounterAction")
        #expect(session.effectType == "ActionLogTests.CounterEffect")
        #expect(session.libraryVersion == ActionLogLibrary.version)
        let entries = try journal.entries(in: session.id)
        #expect(entries.map(\.seq) == Array(0...1_000))
        #expect(entries[0].action == nil && entries[0].label == nil)
        #expect(try entries[0].content.storedJSON?.decode(Counter.self) == Counter())
        var states = StateWalk(file: journal.fileName, session: recorder.sessionID)
        try states.advance(past: entries[0])
        for (entry, (action, state, effect)) in zip(entries.dropFirst(), expected) {
            try states.advance(past: entry)
            let recorded = states.state
            #expect(try entry.action?.decode(CounterAction.self) == action)
            #expect(try recorded?.decode(Counter.self) == state)
            #expect(try entry.effect?.decode(CounterEffect.self) == effect)
            #expect(entry.reducerDuration != nil)
        }
        #expect(entries[1].label == "add")
        #expect(entries[2].label == "increment")
        #expect(entries[15].label == "rename")
        #expect(entries[1].action?.canonicalText == #"{"add":{"_0":0}}"#)
    }

    @Test("flush returns with everything committed and visible to another reader; the session stays recording")
    func flushCommits() throws {
        let path = directory.path("flush.actionlog")
        // A long batch interval and a large batch: without flush nothing would be written yet.
        let recorder = try CounterRecorder(path: path, sessionName: "s", initialState: Counter(), configuration: configuration(ErrorLog()) {
            $0.batchSize = 10_000
            $0.batchInterval = .seconds(3600)
        })
        for count in 1...25 { recorder.record(action: .increment, state: Counter(count: count), effect: nil) }
        recorder.flush()
        let journal = try Journal(path: path)
        #expect(try journal.session(recorder.sessionID).entryCount == 26)
        #expect(try journal.session(recorder.sessionID).status == .recording)
        #expect(try journal.state(at: 25, in: recorder.sessionID).decode(Counter.self) == Counter(count: 25))
        recorder.close()
        let closed = try journal.session(recorder.sessionID)
        #expect(closed.status == .closed)
        #expect(closed.endedAt != nil)
        #expect(!FileManager.default.fileExists(atPath: SessionLock.path(journal: path, session: recorder.sessionID)))
    }

    @Test("entries are committed by time even when no batch fills up")
    func commitsByTime() async throws {
        let path = directory.path("time.actionlog")
        let recorder = try CounterRecorder(path: path, sessionName: "s", initialState: Counter(), configuration: configuration(ErrorLog()) {
            $0.batchSize = 10_000
            $0.batchInterval = .milliseconds(20)
        })
        recorder.record(action: .increment, state: Counter(count: 1), effect: nil)
        let journal = try Journal(path: path)
        var committed = 0
        for _ in 0..<500 where committed < 2 {
            try await Task.sleep(for: .milliseconds(10))
            committed = try journal.session(recorder.sessionID).entryCount
        }
        #expect(committed == 2)
        recorder.close()
    }

    @Test("close is idempotent, and recording after close changes nothing")
    func closeTwice() throws {
        let path = directory.path("close.actionlog")
        let recorder = try CounterRecorder(path: path, sessionName: "s", initialState: Counter(), configuration: configuration(ErrorLog()))
        recorder.record(action: .increment, state: Counter(count: 1), effect: nil)
        recorder.close()
        recorder.close()
        recorder.record(action: .increment, state: Counter(count: 2), effect: nil)
        recorder.flush()
        #expect(try Journal(path: path).session(recorder.sessionID).entryCount == 2)
    }

    @Test("a session whose recorder died opens as interrupted with every committed entry intact")
    func interrupted() throws {
        let path = directory.path("crash.actionlog")
        let recorder = try CounterRecorder(path: path, sessionName: "doomed", initialState: Counter(), configuration: configuration(ErrorLog()) {
            $0.batchSize = 10_000
            $0.batchInterval = .seconds(3600)
        })
        for count in 1...10 { recorder.record(action: .increment, state: Counter(count: count), effect: nil) }
        recorder.flush()
        // Handed over but never committed: lost with the process.
        for count in 11...15 { recorder.record(action: .increment, state: Counter(count: count), effect: nil) }
        #expect(try Journal(path: path).session(recorder.sessionID).status == .recording)

        recorder.abandon()

        let reader = try Journal(path: path)
        let session = try reader.session(recorder.sessionID)
        #expect(session.status == .interrupted)
        #expect(session.entryCount == 11)
        #expect(session.endedAt == session.lastEntryAt)
        #expect(try reader.state(at: 10, in: session.id).decode(Counter.self) == Counter(count: 10))
        #expect(try reader.verify().isValid)

        // The next writer persists the status and removes the stale lock file.
        let next = try CounterRecorder(path: path, sessionName: "next", initialState: Counter(), configuration: configuration(ErrorLog()))
        next.close()
        let connection = try Connection(path: path, mode: .readOnly)
        #expect(try connection.scalarText("SELECT status FROM sessions WHERE id = ?1", [.integer(session.id)]) == "interrupted")
        #expect(!FileManager.default.fileExists(atPath: SessionLock.path(journal: path, session: session.id)))
        #expect(try Journal(path: path).sessions().map(\.status) == [.interrupted, .closed])
    }

    @Test("two live recorders on one journal write separate sessions")
    func twoRecorders() throws {
        let path = directory.path("two.actionlog")
        let first = try CounterRecorder(path: path, sessionName: "first", initialState: Counter(), configuration: configuration(ErrorLog()))
        let second = try CounterRecorder(path: path, sessionName: "second", initialState: Counter(count: 100), configuration: configuration(ErrorLog()))
        for count in 1...50 {
            first.record(action: .increment, state: Counter(count: count), effect: nil)
            second.record(action: .increment, state: Counter(count: 100 + count), effect: nil)
        }
        first.flush()
        second.flush()
        #expect(try Journal(path: path).sessions().map(\.status) == [.recording, .recording])
        first.close()
        second.close()
        let sessions = try Journal(path: path).sessions()
        #expect(sessions.map(\.entryCount) == [51, 51])
        #expect(sessions.map(\.status) == [.closed, .closed])
    }
}

@Suite("Recorder: the caller's state buffers are the caller's alone once the writer took the step")
struct RecorderSharingTests {
    let directory = TemporaryDirectory()

    struct Ledger: Codable, Equatable, Sendable {
        var lines: [Int] = Array(0..<200)
        var total = 0
    }

    enum Post: Codable, Equatable, Sendable { case post(Int) }

    static func reduce(_ state: inout Ledger, _ action: Post) {
        switch action {
        case .post(let amount):
            state.lines.append(amount)
            state.total += amount
            state.lines[amount % state.lines.count] += 1
        }
    }

    @Test("after record and a drained writer, the app mutates its history in place (no copy), and every state reads back")
    func noCopyAfterDrain() throws {
        let path = directory.path("ledger.actionlog")
        var state = Ledger()
        state.lines.reserveCapacity(1_000)
        let recorder = try Recorder<Ledger, Post, Never>(path: path, sessionName: "ledger", initialState: state, configuration: configuration(ErrorLog()))
        // The states as JSON: keeping the values would share their buffers.
        var expected = [try JSONValueEncoder().encode(state)]
        for amount in 1...100 {
            recorder.flush()  // The writer took (and encoded) everything handed over.
            let before = state.lines.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
            Self.reduce(&state, .post(amount))
            #expect(state.lines.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) } == before, "dispatch \(amount) copied the history")
            recorder.record(action: .post(amount), state: state)
            expected.append(try JSONValueEncoder().encode(state))
        }
        recorder.close()
        let journal = try Journal(path: path)
        for (seq, state) in expected.enumerated() {
            #expect(try journal.state(at: seq, in: recorder.sessionID) == state)
        }
    }
}
