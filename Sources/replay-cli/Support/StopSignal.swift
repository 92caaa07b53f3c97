import Foundation
import Synchronization
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Ctrl-C (`SIGINT`) and `SIGTERM`, turned from signals that end the process into a request to stop
/// that a loop checks between two waits: `log --follow` ends cleanly, its output flushed, with exit
/// status 0. The signals keep their default action outside the loop's life.
final class StopSignal {
    /// What the handlers and the waiting loop share.
    private final class State: Sendable {
        let semaphore = DispatchSemaphore(value: 0)
        let stopped = Mutex(false)
    }

    private let state = State()
    private let sources: [any DispatchSourceSignal]

    init() {
        let state = state
        sources = [SIGINT, SIGTERM].map { number in
            // The default action is set aside so that the source, not the signal, handles it.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                state.stopped.withLock { $0 = true }
                state.semaphore.signal()
            }
            source.resume()
            return source
        }
    }

    /// Waits up to `interval`, or until a signal came; returns whether one came.
    func wait(_ interval: DispatchTimeInterval) -> Bool {
        if state.stopped.withLock({ $0 }) { return true }
        _ = state.semaphore.wait(timeout: .now() + interval)
        return state.stopped.withLock { $0 }
    }

    deinit {
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
