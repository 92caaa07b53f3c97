import ActionLog
import ActionLogExamples
import Foundation
import Replayer
import Testing

@Suite("Upcasters and migrate: old recordings after the action type changed")
struct UpcasterTests {
    let directory = TemporaryDirectory()

    /// A cart recorded with `CartV1.Action.addToCart(id:)`, before `quantity` was added.
    func recordV1() throws -> (Journal, JournalSession.ID) {
        try record(directory.path("cart.actionlog"), session: "cart", initial: CartV1(), [CartV1.Action.addToCart(id: "p-7"), .addToCart(id: "p-8")],
                   reduce: CartV1.reduce)
    }

    @Test("a field added with a default: the old recording replays through addField")
    func addField() throws {
        let (journal, id) = try recordV1()
        let options = ReplayOptions(upcasters: [.addField("quantity", default: 1, toCase: "addToCart")])
        let report = try Replay(journal: journal, session: id, options: options, reducer: CartV2.reduce).run()
        #expect(report.isMatch, "\(report)")
        #expect(report.entriesReplayed == 2)
    }

    @Test("a renamed case: renameCase rewrites the label and the JSON, also between nested enums")
    func renameCase() throws {
        let (journal, id) = try recordV1()
        let options = ReplayOptions(upcasters: [
            .renameCase("addToCart", to: "cart.add"),
            .renameCase("cart.add", to: "addToCart"),
            .addField("quantity", default: 1, toCase: "addToCart"),
        ])
        #expect(try Replay(journal: journal, session: id, options: options, reducer: CartV2.reduce).run().isMatch)
    }

    @Test("one action split into two: both are fed, the entry's state is compared after the last")
    func split() throws {
        let (journal, id) = try recordV1()
        // Today, adding is two steps: choose the product, then confirm a quantity.
        let options = ReplayOptions(upcasters: [
            Upcaster(label: "addToCart") { old in
                guard case .string(let id)? = old["addToCart"]?["id"] else { throw ReplayError.upcastFailed("no id") }
                return [["choose": ["id": .string(id)]], ["confirm": ["quantity": 1]]]
            },
        ])
        let report = try Replay(journal: journal, session: id, options: options, reducer: CartV3.reduce).run()
        #expect(report.isMatch, "\(report)")
    }

    @Test("an upcaster that throws is reported with file, session, entry and label")
    func throwingUpcaster() throws {
        let (journal, id) = try recordV1()
        let options = ReplayOptions(upcasters: [Upcaster(label: "addToCart") { _ in throw ReplayError.upcastFailed("carts before 2.0 cannot be replayed") }])
        let report = try Replay(journal: journal, session: id, options: options, reducer: CartV2.reduce).run()
        #expect(report.failure?.description == #"cart.actionlog, session 1 "cart", entry 1: the upcaster for "addToCart" failed: carts before 2.0 cannot be replayed"#)
    }

    @Test("renameCase refuses an action that does not have the old case's shape")
    func renameWrongShape() throws {
        let (journal, id) = try record(directory.path("odd.actionlog"), initial: CartV1(), [OddAction(value: 1)], reduce: { (_: inout CartV1, _: OddAction) in })
        // The odd action's label is its type name; give the upcaster that label to reach it.
        let reaching = ReplayOptions(upcasters: [Upcaster.renameCase("OddAction", to: "x")])
        let report = try Replay(journal: journal, session: id, options: reaching) { (_: inout CartV1, _: OddAction) in }.run()
        #expect(report.failure?.reason == #"the action is not the enum case "OddAction": {"value":1}"#)
    }

    // MARK: - migrate

    @Test("migrate moves an old golden forward once; afterwards it replays without upcasters")
    func migrateGolden() throws {
        let path = directory.path("checkout-v0.jsonl")
        try FileManager.default.copyItem(atPath: GoldenTests.fixtures.appendingPathComponent("checkout-v0.jsonl").path, toPath: path)
        #expect(verifyReplay(golden: path, of: .reducer(Checkout.transition), record: .never).replay?.failure?.code == .actionDoesNotDecode)
        let old = try String(contentsOfFile: path, encoding: .utf8)

        let report = try migrate(golden: path, upcasters: [.renameCase("addProduct", to: "addItem")], as: Checkout.Event.self)
        #expect(report.description == "Migrated \(path): rewrote the actions of entries 1, 2, 9.")
        // Recorded before side effects were journaled: the transition alone replays it.
        let result = verifyReplay(golden: path, of: .reducer(Checkout.transition), record: .never)
        #expect(result.passed, "\(result.message ?? "")")
        // Only the renamed actions and their labels changed, byte for byte, but for the text form's
        // times, written as ISO 8601 now (the golden's values keep their convention).
        let today = try RecordedSession(jsonl: old, file: "checkout-v0.jsonl").jsonl()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == today.replacingOccurrences(of: "addProduct", with: "addItem"))
        #expect(try migrate(golden: path, upcasters: [.renameCase("addProduct", to: "addItem")], as: Checkout.Event.self).rewritten == [])
    }

    @Test("migrate refuses an upcaster that splits an action, and an action that still does not decode")
    func migrateRefusals() throws {
        let path = directory.path("checkout-v0.jsonl")
        try FileManager.default.copyItem(atPath: GoldenTests.fixtures.appendingPathComponent("checkout-v0.jsonl").path, toPath: path)
        let splitting = Upcaster(label: "addProduct") { old in [old, old] }
        let refusal = #expect(throws: ReplayError.self) { try migrate(golden: path, upcasters: [splitting], as: Checkout.Event.self) }
        #expect(refusal?.code == .notMigratable)
        #expect(refusal?.entry == 1)
        #expect(refusal?.description == """
            checkout-v0.jsonl, session "checkout", entry 1: the upcasters turn action "addProduct" into 2 actions; \
            a golden keeps one action per entry, so keep these upcasters in ReplayOptions instead of migrating
            """)
        do {
            _ = try migrate(golden: path, upcasters: [], as: Checkout.Event.self)
            Issue.record("migrate without upcasters should fail")
        } catch {
            #expect("\(error)" == #"checkout-v0.jsonl, session "checkout", entry 1: action "addProduct" no longer decodes: Event has no case "addProduct""#)
        }
    }
}

/// Adding to the cart in two steps, the shape `split` upcasts to.
enum CartV3 {
    enum Action: Codable, Equatable, Sendable {
        case choose(id: String)
        case confirm(quantity: Int)
    }
    static func reduce(_ state: inout CartV1, _ action: Action) {
        switch action {
        case .choose(let id): state.ids.append(id)
        case .confirm(let quantity): state.ids += Array(repeating: state.ids.last ?? "", count: quantity - 1)
        }
    }
}

/// An action that is not an enum.
struct OddAction: Codable, Sendable {
    var value: Int
}
