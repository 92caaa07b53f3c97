import ActionLogExamples
import Foundation
import Replayer
import XCTest

/// A diverging golden fails the running XCTest test wherever `assertReplay` runs: on the test's
/// thread, in a detached task, on a `Thread` (XCTest finds its running test case from any thread).
/// `OffTaskGoldenTests` pins the same three places under Swift Testing.
final class OffTaskGoldenXCTests: FailureCapturingTestCase {
    func testOnTheTestsThreadFailsTheTest() {
        XCTAssertEqual(failures { assertRegressedCheckout() }, [Self.expected])
    }

    func testInADetachedTaskFailsTheTest() async {
        let failures = await failures {
            await Task.detached { assertRegressedCheckout() }.value
        }
        XCTAssertEqual(failures, [Self.expected])
    }

    func testOnAThreadFailsTheTest() {
        let failures = failures {
            let done = DispatchSemaphore(value: 0)
            Thread {
                assertRegressedCheckout()
                done.signal()
            }.start()
            done.wait()
        }
        XCTAssertEqual(failures, [Self.expected])
    }

    /// As `GoldenXCTests` pins it, after XCTFail's "failed - ".
    static let expected = """
        failed - Replay diverged at entry 4 of session "checkout" of checkout.jsonl (cartValidated(totalCents: 67400)).

          State:
              Checkout.State.cartValid(
                cart: Checkout.Cart(…),
            −   totalCents: 67400
            +   totalCents: 67300
              )

        (Recorded: −, Replayed: +)

        If the new behaviour is intended, re-record with ACTIONLOG_RECORD=failed.
        """
}

/// The checkout golden against a reducer that loses a dollar at validation.
private func assertRegressedCheckout() {
    assertReplay(golden: "fixtures/checkout.jsonl", of: .reducer { (state: inout Checkout.State, event: Checkout.Event) -> Checkout.SideEffect? in
        Checkout.transition(&state, event)
        if case .cartValidated = event, case .cartValid(let cart, let total) = state {
            state = .cartValid(cart: cart, totalCents: total - 100)
        }
        return Checkout.sideEffect(for: state)
    }, record: .never)
}
