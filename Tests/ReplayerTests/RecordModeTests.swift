import ActionLog
import Foundation
import Replayer
import Testing

/// A tally: the smallest feature with an effect, for exercising record modes.
struct Tally: Codable, Equatable, Sendable {
    var total = 0
    enum Action: Codable, Equatable, Sendable {
        case add(Int)
        case reset
    }
    enum Effect: Codable, Equatable, Sendable {
        case announce(Int)
    }
    static func reducer(step: Int = 1) -> (inout Tally, Action) -> Effect? {
        { state, action in
            switch action {
            case .add(let amount): state.total += amount * step
            case .reset: state.total = 0
            }
            return state.total >= 10 ? .announce(state.total) : nil
        }
    }
    static let script: [Action] = [.add(2), .add(3), .add(5), .reset, .add(1)]
}

@Suite("Record modes: when a golden is written, and what the message says")
struct RecordModeTests {
    let directory = TemporaryDirectory()

    func verify(
        _ path: String, record: RecordMode? = nil, environment: [String: String] = [:], step: Int = 1,
        ifMissing: GoldenSource<Tally, Tally.Action>? = .actions(from: Tally(), Tally.script)
    ) -> GoldenReport {
        verifyReplay(golden: path, of: .reducer(Tally.reducer(step: step), ifMissing: ifMissing), record: record, environment: environment)
    }

    @Test("the environment picks the mode: ACTIONLOG_RECORD first, never when CI is set, missing otherwise")
    func modeFromEnvironment() throws {
        #expect(try RecordMode.fromEnvironment([:]) == .missing)
        #expect(try RecordMode.fromEnvironment(["CI": "true"]) == .never)
        #expect(try RecordMode.fromEnvironment(["CI": "false"]) == .missing)
        #expect(try RecordMode.fromEnvironment(["CI": "1", "ACTIONLOG_RECORD": "failed"]) == .failed)
        #expect(throws: ReplayError(.unknownRecordMode, "ACTIONLOG_RECORD=sometimes is not a record mode; use never, missing, failed or all")) {
            try RecordMode.fromEnvironment(["ACTIONLOG_RECORD": "sometimes"])
        }
    }

    @Test("missing (the default locally): records a missing golden, fails saying so, and passes on the next run")
    func missingRecords() throws {
        let path = directory.path("tally.jsonl")
        let first = verify(path)
        #expect(first.message == """
            Recorded a new golden at \(path) (record mode missing): 6 entries. Review it, commit it, and re-run the test.
            """)
        #expect(first.wroteGolden)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.split(separator: "\n").count == 7, "a header and 6 entries")
        #expect(text.hasPrefix(#"{"actionlog":"session","format":1,"name":"tally","status":"closed","startedAt":"1970-01-01T00:00:00.000000Z","#))

        let second = verify(path)
        #expect(second.passed, "\(second.message ?? "")")
        #expect(second.replay?.entriesReplayed == 5)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text, "checking does not write")
    }

    @Test("with CI set, a missing golden fails and nothing is written")
    func ciNeverRecords() {
        let path = directory.path("tally.jsonl")
        let result = verify(path, environment: ["CI": "true"])
        #expect(result.message == """
            No golden at \(path) (record mode never, because CI is set). Record it on a developer machine \
            (ACTIONLOG_RECORD=missing), review it and commit it.
            """)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("a missing golden without ifMissing says how to make one")
    func missingWithoutSource() {
        let path = directory.path("tally.jsonl")
        #expect(verify(path, ifMissing: nil).message == """
            No golden at \(path). Export a recorded session into it (replay-cli export app.actionlog --session NAME \
            --format jsonl --output \(path)), or pass ifMissing: to record one.
            """)
    }

    @Test("a bad ACTIONLOG_RECORD fails with the accepted values")
    func badEnvironment() {
        #expect(verify(directory.path("tally.jsonl"), environment: ["ACTIONLOG_RECORD": "yes"]).message
            == "ACTIONLOG_RECORD=yes is not a record mode; use never, missing, failed or all")
    }

    @Test("failed: a divergence re-records states and effects, keeps the actions, and says what changed")
    func failedRerecords() throws {
        let path = directory.path("tally.jsonl")
        _ = verify(path)
        let before = try RecordedSession(contentsOfJSONL: URL(fileURLWithPath: path))

        let result = verify(path, environment: ["ACTIONLOG_RECORD": "failed"], step: 2)
        #expect(result.wroteGolden)
        #expect(result.message == """
            Replay diverged at entry 1 of session "tally" of tally.jsonl (add(2)).

              State:
                − Tally(total: 2)
                + Tally(total: 4)

            (Recorded: −, Replayed: +)

            Re-recorded \(path) (ACTIONLOG_RECORD=failed): kept its 5 actions; rewrote the states of entries 1, 2, 3, 5 \
            and the effects of entries 2, 3. Review the change, then re-run the test.
            """)
        let after = try RecordedSession(contentsOfJSONL: URL(fileURLWithPath: path))
        #expect(after.entries.map(\.action) == before.entries.map(\.action))
        #expect(after.entries.map(\.label) == before.entries.map(\.label))
        #expect(try after.state(at: 3) == ["total": 20])
        #expect(after.entries[2].effect == ["announce": ["_0": 10]])

        #expect(verify(path, record: .never, step: 2).passed)
        #expect(verify(path, record: .never, step: 1).message?.hasPrefix("Replay diverged at entry 1 of session \"tally\"") == true)
    }

    @Test("never: a divergence fails and the golden is left as it was")
    func neverKeepsGolden() throws {
        let path = directory.path("tally.jsonl")
        _ = verify(path)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let result = verify(path, record: .never, step: 2)
        #expect(!result.wroteGolden)
        #expect(result.message?.hasSuffix("If the new behaviour is intended, re-record with ACTIONLOG_RECORD=failed.") == true)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
    }

    @Test("all: re-records even a golden that matches, and says nothing else changed")
    func allRerecords() {
        let path = directory.path("tally.jsonl")
        _ = verify(path)
        #expect(verify(path, record: .all).message == """
            Re-recorded \(path) (record mode all): kept its 5 actions; nothing else changed. Review the change, then re-run the test.
            """)
    }

    @Test("a journal golden (.actionlog) is recorded and replayed the same way")
    func journalGolden() throws {
        let path = directory.path("tally.actionlog")
        #expect(verify(path).wroteGolden)
        let journal = try Journal(path: path)
        #expect(try journal.sessions().map(\.name) == ["tally"])
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"), "a golden journal is a single file")
        #expect(verify(path, record: .never).passed)
    }
}
