import Foundation
import Testing
@testable import ActionLog

/// The one walk that rebuilds and checks a session's states: its rules and their messages.
@Suite("StateWalk: how a session's entries chain")
struct StateWalkTests {
    private static let epoch = Date(timeIntervalSince1970: 0)

    private static func keyframe(_ seq: Int, _ state: JSONValue, action: JSONValue? = ["tick": [:]]) -> Entry {
        Entry(seq: seq, time: epoch, label: action == nil ? nil : "tick", action: action, content: .keyframe(state), effect: nil)
    }

    private static func delta(_ seq: Int, _ operations: [JSONPatch.Operation]) -> Entry {
        Entry(seq: seq, time: epoch, label: "tick", action: ["tick": [:]], content: .delta(JSONPatch(operations: operations)), effect: nil)
    }

    private static func gap(_ seq: Int, dropped: Int) -> Entry {
        Entry(seq: seq, time: epoch, label: nil, action: nil, content: .gap(dropped: dropped, note: nil), effect: nil)
    }

    private static func set(_ count: Int) -> JSONPatch.Operation {
        .replace(path: JSONPointer(tokens: ["count"]), value: JSONValue(integerLiteral: count))
    }

    /// Walks `entries` the way verify does: every error is collected and the walk goes on.
    private static func problems(_ entries: [Entry], dropped: Int = 0) -> [String] {
        var states = StateWalk(file: "a.actionlog", session: 1)
        var problems: [String] = []
        for entry in entries {
            do { try states.advance(past: entry) } catch { problems.append(error.description) }
        }
        do { try states.finish(droppedCount: dropped) } catch { problems.append(error.description) }
        return problems
    }

    @Test("a keyframe, deltas, a gap and a keyframe again rebuild every state")
    func rebuilds() throws {
        var states = StateWalk(file: "a.actionlog", session: 1)
        try states.advance(past: Self.keyframe(0, ["count": 0], action: nil))
        let patch = try states.advance(past: Self.delta(1, [Self.set(1)]))
        #expect(patch == JSONPatch(operations: [Self.set(1)]))
        #expect(states.state == ["count": 1])
        try states.advance(past: Self.gap(2, dropped: 3))
        #expect(states.state == nil, "a gap leaves the state unknown")
        try states.advance(past: Self.keyframe(3, ["count": 9]))
        try states.advance(past: Self.delta(4, [Self.set(10)]))
        #expect(states.state == ["count": 10])
        #expect(states.droppedTotal == 3)
        try states.finish(droppedCount: 3)
    }

    @Test("a delta after a gap, or a run of gaps, patches the state of the last entry before it; the gaps' own states are unknown")
    func deltaAfterGap() throws {
        var states = StateWalk(file: "a.actionlog", session: 1)
        try states.advance(past: Self.keyframe(0, ["count": 0], action: nil))
        try states.advance(past: Self.delta(1, [Self.set(1)]))
        try states.advance(past: Self.gap(2, dropped: 3))
        #expect(states.state == nil, "a gap leaves its own state unknown")
        #expect(states.stateBeforeGap == ["count": 1])
        try states.advance(past: Self.gap(3, dropped: 1))
        #expect(states.state == nil)
        #expect(states.stateBeforeGap == ["count": 1])
        let patch = try states.advance(past: Self.delta(4, [Self.set(9)]))
        #expect(patch == JSONPatch(operations: [Self.set(9)]))
        #expect(states.state == ["count": 9])
        #expect(states.stateBeforeGap == nil)
        try states.advance(past: Self.delta(5, [Self.set(10)]))
        #expect(states.state == ["count": 10])
        try states.finish(droppedCount: 4)

        // A keyframe left unparsed (as a replay walks) is kept across the gap, and parsed by the delta after it.
        var deferred = StateWalk(file: "a.actionlog", session: 1)
        try deferred.advance(past: Self.keyframe(0, .null, action: nil), keyframeText: Array(#"{"count":5}"#.utf8))
        try deferred.advance(past: Self.gap(1, dropped: 1))
        #expect(deferred.pendingKeyframeText == nil && deferred.state == nil)
        try deferred.advance(past: Self.delta(2, [Self.set(6)]))
        #expect(deferred.state == ["count": 6])

        // The state at one entry, from its keyframe across the gaps; the state before it is the gap's: unknown.
        let chain = [Self.keyframe(0, ["count": 0], action: nil), Self.delta(1, [Self.set(1)]), Self.gap(2, dropped: 3), Self.delta(3, [Self.set(7)])]
        #expect(try StateWalk.state(at: 3, chain: chain, file: "a.actionlog", session: 1) == ["count": 7])
        let change = try StateWalk.states(at: 3, chain: chain, file: "a.actionlog", session: 1, keepingBefore: true)
        #expect(change.before == nil && change.after == ["count": 7])
    }

    @Test("every broken rule is named by file, session and entry, and the walk goes on after it")
    func rules() throws {
        #expect(Self.problems([Self.delta(0, [])]) == [
            "a.actionlog, session 1, entry 0: entry 0 must be a keyframe holding the initial state and no action",
        ])
        // After a gap, a delta applies to the state before the gap, or is refused.
        #expect(Self.problems([Self.keyframe(0, [:], action: nil), Self.gap(1, dropped: 1), Self.delta(2, [.remove(path: JSONPointer(tokens: ["gone"]))])], dropped: 1) == [
            #"a.actionlog, session 1, entry 2: the delta does not apply: operation 0 (remove /gone): no member "gone""#,
        ])
        // A gap out of place: the state before it is unknown, even a keyframe left unparsed, and the delta after it is passed over.
        var deferred = StateWalk(file: "a.actionlog", session: 1)
        var deferredProblems: [String] = []
        try deferred.advance(past: Self.keyframe(0, .null, action: nil), keyframeText: Array(#"{"count":5}"#.utf8))
        for entry in [Self.gap(2, dropped: 1), Self.delta(3, [Self.set(6)])] {
            do { try deferred.advance(past: entry) } catch { deferredProblems.append(error.description) }
        }
        #expect(deferredProblems == ["a.actionlog, session 1, entry 1: missing: the entry is not in the file"])
        #expect(deferred.state == nil)
        // After an error, the state before a gap is unknown too: the delta after it is passed over.
        #expect(Self.problems([Self.keyframe(0, ["count": 0], action: nil), Self.delta(1, [.remove(path: JSONPointer(tokens: ["gone"]))]), Self.gap(2, dropped: 1), Self.delta(3, [Self.set(3)])], dropped: 1) == [
            #"a.actionlog, session 1, entry 1: the delta does not apply: operation 0 (remove /gone): no member "gone""#,
        ])
        // A hole is reported once; the deltas after it are passed over until the next keyframe.
        #expect(Self.problems([Self.keyframe(0, ["count": 0], action: nil), Self.delta(3, [Self.set(1)]), Self.delta(4, [Self.set(2)]), Self.keyframe(5, ["count": 5]), Self.delta(6, [Self.set(6)])]) == [
            "a.actionlog, session 1, entry 1: missing: entries 1...2 are not in the file",
        ])
        #expect(Self.problems([Self.keyframe(0, ["count": 0], action: nil), Self.keyframe(0, ["count": 0])]) == [
            "a.actionlog, session 1, entry 0: out of order: entry 1 was expected",
        ])
        #expect(Self.problems([Self.keyframe(0, ["count": 0], action: nil), Self.delta(1, [.remove(path: JSONPointer(tokens: ["gone"]))])]) == [
            #"a.actionlog, session 1, entry 1: the delta does not apply: operation 0 (remove /gone): no member "gone""#,
        ])
        #expect(Self.problems([Self.keyframe(0, [:], action: nil), Self.gap(1, dropped: 2)], dropped: 5) == [
            "a.actionlog, session 1: the session counts 5 dropped actions, but its gaps add up to 2",
        ])
    }

    @Test("stored numbers are checked before arithmetic: a gap of Int.max and a sequence number of Int.max")
    func overflow() {
        #expect(Self.problems([Self.keyframe(0, [:], action: nil), Self.gap(1, dropped: .max), Self.gap(2, dropped: 1)], dropped: 0) == [
            "a.actionlog, session 1, entry 2: the gaps lose more actions than can be counted (9223372036854775807 before this one, then 1)",
            "a.actionlog, session 1: the session counts 0 dropped actions, but its gaps add up to 9223372036854775807",
        ])
        #expect(Self.problems([Self.keyframe(0, [:], action: nil), Self.keyframe(.max, [:]), Self.keyframe(5, [:])]) == [
            "a.actionlog, session 1, entry 1: missing: entries 1...9223372036854775806 are not in the file",
            "a.actionlog, session 1, entry 5: out of order: it follows the largest sequence number there is",
        ])
    }

    @Test("the actions' side: entry 0 has none, later entries have one with its label")
    func actions() {
        let states = StateWalk(file: "a.actionlog", session: 1)
        let noAction = Entry(seq: 4, time: Self.epoch, label: nil, action: nil, content: .keyframe([:]), effect: nil)
        #expect(throws: ActionLogError(.corrupt, file: "a.actionlog", session: 1, entry: 4, reason: "no action recorded")) {
            try states.checkAction(of: noAction)
        }
        let noLabel = Entry(seq: 4, time: Self.epoch, label: nil, action: ["a": 1], content: .keyframe([:]), effect: nil)
        #expect(throws: ActionLogError(.corrupt, file: "a.actionlog", session: 1, entry: 4, reason: "an action without its label")) {
            try states.checkAction(of: noLabel)
        }
    }
}
