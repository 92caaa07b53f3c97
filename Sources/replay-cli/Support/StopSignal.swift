import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Told by the handler of SIGINT and SIGTERM while a ``StopSignal`` is installed. Globals, so that
/// the handler (a C function, which captures nothing) can reach them; both are made before the
/// handler is installed, so the handler never runs an initializer.
///
/// The request itself is a byte the handler writes to this pipe, which `poll(2)` then finds waiting
/// from any thread: `write(2)` is async-signal-safe, as the atomic store it replaces was (an atomic
/// needs the Synchronization module, macOS 15; a lock is not safe in a signal handler). Both ends
/// are non-blocking, so that neither a full pipe nor emptying it ever blocks; `nil` if the process
/// could not open a pipe.
private let stopPipe: (read: Int32, write: Int32)? = {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { return nil }
    for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
    return (ends[0], ends[1])
}()
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
    /// Without a pipe (the process is out of descriptors), the signals keep their default action:
    /// they end the process, as they did before there was a ``StopSignal``.
    init() {
        guard let ends = stopPipe else { return }
        // Forget a request an earlier StopSignal left.
        var byte: UInt8 = 0
        while read(ends.read, &byte, 1) > 0 {}
        _ = stopSemaphore
        for number in [SIGINT, SIGTERM] {
            // Only async-signal-safe work: a write to a pipe and a semaphore post.
            _ = signal(number) { _ in
                guard let ends = stopPipe else { return }
                var byte: UInt8 = 1
                _ = write(ends.write, &byte, 1)
                stopSemaphore.signal()
            }
        }
    }

    /// Whether a signal came: a byte waits in the pipe.
    var isRequested: Bool {
        guard let ends = stopPipe else { return false }
        var waiting = pollfd(fd: ends.read, events: Int16(POLLIN), revents: 0)
        return poll(&waiting, 1, 0) > 0
    }

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
