import Foundation

/// The bounded queue between the threads that dispatch and the recorder's writer thread.
///
/// A monitor: every field is read and written with `condition` locked. The dispatching side does O(1)
/// work under the lock (append, maybe signal). The queue is bounded by count and by bytes: each item
/// counts as ``stateBytesEstimate`` bytes, a figure the writer publishes (the encoded size of the last
/// keyframe it wrote), so the caller measures nothing. The writer takes what is queued as soon as it is
/// there, not when a batch is full: a queued step holds the caller's state, so that the caller's
/// next in-place mutation would copy what the step shares with it. The writer encodes what it
/// took at once, letting the states go, and commits the encoded entries by batches
/// (``take(held:heldSince:)`` says when).
///
/// The dispatching side (``put(_:timeout:)``) is `@inlinable`, with what it touches
/// `@usableFromInline`: ``Recorder/record(action:state:effect:reducerDuration:)`` then runs
/// specialized for the app's types in the app's module. Unspecialized, the same few lines looked up
/// generic metadata and copied values through witness tables: about 10 µs more per dispatch at a
/// UI's pace on a shared host, against ~2 µs for a specialized lock and append (`actionlog-bench
/// --caller-cost`, its "floor" column).
@usableFromInline
final class HandOff<Item: Sendable>: @unchecked Sendable {
    // @unchecked: all mutable state below is guarded by `condition`. For the same reason each stored
    // `var` is `@exclusivity(unchecked)`: the run-time exclusivity checks of a class's properties
    // (`swift_beginAccess`, a thread-local access set) were about 40% of the instructions `record`
    // retired on the dispatching thread.

    /// What the writer takes from the queue: everything queued, and whether to commit now.
    struct Take {
        /// The items queued, oldest first; the queue no longer holds them.
        var items: [Pending]
        /// When the first of ``items`` was handed over, or a moment before (see ``lastSeenEmpty``).
        var enqueuedAt: ContinuousClock.Instant?
        /// Whether the writer should commit what it holds once it has encoded ``items``: a flush
        /// waits, the batch is full, its interval has passed, or the recorder is closing.
        var commitDue: Bool
        /// Set when the recorder is closing and this take empties the queue: the writer's last.
        var isLast: Bool
        /// Dropped with nothing recorded after them (only at close).
        var trailingDrops: Int
        /// Set by ``abandon()``: the writer stops as a process that dies would.
        var isAbandoned: Bool
        /// A capture asked for (``requestCapture(reason:)``) right after ``items``: its reason.
        var capture: String? = nil
    }

    @usableFromInline
    struct Pending {
        @usableFromInline var item: Item
        /// Entries dropped just before this one, to be recorded as a gap ahead of it.
        @usableFromInline var droppedBefore: Int

        @inlinable
        init(item: Item, droppedBefore: Int) {
            self.item = item
            self.droppedBefore = droppedBefore
        }
    }

    @usableFromInline let condition = NSCondition()
    @usableFromInline let capacity: Int
    @usableFromInline let byteCapacity: Int
    private let batchSize: Int
    private let batchInterval: Duration

    @exclusivity(unchecked) @usableFromInline var queue: [Pending] = []
    @exclusivity(unchecked) @usableFromInline var head = 0
    /// What the queued items count for against `byteCapacity`: `count × stateBytesEstimate` as they came.
    @exclusivity(unchecked) @usableFromInline var queuedBytes = 0
    /// What each item handed over from now on counts for.
    @exclusivity(unchecked) @usableFromInline var stateBytesEstimate = 0
    /// The last moment the writer saw the queue empty (or, woken from its sleep by the first item,
    /// the moment it woke): the items queued since came no earlier, so the batch interval counted
    /// from it ends no later than counted from the first of them. Kept by the writer, so that `put`
    /// reads no clock for it (a monotonic clock read was a third of what `put` executed).
    @exclusivity(unchecked) private var lastSeenEmpty = ContinuousClock.now
    @exclusivity(unchecked) @usableFromInline var pendingDrops = 0
    @exclusivity(unchecked) @usableFromInline var closing = false
    @exclusivity(unchecked) private var finished = false
    @exclusivity(unchecked) private var flushWaiters = 0
    @exclusivity(unchecked) private var abandoned = false
    /// Whether the writer waits for a signal (it has been idle for `sleepAfter`) rather than polling.
    @exclusivity(unchecked) @usableFromInline var writerSleeps = false
    /// When the writer last took something.
    @exclusivity(unchecked) private var lastTaken = ContinuousClock.now
    /// How often a writer that took something lately looks for more: well under the time between two
    /// dispatches of a busy UI (4 ms at 250 a second), so a step is let go before the next dispatch.
    private static var pollInterval: Duration { .milliseconds(1) }
    /// How long the writer polls after it last took something, before it sleeps until signalled.
    private static var sleepAfter: Duration { .seconds(1) }

    @exclusivity(unchecked) @usableFromInline var accepted = 0
    @exclusivity(unchecked) @usableFromInline var dropped = 0
    @exclusivity(unchecked) private var processed = 0
    @exclusivity(unchecked) private var committed = 0
    @exclusivity(unchecked) private var lost = 0

    /// Whether the writer takes only when a flush or close asks (``RecorderConfiguration/writerWaitsForFlush``).
    private let waitsForFlush: Bool

    init(capacity: Int, byteCapacity: Int = .max, batchSize: Int, batchInterval: Duration, waitsForFlush: Bool = false) {
        self.waitsForFlush = waitsForFlush
        self.capacity = max(1, capacity)
        self.byteCapacity = max(0, byteCapacity)
        self.batchSize = max(1, batchSize)
        self.batchInterval = batchInterval
    }

    @inlinable var count: Int { queue.count - head }

    // MARK: - Dispatching side

    @usableFromInline enum Outcome { case accepted, dropped, closed }

    /// Hands `item` over. Never blocks longer than `timeout` (zero: not at all; `nil`: until there is
    /// room or the recorder closes), counted from when it finds the queue full. The item is moved into
    /// the queue, not copied: a copy of a step retained every reference it holds, through the value
    /// witnesses of its generic type (a third of what `record` cost the dispatching thread).
    @inlinable
    func put(_ item: consuming Item, timeout: Duration?) -> Outcome {
        condition.lock()
        defer { condition.unlock() }
        guard !closing else { return .closed }
        if !hasRoom {
            waitForRoom(timeout: timeout)
            guard !closing else { return .closed }
            guard hasRoom else {
                pendingDrops += 1
                dropped += 1
                return .dropped
            }
        }
        queue.append(Pending(item: item, droppedBefore: pendingDrops))
        let (sum, overflow) = queuedBytes.addingReportingOverflow(stateBytesEstimate)
        queuedBytes = overflow ? .max : sum
        pendingDrops = 0
        accepted += 1
        // Wake the writer only when it sleeps: while dispatches come, it looks for them every
        // `pollInterval` instead, so that this call makes no system call and does not hand its
        // core to the writer (a woken thread may preempt the one that woke it).
        if count == 1, writerSleeps { condition.broadcast() }
        return .accepted
    }

    /// Waits, with `condition` locked, until there is room, the recorder closes, or `timeout` has
    /// passed (`nil`: no limit). Not inlined: only a full queue comes here.
    @usableFromInline
    func waitForRoom(timeout: Duration?) {
        let deadline = timeout.map { ContinuousClock.now.advanced(by: $0) }
        while !hasRoom, !closing {
            if let deadline {
                let remaining = ContinuousClock.now.duration(to: deadline)
                guard remaining > .zero else { return }
                _ = condition.wait(until: Date().addingTimeInterval(remaining.timeInterval))
            } else {
                condition.wait()
            }
        }
    }

    /// Whether one more item fits: under the count, and under the bytes unless the queue is empty (a
    /// state larger than the whole byte capacity still goes through, one at a time).
    @inlinable var hasRoom: Bool {
        count < capacity && (count == 0 || queuedBytes <= byteCapacity - stateBytesEstimate)
    }

    /// Waits until every item accepted so far has been processed by the writer.
    func flush() {
        condition.lock()
        defer { condition.unlock() }
        let target = accepted
        let captureTarget = requestedCaptures
        flushWaiters += 1
        condition.broadcast()
        while processed < target || handledCaptures < captureTarget, !finished { condition.wait() }
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

    /// Closes the recorder as the process ends (see ``OpenRecorders``): nothing more is accepted, and
    /// the writer finishes what was handed over. On any thread but the writer's own two, waits until
    /// it has: however long that takes, the work is bounded (what was accepted before, encoded and
    /// committed once each), and no clock decides what reaches the file. On one of the writer's
    /// threads (`exit` called from ``RecorderConfiguration/onError``), which cannot wait for itself,
    /// runs what that thread registered with ``onProcessEnd(_:)`` instead.
    func closeAtProcessEnd() {
        condition.lock()
        closing = true
        condition.broadcast()
        guard !finished else {
            condition.unlock()
            return
        }
        let current = pthread_self()
        if let own = processEndActions.first(where: { pthread_equal($0.thread, current) != 0 }) {
            endedOnWriterThread = true
            condition.unlock()
            own.run()
            return
        }
        while !finished { condition.wait() }
        condition.unlock()
    }

    /// What to do, on the calling thread (one of the writer's), when the process ends on it: see
    /// ``closeAtProcessEnd()``. Each of the writer's threads registers once, as it starts.
    func onProcessEnd(_ action: @escaping () -> Void) {
        condition.lock()
        processEndActions.append(ThreadAction(thread: pthread_self(), run: action))
        condition.unlock()
    }

    /// Whether the process began to end on one of the writer's threads: the error handler that ended
    /// it is not called again (a second `exit` while the first runs is undefined behaviour).
    var processEndedOnWriterThread: Bool {
        condition.lock()
        defer { condition.unlock() }
        return endedOnWriterThread
    }

    /// Every action the dispatching side handed over or dropped: what the session must account for
    /// once ``closeAtProcessEnd()`` has stopped accepting more (entry 0 included).
    var handedOverActions: Int {
        condition.lock()
        defer { condition.unlock() }
        return accepted + dropped
    }

    /// A closure that only ``closeAtProcessEnd()`` runs, and only on `thread`.
    private struct ThreadAction: @unchecked Sendable {
        // @unchecked: `run` is called on `thread` alone, the thread that made it.
        let thread: pthread_t
        let run: () -> Void
    }

    @exclusivity(unchecked) private var processEndActions: [ThreadAction] = []
    /// Captures asked for and not yet taken: each comes after the first `position` items accepted.
    @exclusivity(unchecked) private var captureRequests: [(position: Int, reason: String)] = []

    /// Asks the writer for a capture (see ``CaptureWindow``) right after the items accepted so far,
    /// whatever the writer has taken of them: the capture holds exactly what was recorded before it.
    func requestCapture(reason: String) {
        condition.lock()
        defer { condition.unlock() }
        guard !closing else { return }
        captureRequests.append((accepted, reason))
        requestedCaptures += 1
        condition.broadcast()
    }

    /// Captures asked for so far, and those the writer has handled: a flush waits for them.
    @exclusivity(unchecked) private var requestedCaptures = 0
    @exclusivity(unchecked) private var handledCaptures = 0

    /// The writer handled a capture asked for: written, or reported as not written.
    func didCapture() {
        condition.lock()
        handledCaptures += 1
        condition.broadcast()
        condition.unlock()
    }
    @exclusivity(unchecked) private var endedOnWriterThread = false

    /// See ``encodedCount``.
    @exclusivity(unchecked) private var encoded = 0

    /// The writer encoded `items` taken items and holds none of them any more.
    func didEncode(_ items: Int) {
        condition.lock()
        encoded += items
        condition.unlock()
    }

    /// The items the writer has encoded and let go of so far.
    var encodedCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return encoded
    }

    // MARK: - Writer side

    /// Waits until something is queued, and takes it all; or, while the writer holds `held` handed-over
    /// items not yet committed (the oldest handed over at `heldSince`), until they are due for a
    /// commit: a flush waits, or the batch interval has passed since `heldSince`.
    func take(held: Int, heldSince: ContinuousClock.Instant?) -> Take {
        condition.lock()
        defer { condition.unlock() }
        while !(closing || !captureRequests.isEmpty || (count > 0 && (!waitsForFlush || flushWaiters > 0))) {
            let now = ContinuousClock.now
            if count == 0 { lastSeenEmpty = now }
            if held == 0 || waitsForFlush {
                if lastTaken.duration(to: now) >= Self.sleepAfter || waitsForFlush {
                    writerSleeps = true
                    condition.wait()
                    writerSleeps = false
                    // The first `put` while the writer sleeps wakes it: that item came just now.
                    if !waitsForFlush { lastSeenEmpty = .now }
                } else {
                    _ = condition.wait(until: Date().addingTimeInterval(Self.pollInterval.timeInterval))
                }
                continue
            }
            if flushWaiters > 0 || held >= batchSize { break }
            let remaining = now.duration(to: (heldSince ?? now).advanced(by: batchInterval))
            if remaining <= .zero { break }
            // Still looking for new steps every `pollInterval` while the held rows wait for their
            // commit: a step left in the queue until the batch is due would keep the caller's state shared.
            _ = condition.wait(until: Date().addingTimeInterval(min(remaining, Self.pollInterval).timeInterval))
        }
        if abandoned {
            return Take(items: [], enqueuedAt: nil, commitDue: false, isLast: true, trailingDrops: 0, isAbandoned: true)
        }
        // Up to the first capture asked for: the capture comes after them, the rest stays queued.
        var capture: String?
        var taking = count
        if let request = captureRequests.first {
            let before = max(0, min(count, request.position - (accepted - count)))
            if before < count { taking = before }
            capture = request.reason
            captureRequests.removeFirst()
        }
        let items = Array(queue[head..<(head + taking)])
        head += taking
        if head == queue.count {
            queue.removeAll(keepingCapacity: true)
            head = 0
        }
        queuedBytes = count == 0 ? 0 : min(queuedBytes, count.multipliedReportingOverflow(by: stateBytesEstimate).overflow ? .max : count * stateBytesEstimate)
        let now = ContinuousClock.now
        let enqueuedAt = items.isEmpty ? nil : lastSeenEmpty
        if count == 0 { lastSeenEmpty = now }  // Emptied now.
        let isLast = closing && count == 0 && captureRequests.isEmpty
        let trailing = isLast ? pendingDrops : 0
        if isLast { pendingDrops = 0 }
        var commitDue = isLast || flushWaiters > 0 || held + items.count >= batchSize
        if !commitDue, let oldest = heldSince ?? enqueuedAt {
            commitDue = now >= oldest.advanced(by: batchInterval)
        }
        if !items.isEmpty {
            lastTaken = now
            condition.broadcast()  // Room for dispatchers waiting under back-pressure.
        }
        return Take(items: items, enqueuedAt: enqueuedAt, commitDue: commitDue || capture != nil, isLast: isLast, trailingDrops: trailing, isAbandoned: false, capture: capture)
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
    /// The writer calls it when it commits, so a flush returns once what it waited for is on disk.
    func didProcess(items: Int, committed: Int, lost: Int) {
        condition.lock()
        processed += items
        self.committed += committed
        self.lost += lost
        condition.broadcast()
        condition.unlock()
    }

    /// Sets what each item handed over from now on counts for against the byte capacity: the writer
    /// calls it with the encoded size of each new keyframe.
    func estimateStateBytes(_ bytes: Int) {
        condition.lock()
        stateBytesEstimate = max(0, bytes)
        condition.unlock()
    }

    /// Counts an entry the writer committed without it passing through the queue (entry 0, written
    /// when the recorder starts).
    func didCommitDirectly() {
        condition.lock()
        accepted += 1
        processed += 1
        committed += 1
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
