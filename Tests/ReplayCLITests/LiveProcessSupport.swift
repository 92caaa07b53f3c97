import ActionLog
import Foundation
import Testing

/// A `replay-cli` child that runs while the test goes on: its output is collected as it comes, and
/// the test waits for what it expects to appear.
final class LiveCLI: Sendable {
    private let process: Process
    private let output = Locked(Data())
    private let errors = Locked(Data())
    private let outputDone = DispatchSemaphore(value: 0)
    private let errorsDone = DispatchSemaphore(value: 0)

    /// Starts `replay-cli arguments` in `directory`, its standard output and error piped.
    init(_ arguments: [String], in directory: URL, environment extra: [String: String] = [:]) throws {
        let process = Process()
        process.executableURL = try replayCLIBinary()
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment["COLUMNS"] = nil
        environment.merge(extra) { $1 }
        process.environment = environment
        let outputPipe = Pipe()
        let errorPipe = Pipe()
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        process.standardInput = FileHandle.nullDevice
        self.process = process
        try process.run()
        try? outputPipe.fileHandleForWriting.close()
        try? errorPipe.fileHandleForWriting.close()
        drain(outputPipe.fileHandleForReading, isErrors: false)
        drain(errorPipe.fileHandleForReading, isErrors: true)
    }

    /// Reads `handle` on a thread of its own until its end, appending what comes as it comes.
    private func drain(_ handle: FileHandle, isErrors: Bool) {
        Thread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                if isErrors {
                    errors.withLock { $0.append(chunk) }
                } else {
                    output.withLock { $0.append(chunk) }
                }
            }
            (isErrors ? errorsDone : outputDone).signal()
        }.start()
    }

    /// What the child printed on standard output so far.
    var stdout: String { String(decoding: output.withLock { $0 }, as: UTF8.self) }

    /// Waits until `condition` holds for the output so far, or `deadline` passes (a safety net for a
    /// broken build, not a timing assertion: the deadline is far beyond any expected delay).
    /// Returns whether the condition held.
    @discardableResult
    func waitFor(_ deadline: Duration = .seconds(60), _ condition: (String) -> Bool) -> Bool {
        let end = ContinuousClock.now + deadline
        while ContinuousClock.now < end {
            if condition(stdout) { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return condition(stdout)
    }

    /// Sends `signal` to the child.
    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits for the child to end (killing it after `deadline`, so a broken build fails instead of
    /// hanging) and returns its status and everything it printed.
    func finish(within deadline: Duration = .seconds(60)) -> (status: Int32, stdout: String, stderr: String, killed: Bool) {
        let end = ContinuousClock.now + deadline
        var killed = false
        while process.isRunning {
            if ContinuousClock.now >= end {
                process.terminate()
                kill(process.processIdentifier, SIGKILL)
                killed = true
                break
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        process.waitUntilExit()
        outputDone.wait()
        errorsDone.wait()
        return (process.terminationStatus, stdout, String(decoding: errors.withLock { $0 }, as: UTF8.self), killed)
    }
}
