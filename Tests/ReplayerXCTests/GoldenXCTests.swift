import ActionLog
import ActionLogExamples
import Replayer
import XCTest

/// The golden assertion under XCTest: the same call that fails a Swift Testing test fails an
/// XCTest test, with the same message.
final class GoldenXCTests: XCTestCase {
    /// Failures recorded while ``capturing`` is set, instead of failing the test.
    private var captured: [String] = []
    private var capturing = false

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        if capturing {
            captured.append(description)
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    func testCheckoutGoldenReplays() {
        assertReplay(golden: "fixtures/checkout.jsonl", record: .never, reducer: Checkout.reduce)
    }

    func testCitySearchGoldenReplays() {
        assertReplay(golden: "fixtures/city-search.jsonl", record: .never, reducer: CitySearch.reduce)
    }

    func testChangedReducerFailsWithTheWholeMessage() {
        capturing = true
        assertReplay(golden: "fixtures/checkout.jsonl", record: .never) { (state: inout Checkout.State, event: Checkout.Event) -> Checkout.SideEffect? in
            Checkout.transition(&state, event)
            if case .cartValidated = event, case .cartValid(let cart, let total) = state {
                state = .cartValid(cart: cart, totalCents: total - 100)
            }
            return Checkout.sideEffect(for: state)
        }
        capturing = false
        // XCTFail prefixes "failed - "; on Linux, IssueReporting may append a note about host
        // applications after a "━━┉┅" rule. Everything of ours is pinned whole.
        let ours = captured.map { $0.components(separatedBy: "\n\n━━┉┅").first ?? $0 }
        XCTAssertEqual(ours, [
            """
            failed - Replay diverged at entry 4 of session "checkout" of checkout.jsonl (cartValidated(totalCents: 67400)).

              State:
                  Checkout.State.cartValid(
                    cart: Checkout.Cart(…),
                −   totalCents: 67400
                +   totalCents: 67300
                  )

            (Recorded: −, Replayed: +)

            If the new behaviour is intended, re-record with ACTIONLOG_RECORD=failed.
            """,
        ])
    }
}

/// The asynchronous examples' goldens under XCTest, awaited on the test's task.
final class ArchitectureGoldenXCTests: XCTestCase {
    private var captured: [String] = []
    private var capturing = false

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        if capturing {
            captured.append(description)
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    private static func productCard(quantityPerTap: Int) -> @MainActor @Sendable (ProductCard) -> ReplayedViewModel<ProductCard, ProductCardAction> {
        { initial in
            let replayed = ExampleScripts.replayedProductCard(initial, quantityPerTap: quantityPerTap)
            return ReplayedViewModel(handle: replayed.handle, snapshot: replayed.snapshot)
        }
    }

    func testProductCardGoldenReplays() async {
        await assertReplay(golden: "fixtures/product-card.jsonl", services: ["ProductService"], viewModel: Self.productCard(quantityPerTap: 1))
    }

    func testSignInGoldenReplays() async {
        await assertReplay(golden: "fixtures/sign-in.jsonl", services: ["AuthService"]) { emit in ExampleScripts.replayedSignIn(emit: emit) }
    }

    func testChangedProductCardFailsWithTheWholeMessage() async {
        capturing = true
        await assertReplay(golden: "fixtures/product-card.jsonl", services: ["ProductService"], viewModel: Self.productCard(quantityPerTap: 2))
        capturing = false
        let ours = captured.map { $0.components(separatedBy: "\n\n━━┉┅").first ?? $0 }
        XCTAssertEqual(ours, [
            """
            failed - Replay diverged at entry 5 of session "product card" of product-card.jsonl (addToBasketTapped).

              Service call 0:
                − ProductService.addToBasket("lamp-7", 1)
                + ProductService.addToBasket("lamp-7", 2)

            (Recorded: −, Replayed: +)

            If the new behaviour is intended, record the session again and replace the golden.
            """,
        ])
    }
}
