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
        // A thread, not a task: `take` blocks this test's thread, and a task could wait behind other
        // tests for one of the few threads of the cooperative pool longer than the batch interval.
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

@Suite("HandOff: the queue is bounded by bytes as well as by count")
struct HandOffBytesTests {
    @Test("each item counts for the writer's estimate: with 1,000 bytes each and 2,500 of room, the third is refused until the writer takes")
    func boundedByBytes() {
        let handOff = HandOff<Int>(capacity: 100, byteCapacity: 2_500, batchSize: 1_000, batchInterval: .seconds(60))
        handOff.estimateStateBytes(1_000)
        #expect([1, 2, 3].map { handOff.put($0, timeout: .zero) } == [.accepted, .accepted, .dropped])
        let take = handOff.take(held: 0, heldSince: nil)
        #expect(take.items.map(\.item) == [1, 2])
        #expect(handOff.put(4, timeout: .zero) == .accepted)
        #expect(take.items.count + 1 == handOff.statistics().recorded)
    }

    @Test("a state larger than the whole byte capacity still goes through, one at a time")
    func largerThanCapacity() {
        let handOff = HandOff<Int>(capacity: 100, byteCapacity: 2_500, batchSize: 1_000, batchInterval: .seconds(60))
        handOff.estimateStateBytes(10_000)
        #expect([1, 2].map { handOff.put($0, timeout: .zero) } == [.accepted, .dropped])
    }

    @Test("with no timeout, put waits for room as long as it takes, and returns when the recorder closes")
    func waitsWithoutTimeout() {
        let handOff = HandOff<Int>(capacity: 1, batchSize: 1_000, batchInterval: .seconds(60))
        #expect(handOff.put(1, timeout: nil) == .accepted)
        // A thread of its own, not a task: this test blocks its own thread meanwhile.
        let taken = Locked<[Int]>([])
        let took = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.05)
            let items = handOff.take(held: 0, heldSince: nil).items.map(\.item)
            taken.withLock { $0 = items }
            took.signal()
            Thread.sleep(forTimeInterval: 0.05)
            handOff.close(wait: false)
        }
        #expect(handOff.put(2, timeout: nil) == .accepted)  // Returns once the writer took 1.
        took.wait()
        #expect(taken.withLock { $0 } == [1])
        #expect(handOff.put(3, timeout: nil) == .closed)  // The queue holds 2: only closing ends the wait.
        #expect(handOff.statistics().dropped == 0)
    }
}
