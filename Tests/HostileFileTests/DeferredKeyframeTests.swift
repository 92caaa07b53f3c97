import ActionLog
import Foundation
import HostileFileSupport
import Replayer
import Testing

/// `Replay.run()` reads a journal's keyframes as stored text and parses one only when it must: when
/// the delta after it needs the state, or when the text is not the canonical text of the replayed
/// state. What a user sees must not change: matches match, divergences and damaged keyframes are
/// reported as before, naming the keyframe's entry.
@Suite("Replay: keyframes compared as text, parsed when needed")
struct DeferredKeyframeTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// Ten baskets, `policy` deciding which entries are keyframes; returns the journal's path.
    private func record(_ name: String, policy: KeyframePolicy) throws -> String {
        let path = directory.path(name)
        var configuration = RecorderConfiguration()
        configuration.keyframes = policy
        let recorder = try Recorder<Basket, BasketAction, Never>(path: path, sessionName: "basket", initialState: Basket(), configuration: configuration)
        let reduce = recorder.recording(reduceBasket)
        var basket = Basket()
        for action in HostileFixture.actions.prefix(10) { reduce(&basket, action) }
        recorder.close()
        return path
    }

    private func replay(_ path: String) throws -> ReplayReport {
        try Replay(journal: try Journal(path: path), session: 1, reducer: reduceBasket).run()
    }

    private func message(_ body: () throws -> some Any) -> String? {
        PinnedHostileTests.message(body)
    }

    @Test("a session of keyframes replays as a match, also when a keyframe's text is not canonical")
    func keyframesMatch() throws {
        let path = try record("keyframes.actionlog", policy: .keyframesOnly)
        #expect(try Journal(path: path).entries(in: 1).allSatisfy { $0.kind == .keyframe })
        let report = try replay(path)
        #expect(report.isMatch)
        #expect(report.entriesReplayed == 10)
        // The same state, written another way (keys out of order, spaces): equal as JSON, not as text.
        let state = try Journal(path: path).state(at: 4, in: 1)
        guard case .object(let members) = state else { Issue.record("the state is not an object"); return }
        let reordered = "{ " + members.keys.sorted(by: >).map { "\(JSONValue.string($0).canonicalText) : \(members[$0]!.canonicalText)" }.joined(separator: " , ") + " }"
        try SQLEdit.run([SQLEdit("UPDATE entries SET state = ?1, checksum = NULL WHERE session_id = 1 AND seq = 4", [.text(reordered)])], on: path)
        #expect(try Journal(path: path).entry(4, in: 1).content == .keyframe(state))
        let again = try replay(path)
        #expect(again.isMatch)
        #expect(again.entriesReplayed == 10)
    }

    @Test("a keyframe that differs from the replayed state is a divergence at its entry")
    func keyframeDiverges() throws {
        let path = try record("diverges.actionlog", policy: .keyframesOnly)
        var state = try Journal(path: path).state(at: 6, in: 1)
        guard case .object(var members) = state else { Issue.record("the state is not an object"); return }
        members["note"] = "changed"
        state = .object(members)
        try SQLEdit.run([SQLEdit("UPDATE entries SET state = ?1, checksum = NULL WHERE session_id = 1 AND seq = 6", [.text(state.canonicalText)])], on: path)
        let report = try replay(path)
        #expect(report.divergence?.seq == 6)
        #expect(report.divergence?.stateDifferences.map(\.path.description) == ["note"])
    }

    @Test("a delta right after a keyframe that matched as text is compared against that keyframe's state")
    func deltaAfterMatchedKeyframe() throws {
        let path = try record("mixed.actionlog", policy: KeyframePolicy(deltaBudget: 100, maximumDeltaRun: 2))
        let entries = try Journal(path: path).entries(in: 1)
        // Entry 2 is a keyframe, entry 3 (setting the apple's quantity to 3) a delta after it.
        #expect(entries.map(\.kind).prefix(5) == [.keyframe, .keyframe, .keyframe, .delta, .delta])
        #expect(entries[3].label == "setQuantity")
        let report = try Replay(journal: try Journal(path: path), session: 1) { (basket: inout Basket, action: BasketAction) in
            if case .setQuantity(let index, 3) = action {
                reduceBasket(&basket, .setQuantity(index: index, quantity: 4))
            } else {
                reduceBasket(&basket, action)
            }
        }.run()
        #expect(report.divergence?.seq == 3)
        #expect(report.divergence?.stateDifferences.map(\.path.description) == ["items[0].quantity"])
        #expect(try replay(path).isMatch)
    }

    @Test("a damaged keyframe fails the replay naming its entry, whether a keyframe or a delta follows it")
    func damagedKeyframe() throws {
        let keyframes = try record("damaged-keyframes.actionlog", policy: .keyframesOnly)
        try SQLEdit.run([SQLEdit("UPDATE entries SET state = ?1, checksum = NULL WHERE session_id = 1 AND seq = 3", [.text("{bad")])], on: keyframes)
        #expect(message { try replay(keyframes) } == #"damaged-keyframes.actionlog, session 1, entry 3: the state is not valid JSON: invalid JSON at byte 1: unexpected character "b""#)

        // Keyframes while the basket is smaller than a patch, then at most two deltas after each.
        let mixed = try record("damaged-mixed.actionlog", policy: KeyframePolicy(deltaBudget: 100, maximumDeltaRun: 2))
        let kinds = try Journal(path: mixed).entries(in: 1).map(\.kind)
        #expect(kinds.prefix(5) == [.keyframe, .keyframe, .keyframe, .delta, .delta])
        try SQLEdit.run([SQLEdit("UPDATE entries SET state = ?1, checksum = NULL WHERE session_id = 1 AND seq = 2", [.text("[1,")])], on: mixed)
        #expect(message { try replay(mixed) } == "damaged-mixed.actionlog, session 1, entry 2: the state is not valid JSON: invalid JSON at byte 3: unexpected end of text")
        // The same message as a reader that parses every keyframe.
        #expect(message { try Journal(path: mixed).entries(in: 1) } == "damaged-mixed.actionlog, session 1, entry 2: the state is not valid JSON: invalid JSON at byte 3: unexpected end of text")
    }
}
