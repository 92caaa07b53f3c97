import Foundation
import Testing
@testable import ActionLog

@Suite("HandOff: the queue between dispatching threads and the writer")
struct HandOffTests {
    @Test("a step handed over while the writer holds rows waiting for their commit is taken at once, not when the batch is due")
    func takesWhileHolding() async throws {
        // The batch is due in a minute: a writer that slept until then would keep the step (and the
        // caller's state it shares) that long. It must come back with the step and no commit due.
        let handOff = HandOff<Int>(capacity: 16, batchSize: 1_000, batchInterval: .seconds(60))
        let start = ContinuousClock.now
        // The putter has a thread of its own: `take` blocks this one, and a task would wait for a
        // free thread of the cooperative pool, which the other tests running meanwhile may hold.
        let putter = Thread {
            Thread.sleep(forTimeInterval: 0.02)
            _ = handOff.put(7, timeout: .zero)
        }
        putter.start()
        let take = handOff.take(held: 1, heldSince: start)
        #expect(take.items.map(\.item) == [7])
        #expect(!take.commitDue, "taken before the batch was due")
    }
}
