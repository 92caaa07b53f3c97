import Foundation
import Testing
@testable import ActionLog

@Suite("Action labels remembered by the writer")
struct ActionLabelerTests {
    enum Inner: Sendable { case queryChanged(String), onAppear, pick(id: Int, Bool) }
    enum Outer: Sendable { case input(Inner), feedback(id: Int, ok: Bool), plain, wrapped(Reference), maybe(Int?), deep(Outer2) }
    enum Outer2: Sendable { case one(Outer3) }
    enum Outer3: Sendable { case two(Inner) }
    struct Command: Sendable { var name: String }
    final class Reference: Sendable {}

    @Test("the same labels as ActionLabel.of, for enums, nested payloads, tuples, objects and other types")
    func sameLabels() {
        let reference = Reference()
        let actions: [Outer] = [
            .input(.queryChanged("par")), .input(.queryChanged("a string longer than fifteen bytes")), .input(.onAppear),
            .input(.pick(id: 3, true)), .feedback(id: 1, ok: true), .plain, .wrapped(reference), .maybe(nil), .maybe(4),
            .deep(.one(.two(.onAppear))), .deep(.one(.two(.queryChanged("x")))),
        ]
        let labeler = ActionLabeler<Outer>()
        for _ in 0..<3 {
            for action in actions { #expect(labeler.label(of: action) == ActionLabel.of(action)) }
        }
        #expect(labeler.label(of: .deep(.one(.two(.onAppear)))) == "deep.one.two.onAppear")
        #expect(labeler.label(of: .maybe(4)) == "maybe")

        let anyLabeler = ActionLabeler<any Sendable>()
        let mixed: [any Sendable] = [Outer.plain, Command(name: "x"), Inner.onAppear, 7, PoisonableAction(.add(3)), reference]
        for _ in 0..<2 {
            for action in mixed { #expect(anyLabeler.label(of: action) == ActionLabel.of(action)) }
        }
        #expect(anyLabeler.label(of: Command(name: "y")) == "Command")
        #expect(anyLabeler.label(of: PoisonableAction(.add(3))) == "add")
    }

    @Test("an action labelled before is not walked again: its label is remembered by its bytes")
    func remembersByBytes() {
        let labeler = ActionLabeler<Outer>()
        _ = labeler.label(of: .feedback(id: 1, ok: true))
        _ = labeler.label(of: .feedback(id: 1, ok: true))
        _ = labeler.label(of: .plain)
        #expect(labeler.remembered == 2)
        _ = labeler.label(of: .feedback(id: 2, ok: true))
        #expect(labeler.remembered == 3)
    }

    @Test("at most ActionLabeler.capacity labels are remembered, and labels stay right past it")
    func capacity() {
        let labeler = ActionLabeler<Outer>()
        for id in 0..<(ActionLabeler<Outer>.capacity * 2 + 10) {
            #expect(labeler.label(of: .feedback(id: id, ok: id.isMultiple(of: 2))) == "feedback")
            #expect(labeler.remembered <= ActionLabeler<Outer>.capacity)
        }
    }

    /// A mirror that reads an object's current name: the same bytes, a different label.
    struct Mirrored: CustomReflectable, Sendable {
        final class Name: Sendable {
            let value = Locked("first")
        }
        let name = Name()
        var customMirror: Mirror {
            Mirror(self, children: [(label: name.value.withLock { $0 }, value: 0)], displayStyle: .enum)
        }
    }

    @Test("a custom mirror is asked every time: its label is not remembered")
    func customMirror() {
        let action = Mirrored()
        let labeler = ActionLabeler<Mirrored>()
        #expect(labeler.label(of: action) == "first")
        action.name.value.withLock { $0 = "second" }
        #expect(labeler.label(of: action) == "second")
        #expect(labeler.remembered == 0)
    }

    static let phaseName = Locked("idle")

    /// A case without payload that describes itself with code.
    enum Phase: CustomStringConvertible, Sendable {
        case current
        var description: String { ActionLabelerTests.phaseName.withLock { $0 } }
    }

    enum Step: Sendable { case phase(Phase) }

    @Test("a custom description of a case without payload is asked every time")
    func customDescription() {
        let labeler = ActionLabeler<Step>()
        Self.phaseName.withLock { $0 = "idle" }
        #expect(labeler.label(of: .phase(.current)) == "phase.idle")
        Self.phaseName.withLock { $0 = "busy" }
        #expect(labeler.label(of: .phase(.current)) == "phase.busy")
        #expect(labeler.remembered == 0)
    }

    /// Counts how often its label is asked for.
    struct Counted: ActionLabeled, Sendable {
        static let asked = Locked(0)
        var actionLabel: String { Self.asked.withLock { $0 += 1; return "counted \($0)" } }
    }

    @Test("an ActionLabeled action's own label is asked for every time")
    func actionLabeled() {
        let labeler = ActionLabeler<Counted>()
        Counted.asked.withLock { $0 = 0 }
        #expect(labeler.label(of: Counted()) == "counted 1")
        #expect(labeler.label(of: Counted()) == "counted 2")
        #expect(labeler.remembered == 0)
    }

    @Test("a recorded session stores the labels ActionLabel.of gives, remembered or not")
    func recorded() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("labels.actionlog")
        let recorder = try Recorder<Counter, Outer, Never>(path: path, sessionName: "s", initialState: Counter(), configuration: configuration(ErrorLog()))
        let actions: [Outer] = (0..<50).map { index in
            [.input(.queryChanged("q\(index % 3)")), .feedback(id: index % 4, ok: true), .plain, .deep(.one(.two(.pick(id: index, false))))][index % 4]
        }
        for (index, action) in actions.enumerated() { recorder.record(action: action, state: Counter(count: index)) }
        recorder.close()
        let entries = try Journal(path: path).entries(in: recorder.sessionID)
        #expect(entries.dropFirst().map(\.label) == actions.map { ActionLabel.of($0) })
    }
}

extension ActionLabelerTests.Outer: Codable {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(ActionLabel.of(self))
    }

    init(from decoder: any Decoder) throws { self = .plain }
}
