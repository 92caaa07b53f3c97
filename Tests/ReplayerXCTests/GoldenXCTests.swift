import ActionLog
import ActionLogExamples
import Replayer
import XCTest

/// The golden assertion under XCTest: the same call that fails a Swift Testing test fails an
/// XCTest test, with the same message.
final class GoldenXCTests: FailureCapturingTestCase {
    func testCheckoutGoldenReplays() {
        assertReplay(golden: "fixtures/checkout.jsonl", of: .reducer(Checkout.reduce), record: .never)
    }

    func testCitySearchGoldenReplays() {
        assertReplay(golden: "fixtures/city-search.jsonl", of: .reducer(CitySearch.reduce), record: .never)
    }

    func testChangedReducerFailsWithTheWholeMessage() {
        let failures = failures {
            assertReplay(golden: "fixtures/checkout.jsonl", of: .reducer { (state: inout Checkout.State, event: Checkout.Event) -> Checkout.SideEffect? in
                Checkout.transition(&state, event)
                if case .cartValidated = event, case .cartValid(let cart, let total) = state {
                    state = .cartValid(cart: cart, totalCents: total - 100)
                }
                return Checkout.sideEffect(for: state)
            }, record: .never)
        }
        // XCTFail prefixes "failed - "; everything of ours is pinned whole.
        XCTAssertEqual(failures, [
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
final class ArchitectureGoldenXCTests: FailureCapturingTestCase {
    private static func productCard(quantityPerTap: Int) -> @MainActor @Sendable (ProductCard) -> ReplayedViewModel<ProductCard, ProductCardAction> {
        { initial in
            let replayed = ExampleScripts.replayedProductCard(initial, quantityPerTap: quantityPerTap)
            return ReplayedViewModel(handle: replayed.handle, snapshot: replayed.snapshot)
        }
    }

    func testProductCardGoldenReplays() async {
        await assertReplay(golden: "fixtures/product-card.jsonl", of: .viewModel(services: ["ProductService"], Self.productCard(quantityPerTap: 1)))
    }

    func testSignInGoldenReplays() async {
        await assertReplay(golden: "fixtures/sign-in.jsonl", of: .eventViewModel(services: ["AuthService"]) { emit in ExampleScripts.replayedSignIn(emit: emit) })
    }

    func testChangedProductCardFailsWithTheWholeMessage() async {
        let failures = await failures {
            await assertReplay(golden: "fixtures/product-card.jsonl", of: .viewModel(services: ["ProductService"], Self.productCard(quantityPerTap: 2)))
        }
        XCTAssertEqual(failures, [
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
