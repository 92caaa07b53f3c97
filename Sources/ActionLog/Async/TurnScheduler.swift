
/// Gives asynchronous handlers their turns, one at a time, in the order the turns were asked for:
/// the run order of a session, which the journal records and replay follows.
///
/// A handler asks for a turn when its action is sent (to start) and when a service it awaits has
/// answered (to go on); it gives its turn back when it awaits a recorded service or returns. While a
/// handler has its turn, no other one starts or goes on, so what happens between two of these points
/// (state changes, output events) is one step, the same in recording and in replay. Asking is O(1)
/// and never blocks; waiting for the turn suspends the task, never a thread.
package final class TurnScheduler: Sendable {
    /// A request for a turn; granted once, with the turn's position in the run order.
    package final class Ticket: Sendable {
        package let token: Int
        /// Whether the turn takes a place in the run order (a start, an answer); the turn in which an
        /// entry's state is read takes none, so that the numbering does not depend on whether a
        /// handler's tasks ended before or after its code returned.
        let takesPlace: Bool
        private enum State { case waiting(CheckedContinuation<Int, Never>?), granted(Int) }
        private let state = Locked<State>(.waiting(nil))

        init(token: Int, takesPlace: Bool) {
            self.token = token
            self.takesPlace = takesPlace
        }

        fileprivate func grant(_ position: Int) {
            let waiter: CheckedContinuation<Int, Never>? = state.withLock { state in
                guard case .waiting(let waiter) = state else { return nil }
                state = .granted(position)
                return waiter
            }
            waiter?.resume(returning: position)
        }

        /// Waits until the turn is granted; returns its position in the run order.
        package func wait() async -> Int {
            await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
                let granted: Int? = state.withLock { state in
                    switch state {
                    case .granted(let position): return position
                    case .waiting: state = .waiting(continuation); return nil
                    }
                }
                if let granted { continuation.resume(returning: granted) }
            }
        }
    }

    private struct State {
        /// The handler whose turn it is.
        var active: Int?
        var queue: [Ticket] = []
        var head = 0
        /// The next position in the run order.
        var nextPosition = 0
        /// The tickets of each handler in ``queue``, for the handlers that have one.
        var waiting: [Int: Int] = [:]
        /// Handlers started and not yet returned, and those waiting for none to be left.
        var inFlight = 0
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
        /// The handlers whose turn was taken from them, each with the position of the first turn
        /// given after it.
        var released: [Int: Int] = [:]
        /// How many times a turn has passed to a handler from the queue: unchanged while one
        /// handler holds the turn, however long.
        var handovers = 0
        /// Whether the watchdog task runs (see ``watch()``).
        var watching = false
    }

    private let state = Locked(State())
    /// Told when the watchdog took the turn from its holder (see ``watch()``): the holder's token,
    /// the token of the handler first in line, and the look that saw the turn not pass.
    private let onRelease: (@Sendable (_ holder: Int, _ waiter: Int, _ waited: Duration) -> Void)?

    /// How long the watchdog looks for the turn to pass, with turns waiting, before it takes it from
    /// its holder: the one decision time makes, and it is journaled (see ``released(_:)``), never
    /// quiet.
    let releaseDelay: Duration

    /// - Parameters:
    ///   - releaseDelay: how long the watchdog looks for the turn to pass (``RecorderConfiguration/turnRelease``).
    ///   - onRelease: told when the watchdog took a holder's turn from it.
    package init(releaseDelay: Duration, onRelease: (@Sendable (_ holder: Int, _ waiter: Int, _ waited: Duration) -> Void)?) {
        self.releaseDelay = releaseDelay
        self.onRelease = onRelease
    }

    /// Asks for a turn for handler `token`, behind every turn asked before. `starts`: the turn
    /// starts a handler (counted until it ``finished(_:)``).
    ///
    /// A handler whose turn it is gets the turn at once, with the next place in the run order: a
    /// handler with calls in flight side by side (`async let`, a task group, a `Task` beside its own
    /// call) holds the turn from its first answer, and an answer of another of its calls must not
    /// wait behind that turn, which only the handler's own next call or return would give back.
    package func ask(for token: Int, starts: Bool = false, takesPlace: Bool = true) -> Ticket {
        let ticket = Ticket(token: token, takesPlace: takesPlace)
        let granted: [(Ticket, Int)] = state.withLock { state in
            if starts { state.inFlight += 1 }
            if !starts, state.active == token {
                return [(ticket, Self.place(for: ticket, &state))]
            }
            state.queue.append(ticket)
            state.waiting[token, default: 0] += 1
            return Self.grantNext(&state)
        }
        for (ticket, position) in granted { ticket.grant(position) }
        if !granted.contains(where: { $0.0 === ticket }) { watch() }
        return ticket
    }

    /// Starts the watchdog, unless it runs: while turns wait, it looks every ``releaseDelay`` whether
    /// the turn has passed since it last looked, and when it has not, takes it from its holder.
    ///
    /// A handler that waits, while it has the turn, for something only another handler's turn would
    /// give (a task of another handler it joins, a continuation another handler resumes) would keep
    /// every other handler waiting for ever, and the app with them. Nothing the program does says
    /// so, so time decides here, once per such holder, and says so: the holder is marked
    /// (``released(_:)``), its entry records where, and replay reports that entry as not
    /// reproducible rather than follow an order a clock chose. A turn that passes, however slowly
    /// (a long queue of handlers on a loaded machine), is never taken: only one held for the whole
    /// of a look, between ``releaseDelay`` and twice it. One task for the scheduler, not one per
    /// waiting turn.
    private func watch() {
        let start: Int? = state.withLock { state in
            guard !state.watching else { return nil }
            state.watching = true
            return state.handovers
        }
        guard var seen = start else { return }
        // Detached: a task started here would otherwise inherit the handler's scope and count as
        // its work, keeping its entry open.
        Task.detached { [self] in
            while true {
                try? await Task.sleep(for: releaseDelay)
                enum Look { case stop, again(Int), released(holder: Int, waiter: Int, granted: [(Ticket, Int)]) }
                let look: Look = state.withLock { state in
                    guard state.head < state.queue.count, let holder = state.active else {
                        state.watching = false
                        return .stop
                    }
                    guard state.handovers == seen else { return .again(state.handovers) }
                    let waiter = state.queue[state.head].token
                    state.active = nil
                    if state.released[holder] == nil { state.released[holder] = state.nextPosition }
                    let granted = Self.grantNext(&state)
                    return .released(holder: holder, waiter: waiter, granted: granted)
                }
                switch look {
                case .stop:
                    return
                case .again(let handovers):
                    seen = handovers
                case .released(let holder, let waiter, let granted):
                    for (ticket, position) in granted { ticket.grant(position) }
                    onRelease?(holder, waiter, releaseDelay)
                    seen = state.withLock { $0.handovers }
                }
            }
        }
    }

    /// Where the turn of handler `token` was taken from it (the position of the first turn given
    /// after), or `nil` when it never was; forgets it, for a handler whose entry is being written.
    package func released(_ token: Int) -> Int? {
        state.withLock { $0.released.removeValue(forKey: token) }
    }

    /// Handler `token` gives its turn back (it awaits a service, or returned); the next turn asked
    /// for is granted. Does nothing when it is not `token`'s turn (a call made by a task the handler
    /// started beside itself).
    package func yield(_ token: Int) {
        let granted: [(Ticket, Int)] = state.withLock { state in
            guard state.active == token else { return [] }
            state.active = nil
            return Self.grantNext(&state)
        }
        for (ticket, position) in granted { ticket.grant(position) }
    }

    /// Handler `token` returned: gives its turn back and counts it done.
    package func finished(_ token: Int) {
        let (granted, idle): ([(Ticket, Int)], [CheckedContinuation<Void, Never>]) = state.withLock { state in
            state.inFlight -= 1
            var granted: [(Ticket, Int)] = []
            if state.active == token {
                state.active = nil
                granted = Self.grantNext(&state)
            }
            var idle: [CheckedContinuation<Void, Never>] = []
            if state.inFlight == 0 { swap(&idle, &state.idleWaiters) }
            return (granted, idle)
        }
        for (ticket, position) in granted { ticket.grant(position) }
        for waiter in idle { waiter.resume() }
    }

    /// Returns once every handler started so far has returned.
    package func settle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle = state.withLock { state in
                if state.inFlight == 0 { return true }
                state.idleWaiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }

    /// The place in the run order of a turn granted now: the next one, when it takes one.
    private static func place(for ticket: Ticket, _ state: inout State) -> Int {
        guard ticket.takesPlace else { return state.nextPosition }
        defer { state.nextPosition += 1 }
        return state.nextPosition
    }

    /// Grants the next turn asked for, when no handler has one; and with it the other turns its
    /// handler has waiting (answers of its calls in flight side by side), as ``ask(for:starts:)``
    /// would grant them if they were asked now: only the handler's own next call or return would
    /// grant them otherwise, and it may be waiting for them.
    private static func grantNext(_ state: inout State) -> [(Ticket, Int)] {
        guard state.active == nil, state.head < state.queue.count else { return [] }
        let first = state.queue[state.head]
        state.head += 1
        state.active = first.token
        state.handovers += 1
        var granted = [(first, place(for: first, &state))]
        state.waiting[first.token, default: 1] -= 1
        if let others = state.waiting.removeValue(forKey: first.token), others > 0 {
            // Rare (a handler with calls side by side): one pass over the queue takes them out.
            var rest: [Ticket] = []
            for ticket in state.queue[state.head...] {
                if ticket.token == first.token {
                    granted.append((ticket, place(for: ticket, &state)))
                } else {
                    rest.append(ticket)
                }
            }
            state.queue = rest
            state.head = 0
        }
        if state.head > 64, state.head * 2 > state.queue.count {
            state.queue.removeFirst(state.head)
            state.head = 0
        }
        return granted
    }
}
