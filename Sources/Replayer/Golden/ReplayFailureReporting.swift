import Foundation
import IssueReporting

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reports the message of a golden check that failed to the running test, wherever `assertReplay`
/// was called: see `assertReplay(golden:of:sessionName:options:record:environment:fileID:filePath:line:column:)`.
///
/// On the test's own task, Swift Testing and XCTest find the test, and IssueReporting reports to
/// it. Off it (a detached task, a `Thread`), Swift Testing cannot tell which test runs: its test is
/// a task-local value that neither inherits. IssueReporting then takes the caller for XCTest
/// (whose running test case is found from any thread) and fails no Swift Testing test at all: the
/// test passed silently. So the failure also goes to Swift Testing itself, which records an issue
/// that belongs to no test and fails the run, with the message and a note that says why.
func reportReplayFailure(_ result: GoldenReport, fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) {
    guard let message = result.message else { return }
    // XCTest's running test case, or Swift Testing's on this task, or a runtime warning outside tests.
    reportIssue(message, fileID: fileID, filePath: filePath, line: line, column: column)
    guard isTesting, !(TestContext.current?.isSwiftTesting ?? false) else { return }
    // When no Swift Testing run is in progress (an XCTest test), Swift Testing drops it.
    SwiftTestingIssue.record(message + offTaskNote, fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column))
}

/// What a failure reported off the test's task adds for Swift Testing: why the run fails and not the test.
private let offTaskNote = """


        assertReplay ran outside the test's task (in a detached task or on another thread), where \
        Swift Testing cannot tell which test is running: the test run fails, not the test. Call \
        assertReplay on the test's task (return what a detached task computed and assert there), \
        or in a Task { } created by the test, which inherits it.
        """

/// Swift Testing's `Issue.record`, reached as IssueReporting reaches it: through the function that
/// `IssueReportingTestSupport` (a dependency of every Swift Testing target that uses
/// `assertReplay`) exports, so that this library links neither Testing nor XCTest.
private enum SwiftTestingIssue {
    private typealias Record = @Sendable (String?, Int, String, String, Int, Int) -> Void

    /// `IssueReportingTestSupport._recordIssue() -> Any`, if the test target links it.
    private static let record: Record? = {
        guard let handle = dlopen(nil, RTLD_LAZY), let symbol = dlsym(handle, "$s25IssueReportingTestSupport07_recordA0ypyF") else {
            return nil
        }
        let function = unsafeBitCast(symbol, to: (@convention(thin) () -> Any).self)
        return function() as? Record
    }()

    /// Records an issue of severity error at the given place, in whatever test context this task has.
    static func record(_ message: String, fileID: String, filePath: String, line: Int, column: Int) {
        record?(message, 1, fileID, filePath, line, column)
    }
}
