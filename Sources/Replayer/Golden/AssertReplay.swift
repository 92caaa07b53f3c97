import ActionLog
import Foundation
import IssueReporting

/// Fails the current test, in XCTest or Swift Testing alike, when today's reducer does not reproduce
/// a golden session: the thin assertion over
/// `verifyReplay(golden:sessionName:options:record:ifMissing:environment:filePath:reducer:)`.
///
/// ```swift
/// @Test func checkoutGolden() {
///     assertReplay(golden: "fixtures/checkout.jsonl", reducer: Checkout.reduce)
/// }
/// ```
///
/// A divergence reads:
///
///     Replay diverged at entry 5 of session "checkout" of checkout.jsonl (pay(cents: 6100)).
///
///       State:
///         …
///
///     (Recorded: −, Replayed: +)
///
///     If the new behaviour is intended, re-record with ACTIONLOG_RECORD=failed.
///
/// A Swift Testing target must depend on `IssueReportingTestSupport` (xctest-dynamic-overlay), or
/// the issue is not recorded and the test passes.
///
/// Called from the test's task, or from a `Task { }` it creates (which inherits the test), the
/// failure fails that test, in XCTest and Swift Testing alike. Called from a `Task.detached` or
/// another thread: XCTest still fails the running test (it finds it from any thread); Swift Testing
/// finds its test only through task-local values, which neither inherits, so no test can be told
/// apart from the others running beside it. There the failure is recorded as an issue that belongs
/// to no test (Swift Testing prints it as `Test «unknown» recorded an issue`), which fails the whole
/// run, with the message and a note that says to assert on the test's task; `withKnownIssue` in the
/// test cannot match it. (Before, such a failure reached neither framework: the test passed.)
///
/// ```swift
/// let report = await Task.detached { verifyReplay(golden: "fixtures/checkout.jsonl", reducer: Checkout.reduce) }.value
/// #expect(report.message == nil)   // on the test's task: fails this test
/// ```
///
/// - Parameters:
///   - golden: the golden file (`.jsonl` or `.actionlog`), relative to the test file's folder or above.
///   - sessionName: for a journal golden holding several sessions, the one to replay.
///   - options: fields to ignore, stop at the first divergence or collect all, upcasters.
///   - record: the record mode; `nil` to take it from `ACTIONLOG_RECORD` and `CI`.
///   - ifMissing: where a missing golden comes from when the record mode allows recording it.
///   - environment: where `ACTIONLOG_RECORD` and `CI` are read.
///   - fileID: the caller's `#fileID`.
///   - filePath: the caller's `#filePath`; also where a relative golden is looked for.
///   - line: the caller's line.
///   - column: the caller's column.
///   - reducer: today's reducer.
public func assertReplay<State: Codable, Action: Codable, Effect: Encodable>(
    golden: String,
    sessionName: String? = nil,
    options: ReplayOptions = ReplayOptions(),
    record: RecordMode? = nil,
    ifMissing: GoldenSource<State, Action>? = nil,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    reducer: @escaping (inout State, Action) -> Effect?
) {
    let result = verifyReplay(
        golden: golden, sessionName: sessionName, options: options, record: record, ifMissing: ifMissing,
        environment: environment, filePath: filePath, reducer: reducer)
    if let message = result.message {
        reportReplayFailure(message, fileID: fileID, filePath: filePath, line: line, column: column)
    }
}

/// `assertReplay(golden:sessionName:options:record:ifMissing:environment:fileID:filePath:line:column:reducer:)`
/// for a reducer that returns no effect.
///
/// ```swift
/// assertReplay(golden: "fixtures/checkout-v0.jsonl", reducer: Checkout.transition)   // states only
/// ```
public func assertReplay<State: Codable, Action: Codable>(
    golden: String,
    sessionName: String? = nil,
    options: ReplayOptions = ReplayOptions(),
    record: RecordMode? = nil,
    ifMissing: GoldenSource<State, Action>? = nil,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    reducer: @escaping (inout State, Action) -> Void
) {
    let result = verifyReplay(
        golden: golden, sessionName: sessionName, options: options, record: record, ifMissing: ifMissing,
        environment: environment, filePath: filePath, reducer: reducer)
    if let message = result.message {
        reportReplayFailure(message, fileID: fileID, filePath: filePath, line: line, column: column)
    }
}
