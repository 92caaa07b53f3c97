import Foundation
import Testing
@testable import ActionLog

@Suite("Keyframes and deltas")
struct DeltaTests {
    let directory = TemporaryDirectory()

    struct Cart: Codable, Equatable, Sendable {
        struct Item: Codable, Equatable, Sendable {
            var id: Int
            var name: String
            var quantity: Int
        }
        var items: [Item]
        var note = ""
    }

    enum CartAction: Codable, Equatable, Sendable {
        case setQuantity(index: Int, quantity: Int)
        case insert(at: Int)
        case remove(at: Int)
        case note(String)
    }

    static func reduce(_ cart: inout Cart, _ action: CartAction) {
        switch action {
        case .setQuantity(let index, let quantity): cart.items[index].quantity = quantity
        case .insert(let index): cart.items.insert(Cart.Item(id: 10_000 + index, name: "new \(index)", quantity: 1), at: index)
        case .remove(let index): cart.items.remove(at: index)
        case .note(let text): cart.note = text
        }
    }

    static func cart(_ count: Int) -> Cart {
        Cart(items: (0..<count).map { Cart.Item(id: $0, name: "item \($0) with a longer name", quantity: 1) })
    }

    /// Records `actions` and returns the states the reducer produced, entry 0 first.
    func record(_ actions: [CartAction], into path: String, policy: KeyframePolicy = KeyframePolicy()) throws -> (JournalSession.ID, [Cart]) {
        var state = Self.cart(200)
        let recorder = try Recorder<Cart, CartAction, Never>(path: path, sessionName: "cart", initialState: state, configuration: configuration(ErrorLog()) {
            $0.keyframes = policy
        })
        var states = [state]
        let reduce = recorder.recording(Self.reduce)
        for action in actions {
            reduce(&state, action)
            states.append(state)
        }
        recorder.close()
        return (recorder.sessionID, states)
    }

    static let actions: [CartAction] = (0..<300).map { step in
        switch step % 10 {
        case 3: .insert(at: (step * 7) % 150)
        case 7: .remove(at: (step * 11) % 150)
        case 9: .note("step \(step)")
        default: .setQuantity(index: (step * 13) % 150, quantity: step)
        }
    }

    @Test("small changes to a large state are stored as deltas, and every state reads back exactly")
    func deltasReadBack() throws {
        let path = directory.path("cart.actionlog")
        let (id, states) = try record(Self.actions, into: path)
        let journal = try Journal(path: path)
        let entries = try journal.entries(in: id)
        let deltas = entries.filter { $0.kind == .delta }
        #expect(deltas.count > 250)
        #expect(entries[0].kind == .keyframe)
        // A quantity change is one replace operation, not a rewrite of the state.
        let first = try #require(entries[1].content.storedJSON)
        #expect(first.canonicalText == #"[{"op":"replace","path":"/items/0/quantity","value":0}]"#)
        // An insertion in the middle is a few operations, not a rewrite of the tail.
        let insertion = try #require(entries[4].content.storedJSON?.canonicalText)
        #expect(insertion.utf8.count < 200)
        for (seq, expected) in states.enumerated() {
            #expect(try journal.state(at: seq, in: id).decode(Cart.self) == expected, "entry \(seq)")
        }
        #expect(try journal.verify().isValid)
    }

    @Test("the delta budget bounds the patches between keyframes")
    func keyframeBudget() throws {
        let path = directory.path("budget.actionlog")
        let (id, _) = try record(Self.actions, into: path, policy: KeyframePolicy(deltaBudget: 0.05))
        let entries = try Journal(path: path).entries(in: id)
        var keyframeSize = 0
        var deltaBytes = 0
        var keyframes = 0
        for entry in entries {
            let size = entry.content.storedJSON?.canonicalText.utf8.count ?? 0
            if entry.kind == .keyframe {
                keyframes += 1
                keyframeSize = size
                deltaBytes = 0
            } else {
                deltaBytes += size
                #expect(Double(deltaBytes) <= Double(keyframeSize) * 0.05, "entry \(entry.seq)")
            }
        }
        #expect(keyframes > 1)
    }

    @Test("maximumDeltaRun and keyframesOnly bound the chain by count")
    func deltaRun() throws {
        let (id, _) = try record(Self.actions, into: directory.path("run.actionlog"), policy: KeyframePolicy(deltaBudget: 100, maximumDeltaRun: 4))
        let kinds = try Journal(path: directory.path("run.actionlog")).entries(in: id).map(\.kind)
        #expect(Array(kinds.prefix(11)) == [.keyframe, .delta, .delta, .delta, .delta, .keyframe, .delta, .delta, .delta, .delta, .keyframe])
        let (only, _) = try record(Self.actions, into: directory.path("only.actionlog"), policy: .keyframesOnly)
        #expect(try Journal(path: directory.path("only.actionlog")).entries(in: only).allSatisfy { $0.kind == .keyframe })
    }

    @Test("after a keyframe over 512 KiB the run may be one delta per 128 of its bytes, so a growing state is not rewritten every 4096 entries")
    func longRunAfterLargeKeyframe() {
        var small = KeyframePolicy.Budget(KeyframePolicy())
        small.keyframe(bytes: 100_000)
        var admitted = (0..<4096).filter { _ in small.admitDelta(bytes: 10) }.count
        #expect(admitted == 4096)
        #expect(!small.allowsDelta, "4096 deltas after a 100 KB keyframe")

        var large = KeyframePolicy.Budget(KeyframePolicy())
        large.keyframe(bytes: 1 << 20)
        admitted = (0..<8192).filter { _ in large.admitDelta(bytes: 60) }.count
        #expect(admitted == 8192)
        #expect(!large.allowsDelta, "1 MiB ÷ 128 = 8192 deltas")

        var none = KeyframePolicy.Budget(.keyframesOnly)
        none.keyframe(bytes: 1 << 20)
        #expect(!none.allowsDelta)
    }

    @Test("state(at:) names what breaks the chain from the keyframe: a missing entry, a damaged target; a gap does not, and has no state itself")
    func brokenChains() throws {
        let path = directory.path("chain.actionlog")
        let (id, states) = try record(Array(Self.actions.prefix(8)), into: path)
        try sql(path, "UPDATE entries SET checksum = NULL, kind = 'gap', state = NULL, dropped = 1 WHERE seq = 3; DELETE FROM entries WHERE seq = 6;")
        let journal = try Journal(path: path)
        #expect(try journal.state(at: 2, in: id).decode(Cart.self) == states[2])
        #expect(throws: ActionLogError(.entryNotFound, file: "chain.actionlog", session: id, entry: 3, reason: "a gap: 1 actions were lost here, so no state was recorded")) {
            try journal.state(at: 3, in: id)
        }
        // A gap does not break it: the delta after the gap patches the state before the gap.
        var acrossGap = try journal.state(at: 2, in: id)
        for seq in 4...5 {
            guard case .delta(let patch) = try journal.entry(seq, in: id).content else { Issue.record("entry \(seq) is not a delta"); return }
            try patch.apply(to: &acrossGap)
        }
        #expect(try journal.state(at: 5, in: id) == acrossGap)
        #expect(throws: ActionLogError(.entryNotFound, file: "chain.actionlog", session: id, entry: 6, reason: "no such entry")) {
            try journal.state(at: 6, in: id)
        }
        // Both the target and a delta before it are damaged: the target is named.
        try sql(path, "UPDATE entries SET checksum = NULL, state = '[' WHERE seq IN (1, 2)")
        let error = #expect(throws: ActionLogError.self) { try journal.state(at: 2, in: id) }
        #expect(error?.description == "chain.actionlog, session 1, entry 2: the state is not valid JSON: invalid JSON at byte 1: unexpected end of text")
    }

    @Test("a delta that does not apply is named by verify and by state(at:)")
    func brokenDelta() throws {
        let path = directory.path("broken.actionlog")
        let (id, _) = try record(Array(Self.actions.prefix(5)), into: path)
        try sql(path, #"UPDATE entries SET checksum = NULL, state = '[{"op":"replace","path":"/items/999/quantity","value":1}]' WHERE seq = 2"#)
        let journal = try Journal(path: path)
        let error = #expect(throws: ActionLogError.self) { try journal.state(at: 3, in: id) }
        #expect(error?.description == "broken.actionlog, session 1, entry 2: the delta does not apply: operation 0 (replace /items/999/quantity): no element at index 999 in the array at /items (it has 200)")
        #expect(try journal.verify().findings.map(\.description) == [
            "session 1, entry 2: the delta does not apply: operation 0 (replace /items/999/quantity): no element at index 999 in the array at /items (it has 200)"
        ])
    }
}

@Suite("Change-proportional recording")
struct ChangeRecordingTests {
    let directory = TemporaryDirectory()

    /// A state whose `==` ignores `visits`, although `encode(to:)` writes it.
    struct Careless: Codable, Sendable, Equatable {
        struct Page: Codable, Sendable {
            var title: String
            var visits: Int
        }
        struct Inner: Codable, Sendable, Equatable {
            var page: Page
            static func == (lhs: Inner, rhs: Inner) -> Bool { lhs.page.title == rhs.page.title }
        }
        var inner: Inner
        var count: Int
    }

    @Test("a keyframe catches an == that disagrees with the encoding; the session goes on in full encoding")
    func equalityMismatch() throws {
        let path = directory.path("careless.actionlog")
        let log = ErrorLog()
        var state = Careless(inner: .init(page: .init(title: "home", visits: 0)), count: 0)
        let recorder = try Recorder<Careless, Int, Never>(path: path, sessionName: "s", initialState: state, configuration: configuration(log) {
            $0.keyframes = KeyframePolicy(deltaBudget: 100, maximumDeltaRun: 3)
        })
        var states = [state]
        for step in 1...12 {
            state.count = step
            state.inner.page.visits = step
            recorder.record(action: step, state: state)
            states.append(state)
        }
        recorder.close()
        #expect(log.all.map(\.description) == [
            "careless.actionlog, session 1: ActionLogTests.ChangeRecordingTests.Careless: == says unchanged where the encoding changed (inner.page.visits); "
                + "the entries since the last keyframe may hold stale values there, and the rest of the session is encoded in full"
        ])
        #expect(log.all.map(\.code) == [.equalityMismatch])
        let journal = try Journal(path: path)
        // From the keyframe that caught it (entry 4) on, every state is exact.
        for seq in 4...12 {
            #expect(try journal.state(at: seq, in: 1).decode(Careless.self).inner.page.visits == states[seq].inner.page.visits, "entry \(seq)")
        }
        #expect(try journal.verify().isValid)
    }

    @Test("a small change to a 1000-item state is recorded as one replace operation")
    func proportionalDelta() throws {
        let path = directory.path("big.actionlog")
        var cart = DeltaTests.cart(1_000)
        let recorder = try Recorder<DeltaTests.Cart, DeltaTests.CartAction, Never>(path: path, sessionName: "s", initialState: cart, configuration: configuration(ErrorLog()))
        let reduce = recorder.recording(DeltaTests.reduce)
        reduce(&cart, .setQuantity(index: 731, quantity: 9))
        reduce(&cart, .insert(at: 500))
        recorder.close()
        let entries = try Journal(path: path).entries(in: recorder.sessionID)
        #expect(entries.map(\.kind) == [.keyframe, .delta, .delta])
        #expect(entries[1].content.storedJSON?.canonicalText == #"[{"op":"replace","path":"/items/731/quantity","value":9}]"#)
        #expect(entries[2].content.storedJSON?.canonicalText == #"[{"op":"add","path":"/items/500","value":{"id":10500,"name":"new 500","quantity":1}}]"#)
        #expect(try Journal(path: path).state(at: 2, in: recorder.sessionID).decode(DeltaTests.Cart.self) == cart)
    }
}
