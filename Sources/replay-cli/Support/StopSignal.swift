import Foundation
import Synchronization
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Set by the handler of SIGINT and SIGTERM while a ``StopSignal`` is installed. Globals, so that
/// the handler (a C function, which captures nothing) can reach them; both are made before the
/// handler is installed, so the handler never runs an initializer.
private let stopRequested = Atomic<Bool>(false)
private let stopSemaphore = DispatchSemaphore(value: 0)

/// Ctrl-C (`SIGINT`) and `SIGTERM`, turned from signals that end the process into a request to stop
/// that a loop checks between two waits: `log --follow` and `serve` end cleanly, their output
/// flushed, with exit status 0. The signals keep their default action outside its life; create one
/// at a time.
///
/// The handler is installed with `signal(3)` before `init` returns, so a signal that comes at any
/// moment after it is a request to stop. (A dispatch signal source needs the signal ignored first and
/// registers later, on its queue: a signal in between was discarded, and the process went on.)
final class StopSignal: Sendable {
    init() {
        stopRequested.store(false, ordering: .sequentiallyConsistent)
        _ = stopSemaphore
        for number in [SIGINT, SIGTERM] {
            // Only async-signal-safe work: an atomic store and a semaphore post.
            _ = signal(number) { _ in
                stopRequested.store(true, ordering: .sequentiallyConsistent)
                stopSemaphore.signal()
            }
        }
    }

    /// Whether a signal came.
    var isRequested: Bool { stopRequested.load(ordering: .sequentiallyConsistent) }

    /// Waits up to `interval`, or until a signal came; returns whether one came.
    func wait(_ interval: DispatchTimeInterval) -> Bool {
        if isRequested { return true }
        _ = stopSemaphore.wait(timeout: .now() + interval)
        return isRequested
    }

    /// Returns when a signal came, without holding a thread of Swift's concurrency pool meanwhile.
    func requested() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let thread = Thread { [self] in
                while !isRequested { stopSemaphore.wait() }
                continuation.resume()
            }
            thread.start()
        }
    }

    deinit {
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
