import ActionLog
import ActionLogExamples
import Foundation
import Replayer
import Testing

/// A diverging golden fails, wherever `assertReplay` runs: on the test's task (and in a `Task { }`
/// it creates) it fails the test; in a detached task or on a `Thread`, where Swift Testing cannot
/// know the test, it fails the run with the whole message and a note (see `assertReplay`). The
/// XCTest suite pins the same three places under XCTest (`OffTaskGoldenXCTests`).
@Suite("assertReplay from the test's task, a detached task, a thread")
struct OffTaskGoldenTests {
    @Test("on the test's task: the test fails with the whole message")
    func onTheTestsTask() {
        #expect(knownIssues { assertRegressedCheckout() } == [GoldenTests.checkoutRegressionMessage])
    }

    @Test("in a Task { } the test created (it inherits the test): the test fails with the whole message")
    func inAnInheritingTask() async {
        let messages = Locked<[String]>([])
        await withKnownIssue {
            await Task { assertRegressedCheckout() }.value
        } matching: { issue in
            messages.withLock { $0 += issue.comments.map(\.rawValue) }
            return true
        }
        #expect(messages.withLock { $0 } == [GoldenTests.checkoutRegressionMessage])
    }

    #if os(Linux)
    @Test("in a detached task or on a Thread: the run fails with the whole message and the note", arguments: ["detached", "thread"])
    func offTheTestsTask(_ place: String) throws {
        let run = try runProbe(place)
        #expect(run.status != 0, "the run must fail: \(run.output)")
        let expected = (GoldenTests.checkoutRegressionMessage + Self.offTaskNote).split(separator: "\n", omittingEmptySubsequences: false)
        // Swift Testing prints the issue, then its comment: the first line after "↳ ", the next indented by two.
        let printed = run.output.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = printed.firstIndex(of: "↳ " + expected[0]), start > 0 else {
            Issue.record("the message is not in the probe's output: \(run.output)")
            return
        }
        #expect(printed[start - 1].hasPrefix("✘ Test «unknown» recorded an issue at OffTaskGoldenTests.swift:"), "\(run.output)")
        let lines = printed[start..<min(printed.count, start + expected.count)].map { line in
            String(line.dropFirst(2))  // "↳ " or "  "
        }
        #expect(lines.joined(separator: "\n") == expected.joined(separator: "\n"))
    }
    #endif

    /// What a failure reported off the test's task adds (see `reportReplayFailure`).
    static let offTaskNote = """


        assertReplay ran outside the test's task (in a detached task or on another thread), where \
        Swift Testing cannot tell which test is running: the test run fails, not the test. Call \
        assertReplay on the test's task (return what a detached task computed and assert there), \
        or in a Task { } created by the test, which inherits it.
        """
}

/// Run only in a child process by ``OffTaskGoldenTests``: it asserts a diverging golden off the
/// test's task, as `REPLAYER_OFF_TASK_PROBE` says (`detached` or `thread`), so its run fails.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["REPLAYER_OFF_TASK_PROBE"] != nil))
struct OffTaskGoldenProbe {
    @Test func assertOffTheTestsTask() async {
        switch ProcessInfo.processInfo.environment["REPLAYER_OFF_TASK_PROBE"] {
        case "detached":
            await Task.detached { assertRegressedCheckout() }.value
        default:
            let done = DispatchSemaphore(value: 0)
            Thread {
                assertRegressedCheckout()
                done.signal()
            }.start()
            await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    done.wait()
                    continuation.resume()
                }
            }
        }
    }
}

/// The checkout golden against a reducer that loses a dollar at validation.
func assertRegressedCheckout() {
    assertReplay(golden: "fixtures/checkout.jsonl", of: .reducer(regressedCheckout), record: .never)
}

/// The comments of the known issues `body` recorded.
private func knownIssues(_ body: () -> Void) -> [String] {
    let messages = Locked<[String]>([])
    withKnownIssue {
        body()
    } matching: { issue in
        messages.withLock { $0 += issue.comments.map(\.rawValue) }
        return true
    }
    return messages.withLock { $0 }
}

/// Runs this test binary's ``OffTaskGoldenProbe`` in a child process: its exit status, and what it printed.
private func runProbe(_ place: String) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    process.arguments = ["--testing-library", "swift-testing", "--filter", "OffTaskGoldenProbe"]
    var environment = ProcessInfo.processInfo.environment
    environment["REPLAYER_OFF_TASK_PROBE"] = place
    environment["NO_COLOR"] = "1"
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, text)
}
