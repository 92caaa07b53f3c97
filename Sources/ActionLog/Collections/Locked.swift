import Foundation

/// A value that one thread at a time reads or changes, under a lock: what the package's targets use
/// where `Mutex` or `Atomic` would do.
///
/// `Mutex` and `Atomic` (the Synchronization module) need iOS 18, macOS 15, tvOS 18, watchOS 11 and
/// visionOS 2; Foundation's `NSLock` is on every platform the package supports (iOS 16, macOS 13 and
/// Linux alike). `Recorder.record` takes none of these locks (it takes the hand-off's `NSCondition`);
/// the async recorders and the replay take a few per action, uncontended, beside a task and a turn.
///
/// `@unchecked Sendable` because the lock, not the compiler, keeps the value to one thread at a time:
/// it is only reached inside ``withLock(_:)``, and, as with `Mutex`, it comes in and goes out as
/// `sending`, so a value that is not `Sendable` is never shared through it.
///
/// ```swift
/// let count = Locked(0)
/// count.withLock { $0 += 1 }
/// ```
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: sending Value) {
        self.value = value
    }

    /// Runs `body` with the value, which it may change, while no other thread can reach it.
    /// Not reentrant: `body` must not call `withLock` on the same lock.
    package func withLock<Result>(_ body: (inout sending Value) throws -> sending Result) rethrows -> sending Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
