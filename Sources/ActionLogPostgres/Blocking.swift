import ActionLog
import Foundation

/// Runs `body` to its end and returns what it returned: for a synchronous command (replay-cli's)
/// that calls the store. The calling thread waits; `body` runs on the concurrency pool and the
/// connection on its own event loop, so nothing waits on the caller.
package func waitingFor<T: Sendable>(_ body: @escaping @Sendable () async throws(ActionLogError) -> T) throws(ActionLogError) -> T {
    let outcome = WaitedOutcome<T>()
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        let result: Result<T, ActionLogError>
        do throws(ActionLogError) {
            result = .success(try await body())
        } catch {
            result = .failure(error)
        }
        outcome.lock.withLock { outcome.result = result }
        done.signal()
    }
    done.wait()
    return try outcome.lock.withLock { outcome.result ?? .failure(ActionLogError(.fileSystem, reason: "the task ended without a result")) }.get()
}

/// What ``waitingFor(_:)`` waited for, handed from the task to the waiting thread under a lock.
private final class WaitedOutcome<T>: @unchecked Sendable {
    let lock = NSLock()
    var result: Result<T, ActionLogError>?
}
