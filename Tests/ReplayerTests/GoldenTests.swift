import ActionLog
import ActionLogExamples
import ActionLogStore
import Foundation
import Replayer
import Testing

/// Text goldens of every example feature, replayed with today's reducers. Each `.jsonl` golden was
/// recorded from the journal fixture of the same name (`ifMissing:`), and is what `git diff` shows
/// when behaviour changes.
@Suite("Golden files: assertReplay over fixtures/")
@MainActor
struct GoldenTests {
    nonisolated static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("fixtures")

    static func journalFixture(_ name: String) -> GoldenSource<CitySearch, Message<CitySearch.Input, CitySearch.Feedback>> {
        .recorded { try Journal(url: fixtures.appendingPathComponent(name)).recordedSession(1) }
    }

    @Test("fixtures/city-search.jsonl replays with today's CitySearch reducer (Store with effects)")
    func citySearch() {
        assertReplay(golden: "fixtures/city-search.jsonl", of: .reducer(CitySearch.reduce, ifMissing: Self.journalFixture("city-search.actionlog")))
    }

    @Test("fixtures/checkout.jsonl replays with today's checkout state machine")
    func checkout() {
        assertReplay(
            golden: "fixtures/checkout.jsonl",
            of: .reducer(Checkout.reduce, ifMissing: .recorded { try Journal(url: Self.fixtures.appendingPathComponent("checkout.actionlog")).recordedSession(1) }))
    }

    @Test("a deliberately changed reducer fails the test with the whole expected message")
    func changedReducerFails() {
        let messages = Locked<[String]>([])
        withKnownIssue {
            assertReplay(golden: "fixtures/checkout.jsonl", of: .reducer(regressedCheckout), record: .never)
        } matching: { issue in
            messages.withLock { $0 += issue.comments.map(\.rawValue) }
            return true
        }
        #expect(messages.withLock { $0 } == [Self.checkoutRegressionMessage])
    }

    /// What `assertReplay` says when the total loses a dollar at validation; the XCTest suite pins the same text.
    nonisolated static let checkoutRegressionMessage = """
        Replay diverged at entry 4 of session "checkout" of checkout.jsonl (cartValidated(totalCents: 67400)).

          State:
              Checkout.State.cartValid(
                cart: Checkout.Cart(…),
            −   totalCents: 67400
            +   totalCents: 67300
              )

        (Recorded: −, Replayed: +)

        If the new behaviour is intended, re-record with ACTIONLOG_RECORD=failed.
        """

    // MARK: - Side effects of the state machine

    @Test("a changed side effect of the state machine fails the golden with the whole message, its state unchanged")
    func changedSideEffectFails() {
        // The regression: a 99-cent fee is charged on top of the total; every state stays the same.
        func feeCharging(_ state: inout Checkout.State, _ event: Checkout.Event) -> Checkout.SideEffect? {
            let sideEffect = Checkout.reduce(&state, event)
            if case .chargePayment(let total) = sideEffect { return .chargePayment(totalCents: total + 99) }
            return sideEffect
        }
        let result = verifyReplay(golden: "fixtures/checkout.jsonl", of: .reducer(feeCharging), record: .never)
        let divergence = result.replay?.divergence
        #expect(divergence?.stateDifferences == [])
        #expect(result.message == """
            Replay diverged at entry 5 of session "checkout" of checkout.jsonl (payTapped).

              Effect:
                − Checkout.SideEffect.chargePayment(totalCents: 67400)
                + Checkout.SideEffect.chargePayment(totalCents: 67499)

            (Recorded: −, Replayed: +)

            If the new behaviour is intended, re-record with ACTIONLOG_RECORD=failed.
            """)
    }

    @Test("a golden named .JSONL is read as the text form, as replay-cli reads it")
    func upperCaseExtensionIsText() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("golden-case-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let golden = directory.appendingPathComponent("checkout.JSONL")
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("checkout.jsonl"), to: golden)
        let result = verifyReplay(golden: golden.path, of: .reducer(Checkout.reduce), record: .never)
        #expect(result.message == nil)
        #expect(result.replay?.entriesReplayed == 14)
    }

    @Test("the checkout golden journals each side effect as the entry's effect")
    func checkoutGoldenHoldsSideEffects() throws {
        let recording = try RecordedSession(contentsOfJSONL: Self.fixtures.appendingPathComponent("checkout.jsonl"))
        let effects = try recording.entries.compactMap { entry in try entry.effect.map { (entry.seq, try $0.decode(Checkout.SideEffect.self)) } }
        #expect(effects.map(\.0) == [3, 5, 10, 12])
        #expect(effects.map(\.1) == [
            .validateCart(Checkout.Cart(items: [
                Checkout.Item(sku: "tea-01", name: "Green tea", priceCents: 1_250, quantity: 2),
                Checkout.Item(sku: "kettle-9", name: "Copper kettle", priceCents: 64_900, quantity: 1),
            ])),
            .chargePayment(totalCents: 67_400),
            .validateCart(Checkout.Cart(items: [
                Checkout.Item(sku: "tea-01", name: "Green tea", priceCents: 1_250, quantity: 2),
                Checkout.Item(sku: "cup-02", name: "Tea cup", priceCents: 900, quantity: 4),
            ])),
            .chargePayment(totalCents: 6_100),
        ])
    }

    // MARK: - Old recordings

    @Test("a golden recorded before addItem was renamed, and before side effects were journaled, replays through an upcaster")
    func oldFormatWithUpcaster() {
        assertReplay(
            golden: "fixtures/checkout-v0.jsonl",
            of: .reducer(Checkout.transition),
            options: ReplayOptions(upcasters: [.renameCase("addProduct", to: "addItem")]),
            record: .never)
    }

    @Test("without the upcaster, the old golden fails naming file, session, entry, label and the missing case")
    func oldFormatWithoutUpcaster() {
        let result = verifyReplay(golden: "fixtures/checkout-v0.jsonl", of: .reducer(Checkout.transition), record: .never)
        #expect(result.message == """
            Replay of session "checkout" of checkout-v0.jsonl stopped after 0 matching entries: checkout-v0.jsonl, \
            session "checkout", entry 1: action "addProduct" no longer decodes: Event has no case "addProduct"

            If the action type changed on purpose, add an upcaster for "addProduct" to ReplayOptions.upcasters, \
            then move the golden forward once with migrate(golden:upcasters:as:).
            """)
    }
}

/// The checkout reducer with a regression: validation takes a dollar off the total.
func regressedCheckout(_ state: inout Checkout.State, _ event: Checkout.Event) -> Checkout.SideEffect? {
    Checkout.transition(&state, event)
    if case .cartValidated = event, case .cartValid(let cart, let total) = state {
        state = .cartValid(cart: cart, totalCents: total - 100)
    }
    return Checkout.sideEffect(for: state)
}
