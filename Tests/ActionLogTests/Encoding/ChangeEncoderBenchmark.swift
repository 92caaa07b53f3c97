import Foundation
import Testing
@testable import ActionLog

/// Prints how long encoding a cart takes, each way. It measures and asserts nothing, so it only
/// runs when asked, and its numbers only mean something in a release build:
///
/// ```
/// ACTIONLOG_BENCHMARK=1 swift test -c release -Xswiftc -enable-testing --filter ChangeEncoderBenchmark
/// ```
@Suite("ChangeEncoder benchmark", .serialized)
struct ChangeEncoderBenchmark {
    typealias Model = EncodingModel

    /// The median over `rounds` of the time per call, in µs, of `iterations` calls of `body`.
    func microseconds(rounds: Int = 7, iterations: Int, _ body: (Int) throws -> Void) rethrows -> Double {
        var samples: [Double] = []
        var call = 0
        for _ in 0..<rounds {
            let elapsed = try ContinuousClock().measure {
                for _ in 0..<iterations {
                    try body(call)
                    call += 1
                }
            }
            let (seconds, attoseconds) = elapsed.components
            samples.append((Double(seconds) * 1e6 + Double(attoseconds) / 1e12) / Double(iterations))
        }
        return samples.sorted()[rounds / 2]
    }

    @Test(
        "µs per encode of a cart whose items change one quantity at a time",
        .enabled(if: ProcessInfo.processInfo.environment["ACTIONLOG_BENCHMARK"] != nil),
        arguments: [1000, 10])
    func cart(count: Int) throws {
        var cart = Model.Cart.make(count: count)
        let scale = 1000 / count
        var report = "cart of \(count) items (\(try JSONEncoder().encode(cart).count) bytes of JSON), µs per call:\n"
        func line(_ label: String, _ value: Double) {
            report += "  " + label.padding(toLength: 52, withPad: " ", startingAt: 0) + String(format: "%9.2f\n", value)
        }

        var held = cart
        line("the mutation alone, previous state held", microseconds(iterations: 2000 * scale) { call in
            cart.items[(call &* 7919) % count].quantity += 1
            held = cart
        })
        _ = held

        let encoder = ChangeEncoder<Model.Cart>()
        _ = try encoder.encode(cart)
        line("ChangeEncoder, mutation + encode", try microseconds(iterations: 2000 * scale) { call in
            cart.items[(call &* 7919) % count].quantity += 1
            _ = try encoder.encode(cart)
        })
        line("ChangeEncoder, unchanged state", try microseconds(iterations: 2000 * scale) { _ in
            _ = try encoder.encode(cart)
        })
        line("JSONValueEncoder, full encode", try microseconds(iterations: 100 * scale) { _ in
            _ = try JSONValueEncoder().encode(cart)
        })
        line("JSONValue(encoding:), JSONEncoder + parse", try microseconds(iterations: 50 * scale) { _ in
            _ = try JSONValue(encoding: cart)
        })
        print(report, terminator: "")
    }
}
