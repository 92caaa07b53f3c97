import ActionLog
import Foundation
import IssueReporting

/// Fails the current test, in XCTest or Swift Testing alike, when today's reducer does not reproduce
/// a golden session: the thin assertion over
/// ``verifyReplay(golden:sessionName:options:record:ifMissing:environment:filePath:reducer:)``.
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
        reportIssue(message, fileID: fileID, filePath: filePath, line: line, column: column)
    }
}

/// ``assertReplay(golden:sessionName:options:record:ifMissing:environment:fileID:filePath:line:column:reducer:)``
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
        reportIssue(message, fileID: fileID, filePath: filePath, line: line, column: column)
    }
}
