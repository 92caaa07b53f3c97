import ActionLog
import Foundation
@testable import Replayer
import Testing

/// An account whose history grows by one line per posting: replay compares each append, not the history.
struct Account: Codable, Equatable, Sendable {
    struct Line: Codable, Equatable, Sendable {
        var memo: String
        var amount: Int
    }
    var balance = 0
    var history: [Line] = []

    static func reduce(_ state: inout Account, _ amount: Int) {
        state.balance += amount
        state.history.append(Line(memo: "posting \(state.history.count)", amount: amount))
    }
}

@Suite("Comparing changes: where two patches can have left two equal documents different")
struct TouchedPlacesTests {
    let directory = TemporaryDirectory()

    // MARK: - The places compared

    private func patch(_ text: String) throws -> JSONPatch {
        try JSONPatch(JSONValue(parsing: text))
    }

    private func history(_ values: [Int]) -> JSONValue {
        ["history": .array(values.map { JSONValue(integerLiteral: $0) })]
    }

    @Test("an append compares the count and the new element, not the elements before it")
    func appendComparesTheNewElement() throws {
        let appended = try patch(#"[{"op":"add","path":"/history/-","value":4}]"#)
        let byIndex = try patch(#"[{"op":"add","path":"/history/3","value":4}]"#)
        let places = TouchedPlaces(appended, byIndex)
        #expect(places.valuesEqual(history([1, 2, 3, 4]), history([1, 2, 3, 4])))
        #expect(!places.valuesEqual(history([1, 2, 3, 4]), history([1, 2, 3, 5])), "a wrong new element")
        #expect(!places.valuesEqual(history([1, 2, 3, 4]), history([1, 2, 3, 4, 4])), "a wrong count")
        // What neither patch touched is not looked at: the elements before the append.
        #expect(places.valuesEqual(history([9, 2, 3, 4]), history([1, 2, 3, 4])))
    }

    @Test("an append after removals compares from where the appended element can have ended")
    func appendAfterRemovals() throws {
        // From [1, 2, 3, 4]: remove the first, then append 5 -> [2, 3, 4, 5].
        let places = TouchedPlaces(
            try patch(#"[{"op":"remove","path":"/history/0"},{"op":"add","path":"/history/-","value":5}]"#),
            try patch(#"[{"op":"add","path":"/history/-","value":5},{"op":"remove","path":"/history/0"}]"#))
        #expect(places.valuesEqual(history([2, 3, 4, 5]), history([2, 3, 4, 5])))
        #expect(!places.valuesEqual(history([2, 3, 4, 5]), history([2, 9, 4, 5])))
        #expect(!places.valuesEqual(history([2, 3, 4, 5]), history([3, 3, 4, 5])))
    }

    @Test("an append by several elements compares all of them")
    func appendsOfSeveralElements() throws {
        let places = TouchedPlaces(
            try patch(#"[{"op":"add","path":"/history/-","value":3},{"op":"add","path":"/history/-","value":4}]"#),
            try patch(#"[{"op":"add","path":"/history/2","value":3},{"op":"add","path":"/history/3","value":4}]"#))
        #expect(!places.valuesEqual(history([1, 2, 3, 4]), history([1, 2, 9, 4])))
        #expect(places.valuesEqual(history([7, 2, 3, 4]), history([1, 2, 3, 4])))
    }

    @Test("an insertion or removal in the middle compares the tail from there, with the count")
    func middleEditsCompareTheTail() throws {
        let places = TouchedPlaces(
            try patch(#"[{"op":"add","path":"/history/2","value":0}]"#),
            try patch(#"[{"op":"remove","path":"/history/3"}]"#))
        #expect(!places.valuesEqual(history([1, 2, 0, 3, 4]), history([1, 2, 0, 3, 5])), "a shifted tail")
        #expect(!places.valuesEqual(history([1, 2, 0, 3, 4]), history([1, 2, 0, 3])))
        #expect(places.valuesEqual(history([5, 2, 0, 3, 4]), history([1, 2, 0, 3, 4])), "before the edit nothing moved")
    }

    @Test("a replaced element is compared where it is; its siblings did not move")
    func replacedElement() throws {
        let places = TouchedPlaces(
            try patch(#"[{"op":"replace","path":"/history/2","value":7}]"#),
            try patch(#"[{"op":"replace","path":"/history/2","value":7}]"#))
        #expect(places.valuesEqual(history([1, 2, 7, 4]), history([1, 2, 7, 4])))
        #expect(!places.valuesEqual(history([1, 2, 7, 4]), history([1, 2, 8, 4])))
        #expect(places.valuesEqual(history([1, 2, 7, 4]), history([1, 2, 7, 9])), "a sibling is not looked at")
    }

    @Test("a digit key of an object, or a container that changed kind, is compared whole")
    func digitKeysAndChangedKinds() throws {
        let places = TouchedPlaces(
            try patch(#"[{"op":"add","path":"/byID/7","value":1}]"#),
            try patch(#"[{"op":"add","path":"/byID/7","value":1}]"#))
        #expect(places.valuesEqual(["byID": ["7": 1, "8": 2]], ["byID": ["7": 1, "8": 2]]))
        #expect(!places.valuesEqual(["byID": ["7": 1, "8": 2]], ["byID": ["7": 1, "8": 3]]))
        #expect(!places.valuesEqual(["byID": ["7": 1]], ["byID": [1]]))
    }

    @Test("a move compares where the element left and where it landed")
    func moves() throws {
        let places = TouchedPlaces(
            try patch(#"[{"op":"move","from":"/todo/1","path":"/done/-"}]"#),
            try patch(#"[{"op":"move","from":"/todo/1","path":"/done/-"}]"#))
        let recorded: JSONValue = ["todo": ["a", "c"], "done": ["x", "b"]]
        #expect(places.valuesEqual(recorded, ["todo": ["a", "c"], "done": ["x", "b"]]))
        #expect(!places.valuesEqual(recorded, ["todo": ["a", "b"], "done": ["x", "c"]]))
        #expect(!places.valuesEqual(recorded, ["todo": ["a", "c"], "done": ["x", "b", "b"]]))
    }

    @Test("array tokens: digits without a leading zero, within Int")
    func indexTokens() {
        #expect(JSONPointer.arrayIndex("0") == 0)
        #expect(JSONPointer.arrayIndex("42") == 42)
        #expect(JSONPointer.arrayIndex("01") == nil)
        #expect(JSONPointer.arrayIndex("-") == nil)
        #expect(JSONPointer.arrayIndex("") == nil)
        #expect(JSONPointer.arrayIndex("1e3") == nil)
        #expect(JSONPointer.arrayIndex("99999999999999999999999") == nil)
    }

    // MARK: - Replays of a growing history

    /// 60 postings, recorded as deltas from entry 30 on at least (each an append to the history and a new balance).
    private func recordedAccount() throws -> (Journal, JournalSession.ID) {
        let (journal, id) = try record(directory.path("account.actionlog"), initial: Account(), Array(1...60),
                                       keyframes: KeyframePolicy(deltaBudget: 1_000), reduce: Account.reduce)
        let entries = try journal.entries(in: id)
        // The first few are keyframes (a delta is not written larger than the keyframe before it);
        // the entries the tests below change must be deltas.
        #expect(entries[30...].allSatisfy { $0.kind == .delta }, "keyframes: \(entries.filter { $0.kind == .keyframe }.map(\.seq))")
        #expect(entries[40].content.storedJSON?.canonicalText.contains(#""path":"/history/39""#) == true, "entry 40 appends: \(entries[40].content.storedJSON?.canonicalText ?? "")")
        return (journal, id)
    }

    @Test("the same reducer replays a growing history with no divergence")
    func growingHistoryMatches() throws {
        let (journal, id) = try recordedAccount()
        let report = try Replay(journal: journal, session: id, reducer: Account.reduce).run()
        #expect(report.isMatch, "\(report)")
        #expect(report.entriesReplayed == 60)
    }

    @Test("an append of a wrong element is a divergence at its entry and field")
    func wrongElementAppended() throws {
        let (journal, id) = try recordedAccount()
        let report = try Replay(journal: journal, session: id) { (state: inout Account, amount: Int) in
            Account.reduce(&state, amount)
            if state.history.count == 40 { state.history[39].memo = "posting thirty-nine" }
        }.run()
        #expect(report.divergence?.seq == 40)
        #expect(report.divergence?.stateDifferences.map(\.description) == [#"history[39].memo: "posting 39" → "posting thirty-nine""#])
    }

    @Test("an append of one element too many is a divergence at its entry")
    func wrongCount() throws {
        let (journal, id) = try recordedAccount()
        let report = try Replay(journal: journal, session: id) { (state: inout Account, amount: Int) in
            Account.reduce(&state, amount)
            if state.history.count == 40 { state.history.append(Account.Line(memo: "again", amount: amount)) }
        }.run()
        #expect(report.divergence?.seq == 40)
        #expect(report.divergence?.stateDifferences.map(\.description) == [#"history[40]: (absent) → {"amount":40,"memo":"again"}"#])
    }

    @Test("a change in the middle of a long history, where the recording appended, is caught with its path")
    func changeInTheMiddle() throws {
        let (journal, id) = try recordedAccount()
        let report = try Replay(journal: journal, session: id) { (state: inout Account, amount: Int) in
            Account.reduce(&state, amount)
            if state.history.count == 50 { state.history[17].amount = 0 }
        }.run()
        #expect(report.divergence?.seq == 50)
        #expect(report.divergence?.stateDifferences.map(\.description) == ["history[17].amount: 18 → 0"])
    }

    @Test("an element removed from the middle while the count stays right is caught where the elements moved")
    func removalInTheMiddle() throws {
        let (journal, id) = try recordedAccount()
        let report = try Replay(journal: journal, session: id) { (state: inout Account, amount: Int) in
            Account.reduce(&state, amount)
            if state.history.count == 50 {
                state.history.remove(at: 47)
                state.history.append(Account.Line(memo: "posting 50", amount: 51))
            }
        }.run()
        #expect(report.divergence?.seq == 50)
        #expect(report.divergence?.stateDifferences.map(\.description) == [
            #"history[47].amount: 48 → 49"#, #"history[47].memo: "posting 47" → "posting 48""#,
            #"history[48].amount: 49 → 50"#, #"history[48].memo: "posting 48" → "posting 49""#,
            #"history[49].amount: 50 → 51"#, #"history[49].memo: "posting 49" → "posting 50""#,
        ])
    }

    @Test("a recorded append written with - is compared by its count and element too")
    func recordedDashAppend() throws {
        let recording = try RecordedSession(jsonl: #"""
            {"actionlog":"session","format":1,"name":"account","status":"closed","startedAt":0,"libraryVersion":"0.1.0","stateType":"ReplayerTests.Account","actionType":"Swift.Int","dropped":0,"metadata":{}}
            {"seq":0,"kind":"keyframe","time":0,"state":{"balance":0,"history":[]}}
            {"seq":1,"kind":"delta","time":0,"action":5,"patch":[{"op":"replace","path":"/balance","value":5},{"op":"add","path":"/history/-","value":{"amount":5,"memo":"posting 0"}}]}
            {"seq":2,"kind":"delta","time":0,"action":6,"patch":[{"op":"replace","path":"/balance","value":11},{"op":"add","path":"/history/-","value":{"amount":6,"memo":"posting 1"}}]}
            {"seq":3,"kind":"delta","time":0,"action":7,"patch":[{"op":"replace","path":"/balance","value":18},{"op":"add","path":"/history/-","value":{"amount":7,"memo":"posting 2"}}]}
            """#, file: "account.jsonl")
        #expect(try Replay(recording: recording, reducer: Account.reduce).run().isMatch)

        let doubled = try Replay(recording: recording) { (state: inout Account, amount: Int) in
            Account.reduce(&state, amount)
            if amount == 6 { state.history[1].amount = 60 }
        }.run()
        #expect(doubled.divergence?.seq == 2)
        #expect(doubled.divergence?.stateDifferences.map(\.description) == ["history[1].amount: 6 → 60"])

        let extra = try Replay(recording: recording) { (state: inout Account, amount: Int) in
            Account.reduce(&state, amount)
            if amount == 7 { state.history.insert(Account.Line(memo: "early", amount: 0), at: 0) }
        }.run()
        #expect(extra.divergence?.seq == 3)
        // The element inserted at the front is one difference, not a change of every element after it.
        #expect(extra.divergence?.stateDifferences.map(\.description) == [#"history[0]: (absent) → {"amount":0,"memo":"early"}"#])
    }
}
