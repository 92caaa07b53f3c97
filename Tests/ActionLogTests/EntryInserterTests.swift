import Foundation
import Testing
@testable import ActionLog

@Suite("Writer: entries inserted many rows per statement")
struct EntryInserterTests {
    let directory = TemporaryDirectory()

    enum Plain: Codable, Equatable, Sendable { case increment, set(index: Int, quantity: Int), scale(Double, flag: Bool) }

    @Test("batches of any size are stored entry by entry, in order", arguments: [1, 2, 3, 31, 32, 33, 63, 64, 100, 257])
    func batchSizes(count: Int) throws {
        let path = directory.path("batch-\(count).actionlog")
        let recorder = try Recorder<Counter, Plain, Plain>(path: path, sessionName: "s", initialState: Counter(), configuration: configuration(ErrorLog()) {
            $0.batchSize = 10_000
            $0.batchInterval = .seconds(3600)
        })
        var expected: [(Plain, Plain?)] = []
        for index in 0..<count {
            let action: Plain = index.isMultiple(of: 3) ? .set(index: index, quantity: index % 5) : .increment
            let effect: Plain? = index.isMultiple(of: 4) ? .scale(Double(index) / 4, flag: true) : nil
            recorder.record(action: action, state: Counter(count: index, history: [index], label: index.isMultiple(of: 2) ? "é\(index)" : nil), effect: effect)
            expected.append((action, effect))
        }
        recorder.close()
        let entries = try Journal(path: path).entries(in: recorder.sessionID)
        #expect(entries.map(\.seq) == Array(0...count))
        var states = StateWalk(file: "batch", session: nil)
        for (index, entry) in entries.enumerated() {
            try states.advance(past: entry)
            let state = states.state
            guard index > 0 else { continue }
            let (action, effect) = expected[index - 1]
            #expect(try entry.action?.decode(Plain.self) == action)
            #expect(try entry.effect?.decode(Plain.self) == effect)
            #expect(entry.label == ActionLabel.of(action))
            #expect(try state?.decode(Counter.self) == Counter(count: index - 1, history: [index - 1], label: (index - 1).isMultiple(of: 2) ? "é\(index - 1)" : nil))
        }
    }

    struct Labeled: Codable, Sendable, ActionLabeled {
        var text: String
        var actionLabel: String { "say\u{0}\(text)" }
    }

    @Test("a text with a NUL inside is stored whole, not cut at the NUL")
    func textsWithNUL() throws {
        let path = directory.path("nul.actionlog")
        let recorder = try Recorder<Counter, Labeled, Never>(path: path, sessionName: "s", initialState: Counter(), configuration: configuration(ErrorLog()))
        recorder.record(action: Labeled(text: "a\u{0}b"), state: Counter(count: 1, history: [1], label: "x\u{0}y"))
        recorder.close()
        let entry = try Journal(path: path).entry(1, in: recorder.sessionID)
        #expect(entry.label == "say\u{0}a\u{0}b")
        #expect(entry.action == ["text": "a\u{0}b"])
    }

    @Test("keyframes, deltas and gaps written without SQLite's CHECK evaluation still pass the journal's verify")
    func constraintsHold() throws {
        let path = directory.path("verify.actionlog")
        let log = ErrorLog()
        let recorder = try Recorder<Counter, PoisonableAction, Never>(path: path, sessionName: "s", initialState: Counter(), configuration: configuration(log))
        var state = Counter()
        for index in 0..<300 {
            let action = PoisonableAction(index == 150 ? .poison : .increment)
            state.count += 1
            state.history.append(index)
            recorder.record(action: action, state: state)
        }
        recorder.close()
        let journal = try Journal(path: path)
        let kinds = Set(try journal.entries(in: recorder.sessionID).map(\.kind))
        #expect(kinds == [.keyframe, .delta, .gap])
        #expect(log.all.map(\.code) == [.encodingFailed])
        #expect(try journal.verify().isValid)
    }

    @Test("a failed insert of many rows names the one-row statement, as a single row's would")
    func failureMessage() throws {
        let path = directory.path("full.actionlog")
        let log = ErrorLog()
        let recorder = try CounterRecorder(path: path, sessionName: "s", initialState: Counter(), configuration: configuration(log) {
            $0.batchSize = 10_000
            $0.batchInterval = .seconds(3600)
        })
        recorder.flush()
        try sql(path, "CREATE TRIGGER refuse BEFORE INSERT ON entries BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END;")
        for count in 1...45 { recorder.record(action: .increment, state: Counter(count: count), effect: nil) }
        recorder.flush()
        #expect(log.all.map(\.description) == [
            "full.actionlog, session 1, entry 1: entries 1...45 were not written: SQLite error 19: database or disk is full — while executing "
                + "INSERT INTO entries (session_id, seq, kind, time, label, action, state, effect, duration_ns, dropped, note, checksum) "
                + "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12); until a write succeeds again, what is recorded is lost, and then written as a gap"
        ])
        recorder.close()
    }
}
