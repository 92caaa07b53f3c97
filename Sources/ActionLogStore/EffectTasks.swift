/// The effects a store or ViewModel has running, so that `settle()` can wait for all of them.
/// Used by ``Store``, and by the example state-machine ViewModel of this package.
@MainActor
package final class EffectTasks {
    private var running: [Int: Task<Void, Never>] = [:]
    private var nextID = 0

    package init() {}

    /// Runs `work`, then hands its result to `deliver` on the main actor.
    package func run<Result: Sendable>(_ work: @escaping @Sendable () async -> Result, then deliver: @escaping @MainActor (Result) -> Void) {
        let id = nextID
        nextID += 1
        running[id] = Task { [weak self] in
            let result = await work()
            deliver(result)
            self?.running[id] = nil
        }
    }

    /// Waits until no effect is running, including effects started while waiting.
    package func settle() async {
        while let task = running.first?.value {
            await task.value
        }
    }
}
