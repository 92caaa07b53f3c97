import Foundation
import Testing
@testable import ActionLog

@Suite("HandOff: the queue between dispatching threads and the writer")
struct HandOffTests {
    @Test("a step handed over while the writer holds rows waiting for their commit is taken at once, not when the batch is due")
    func takesWhileHolding() {
        // The batch is due in a minute: a writer that slept until then would keep the step (and the
        // caller's state it shares) that long. It must come back with the step and no commit due.
        let handOff = HandOff<Int>(capacity: 16, batchSize: 1_000, batchInterval: .seconds(60))
        let start = ContinuousClock.now
        // A thread of its own, not a task: the cooperative pool may be busy with other suites for
        // longer than the batch interval.
        let put = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.02)
            _ = handOff.put(7, timeout: .zero)
            put.signal()
        }
        let take = handOff.take(held: 1, heldSince: start)
        put.wait()
        #expect(take.items.map(\.item) == [7])
        #expect(!take.commitDue, "taken before the batch was due")
    }
}
