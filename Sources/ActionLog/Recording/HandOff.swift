import Foundation

/// The bounded queue between the threads that dispatch and the recorder's writer thread.
///
/// A monitor: every field is read and written with `condition` locked. The dispatching side does O(1)
/// work under the lock (append, maybe signal); the writer takes whole batches at once.
final class HandOff<Item: Sendable>: @unchecked Sendable {
    // @unchecked: all mutable state below is guarded by `condition`.

    struct Batch {
        var items: [Pending]
        /// Set when the recorder is closing and this batch empties the queue: the writer's last batch.
        var isLast: Bool
        /// Dropped with nothing recorded after them (only at close).
        var trailingDrops: Int
        /// Set by ``abandon()``: the writer stops as a process that dies would.
        var isAbandoned: Bool
    }

    struct Pending {
        var item: Item
        /// Entries dropped just before this one, to be recorded as a gap ahead of it.
        var droppedBefore: Int
    }

    private let condition = NSCondition()
    private let capacity: Int
    private let batchSize: Int
    private let batchInterval: Duration

    private var queue: [Pending] = []
    private var head = 0
    private var oldestEnqueuedAt: ContinuousClock.Instant?
    private var pendingDrops = 0
    private var closing = false
    private var finished = false
    private var flushWaiters = 0
    private var abandoned = false

    private var accepted = 0
    private var dropped = 0
    private var processed = 0
    private var committed = 0
    private var lost = 0

    init(capacity: Int, batchSize: Int, batchInterval: Duration) {
        self.capacity = max(1, capacity)
        self.batchSize = max(1, batchSize)
        self.batchInterval = batchInterval
    }

    private var count: Int { queue.count - head }

    // MARK: - Dispatching side

    enum Outcome { case accepted, dropped, closed }

    /// Hands `item` over. Never blocks longer than `timeout` (zero: not at all).
    func put(_ item: Item, timeout: Duration) -> Outcome {
        condition.lock()
        defer { condition.unlock() }
        guard !closing else { return .closed }
        if count >= capacity, timeout > .zero {
            let deadline = Date().addingTimeInterval(timeout.timeInterval)
            while count >= capacity, !closing, condition.wait(until: deadline) {}
        }
        guard !closing else { return .closed }
        guard count < capacity else {
            pendingDrops += 1
            dropped += 1
            return .dropped
        }
        if count == 0 { oldestEnqueuedAt = .now }
        queue.append(Pending(item: item, droppedBefore: pendingDrops))
        pendingDrops = 0
        accepted += 1
        // Wake the writer when it must start its batch timer, or when a batch is full.
        if count == 1 || count == batchSize { condition.broadcast() }
        return .accepted
    }

    /// Waits until every item accepted so far has been processed by the writer.
    func flush() {
        condition.lock()
        defer { condition.unlock() }
        let target = accepted
        flushWaiters += 1
        condition.broadcast()
        while processed < target, !finished { condition.wait() }
        flushWaiters -= 1
    }

    /// Asks the writer to finish once the queue is empty; waits for it when `wait` is true.
    func close(wait: Bool) {
        condition.lock()
        defer { condition.unlock() }
        closing = true
        condition.broadcast()
        while wait, !finished { condition.wait() }
    }

    var isClosing: Bool {
        condition.lock()
        defer { condition.unlock() }
        return closing
    }

    // MARK: - Writer side

    /// Waits for the next batch: a full batch, an old enough entry, a flush, or closing.
    func nextBatch() -> Batch {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if closing || count >= batchSize || (flushWaiters > 0 && count > 0) { break }
            if count > 0, let oldest = oldestEnqueuedAt {
                let due = oldest.advanced(by: batchInterval)
                let remaining = ContinuousClock.now.duration(to: due)
                if remaining <= .zero { break }
                _ = condition.wait(until: Date().addingTimeInterval(remaining.timeInterval))
            } else {
                condition.wait()
            }
        }
        if abandoned { return Batch(items: [], isLast: true, trailingDrops: 0, isAbandoned: true) }
        let items = Array(queue[head...])
        queue.removeAll(keepingCapacity: true)
        head = 0
        oldestEnqueuedAt = nil
        let isLast = closing
        let trailing = isLast ? pendingDrops : 0
        if isLast { pendingDrops = 0 }
        condition.broadcast()  // Room for dispatchers waiting under back-pressure.
        return Batch(items: items, isLast: isLast, trailingDrops: trailing, isAbandoned: false)
    }

    /// Stops the writer without closing the session, discarding what waits, as a crash would.
    func abandon() {
        condition.lock()
        abandoned = true
        closing = true
        condition.broadcast()
        while !finished { condition.wait() }
        condition.unlock()
    }

    /// Marks items processed (`committed` written, `lost` counted as a gap or failed) and wakes flushers.
    func didProcess(items: Int, committed: Int, lost: Int) {
        condition.lock()
        processed += items
        self.committed += committed
        self.lost += lost
        condition.broadcast()
        condition.unlock()
    }

    /// Marks the writer finished: flushers and closers stop waiting.
    func finish() {
        condition.lock()
        finished = true
        closing = true
        condition.broadcast()
        condition.unlock()
    }

    /// The counters, read together.
    func statistics() -> RecorderStatistics {
        condition.lock()
        defer { condition.unlock() }
        return RecorderStatistics(recorded: accepted, dropped: dropped, committed: committed, lost: lost, pending: accepted - processed)
    }
}

extension Duration {
    var timeInterval: TimeInterval {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
