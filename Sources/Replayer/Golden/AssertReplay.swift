import ActionLog
import Foundation
import IssueReporting

/// Today's reducer, as a value, that a golden is replayed through: what
/// `assertReplay(golden:of:sessionName:options:record:environment:fileID:filePath:line:column:)` and
/// `verifyReplay(golden:of:sessionName:options:record:environment:filePath:)` take.
///
/// ```swift
/// assertReplay(golden: "fixtures/checkout.jsonl", of: .reducer(Checkout.reduce))
/// assertReplay(golden: "fixtures/todo.jsonl", of: .reducer(Todo.reduce, ifMissing: .recording(script)))
/// ```
///
/// The asynchronous architectures are ``AsyncReplayedCode``.
public struct ReplayedCode {
    let check: (_ file: GoldenFile, _ sessionName: String?, _ options: ReplayOptions, _ record: RecordMode?, _ environment: [String: String]) -> GoldenReport

    /// A reducer that returns an effect (a Store's, a state machine's): each recorded action is
    /// reduced from the recorded state before it, and the state and the effect are compared.
    ///
    /// ```swift
    /// assertReplay(golden: "fixtures/city-search.jsonl", of: .reducer(CitySearch.reduce))
    /// ```
    ///
    /// - Parameters:
    ///   - reduce: today's reducer.
    ///   - ifMissing: where a missing golden comes from when the record mode allows recording it.
    public static func reducer<State: Codable, Action: Codable, Effect: Encodable>(
        _ reduce: @escaping (inout State, Action) -> Effect?, ifMissing: GoldenSource<State, Action>? = nil
    ) -> ReplayedCode {
        ReplayedCode { file, sessionName, options, record, environment in
            GoldenCheck(file: file, sessionName: sessionName, options: options, record: record, environment: environment, reducer: reduce)
                .run(ifMissing: ifMissing)
        }
    }

    /// A reducer that returns no effect: states only.
    ///
    /// ```swift
    /// assertReplay(golden: "fixtures/checkout-v0.jsonl", of: .reducer(Checkout.transition))
    /// ```
    ///
    /// - Parameters:
    ///   - reduce: today's reducer.
    ///   - ifMissing: where a missing golden comes from when the record mode allows recording it.
    public static func reducer<State: Codable, Action: Codable>(
        _ reduce: @escaping (inout State, Action) -> Void, ifMissing: GoldenSource<State, Action>? = nil
    ) -> ReplayedCode {
        .reducer({ (state: inout State, action: Action) -> Never? in
            reduce(&state, action)
            return nil
        }, ifMissing: ifMissing)
    }
}

/// Today's asynchronous ViewModel, as a value, that a golden is replayed through: an actor
/// ViewModel or an event ViewModel with the recorded services it uses. What the async
/// `assertReplay(golden:of:sessionName:options:record:environment:fileID:filePath:line:column:)` and
/// `verifyReplay(golden:of:sessionName:options:record:environment:filePath:)` take.
///
/// ```swift
/// await assertReplay(golden: "fixtures/product-card.jsonl", of: .viewModel(services: ["ProductService"]) { initial in
///     let state = ProductCardState(initial)
///     let viewModel = ProductCardViewModel(state: state, service: RecordedProductService(live: UnreachableProductService()))
///     return ReplayedViewModel(handle: { await viewModel.handle($0) }, snapshot: { state.card })
/// })
/// ```
///
/// An asynchronous golden comes from a live session (its service answers are the live ones), so a
/// record mode writes one only from `liveSession`, a new live recording of the feature's script;
/// without it, a missing golden or a changed behaviour asks to record the session again. A golden
/// written from `liveSession` is in the deterministic time form (every time 0, no durations), and
/// the message of a re-record lists, entry by entry, which recorded service calls the new session
/// kept, changed or dropped, and the calls it added.
public struct AsyncReplayedCode {
    let check: (_ file: GoldenFile, _ sessionName: String?, _ options: ReplayOptions, _ record: RecordMode?, _ environment: [String: String]) async -> GoldenReport

    /// An actor ViewModel behind a `Reducer` front, recorded with `ViewModelRecorder`: each recorded
    /// action is handled by a fresh ViewModel in the recorded run order, its service calls answered
    /// from the journal, and each state snapshot compared.
    ///
    /// ```swift
    /// await assertReplay(golden: "fixtures/product-card.jsonl", of: .viewModel(services: ["ProductService"]) { initial in
    ///     let state = ProductCardState(initial)
    ///     let viewModel = ProductCardViewModel(state: state, service: RecordedProductService(live: UnreachableProductService()))
    ///     return ReplayedViewModel(handle: { await viewModel.handle($0) }, snapshot: { state.card })
    /// })
    /// ```
    ///
    /// - Parameters:
    ///   - services: the names of the recorded services the ViewModel uses.
    ///   - liveSession: records a new live session of the ViewModel (its script, with live or
    ///     simulated services) and returns it: what a record mode writes as the golden.
    ///   - make: makes the fresh ViewModel, given the recorded initial state.
    public static func viewModel<State: Codable & Sendable, Action: Codable & Sendable>(
        services: [String] = [], liveSession: (@Sendable () async throws -> RecordedSession)? = nil,
        _ make: @escaping @MainActor @Sendable (State) -> ReplayedViewModel<State, Action>
    ) -> AsyncReplayedCode {
        AsyncReplayedCode { file, sessionName, options, record, environment in
            await asyncGoldenCheck(file, sessionName: sessionName, record: record, liveSession: liveSession, environment: environment) { recorded in
                await ViewModelReplay(recording: recorded, services: services, options: options, viewModel: make).run()
            }
        }
    }

    /// An event ViewModel, recorded with `EventViewModelRecorder`: the recorded view events are sent
    /// to a fresh ViewModel and the output events it emits compared with the recorded ones.
    ///
    /// ```swift
    /// await assertReplay(golden: "fixtures/sign-in.jsonl", of: .eventViewModel(services: ["AuthService"]) { emit in
    ///     let viewModel = SignInViewModel(service: RecordedAuthService(live: UnreachableAuthService()))
    ///     viewModel.output.addHandler(emit)
    ///     return { await viewModel.handle(event: $0) }
    /// })
    /// ```
    ///
    /// - Parameters:
    ///   - services: the names of the recorded services the ViewModel uses.
    ///   - liveSession: records a new live session and returns it: what a record mode writes.
    ///   - make: makes the fresh ViewModel, taps its output with `emit`, returns its handler.
    public static func eventViewModel<ViewEvent: Codable & Sendable, ViewModelEvent: Codable & Sendable>(
        services: [String] = [], liveSession: (@Sendable () async throws -> RecordedSession)? = nil,
        _ make: @escaping @MainActor @Sendable (_ emit: @escaping @Sendable (ViewModelEvent) -> Void) -> @Sendable (ViewEvent) async -> Void
    ) -> AsyncReplayedCode {
        AsyncReplayedCode { file, sessionName, options, record, environment in
            await asyncGoldenCheck(file, sessionName: sessionName, record: record, liveSession: liveSession, environment: environment) { recorded in
                await EventViewModelReplay(recording: recorded, services: services, options: options, viewModel: make).run()
            }
        }
    }
}

/// Replays a golden session through today's reducer and says whether behaviour changed: the pure
/// core of `assertReplay(golden:of:sessionName:options:record:environment:fileID:filePath:line:column:)`.
///
/// It never writes a golden unless the record mode says so (see ``RecordMode``).
///
/// ```swift
/// let result = verifyReplay(golden: "fixtures/checkout.jsonl", of: .reducer(Checkout.reduce))
/// #expect(result.passed, "\(result.message ?? "")")
/// ```
///
/// - Parameters:
///   - golden: the golden file: `.jsonl` (text) or `.actionlog` (journal). A relative path is found
///     from the test file's directory upwards; an absolute one is used as is.
///   - code: today's reducer (see ``ReplayedCode``).
///   - sessionName: for a journal golden holding several sessions, the name of the one to replay.
///   - options: fields to ignore, stop at the first divergence or collect all, upcasters.
///   - record: the record mode; `nil` to take it from the environment.
///   - environment: where `ACTIONLOG_RECORD`, `CI` and `ACTIONLOG_FAILURE_REPORTS` are read; the
///     process's by default. When `ACTIONLOG_FAILURE_REPORTS` names a folder, a divergence writes
///     there an HTML report of the recorded and the replayed session (open it in a browser), and the
///     message ends with `Report: /path/to/golden.html`.
///   - filePath: the test file, for finding a relative golden.
/// - Returns: the report; its ``GoldenReport/message`` is the failure to show, if any.
public func verifyReplay(
    golden: String,
    of code: ReplayedCode,
    sessionName: String? = nil,
    options: ReplayOptions = ReplayOptions(),
    record: RecordMode? = nil,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    filePath: StaticString = #filePath
) -> GoldenReport {
    code.check(GoldenFile(path: golden, testFile: "\(filePath)"), sessionName, options, record, environment)
}

/// Replays a golden session through a fresh asynchronous ViewModel and says whether behaviour
/// changed: the pure core of the async
/// `assertReplay(golden:of:sessionName:options:record:environment:fileID:filePath:line:column:)`.
///
/// ```swift
/// let result = await verifyReplay(golden: "fixtures/product.actionlog", of: .viewModel(services: ["ProductService"]) { initial in
///     let state = ProductState(initial)
///     let viewModel = ProductViewModel(state: state, service: RecordedProductService(live: OfflineProductService()))
///     return ReplayedViewModel(handle: { await viewModel.handle($0) }, snapshot: { state.snapshot })
/// })
/// #expect(result.passed, "\(result.message ?? "")")
/// ```
///
/// - Parameters:
///   - golden: the golden (`.actionlog` or `.jsonl`); a relative path is found from the test file's directory upwards.
///   - code: today's ViewModel and its services (see ``AsyncReplayedCode``).
///   - sessionName: for a journal holding several sessions, the name of the one to replay.
///   - options: fields to ignore, upcasters.
///   - record: when to write the golden from the code's `liveSession` (see ``RecordMode``); `nil`
///     reads `ACTIONLOG_RECORD` from `environment`, and defaults to `missing` (`never` under CI).
///   - environment: where `ACTIONLOG_RECORD` and `CI` are read.
///   - filePath: the test file, for finding a relative golden.
/// - Returns: the report; its ``GoldenReport/message`` is the failure to show, if any.
public func verifyReplay(
    golden: String,
    of code: AsyncReplayedCode,
    sessionName: String? = nil,
    options: ReplayOptions = ReplayOptions(),
    record: RecordMode? = nil,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    filePath: StaticString = #filePath
) async -> GoldenReport {
    await code.check(GoldenFile(path: golden, testFile: "\(filePath)"), sessionName, options, record, environment)
}

/// Fails the current test, in XCTest or Swift Testing alike, when today's reducer does not reproduce
/// a golden session: the thin assertion over
/// `verifyReplay(golden:of:sessionName:options:record:environment:filePath:)`.
///
/// ```swift
/// @Test func checkoutGolden() {
///     assertReplay(golden: "fixtures/checkout.jsonl", of: .reducer(Checkout.reduce))
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
/// test cannot match it.
///
/// - Parameters:
///   - golden: the golden file (`.jsonl` or `.actionlog`), relative to the test file's folder or above.
///   - code: today's reducer (see ``ReplayedCode``).
///   - sessionName: for a journal golden holding several sessions, the one to replay.
///   - options: fields to ignore, stop at the first divergence or collect all, upcasters.
///   - record: the record mode; `nil` to take it from `ACTIONLOG_RECORD` and `CI`.
///   - environment: where `ACTIONLOG_RECORD` and `CI` are read.
///   - fileID: the caller's `#fileID`.
///   - filePath: the caller's `#filePath`; also where a relative golden is looked for.
///   - line: the caller's line.
///   - column: the caller's column.
public func assertReplay(
    golden: String,
    of code: ReplayedCode,
    sessionName: String? = nil,
    options: ReplayOptions = ReplayOptions(),
    record: RecordMode? = nil,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) {
    let result = verifyReplay(golden: golden, of: code, sessionName: sessionName, options: options, record: record, environment: environment, filePath: filePath)
    reportReplayFailure(result, fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Fails the current test, in XCTest or Swift Testing alike, when a fresh asynchronous ViewModel
/// does not reproduce a golden session: the thin assertion over the async
/// `verifyReplay(golden:of:sessionName:options:record:environment:filePath:)`. It awaits the replay
/// on the caller's task, and reports from there (see the reducer's form for other tasks and threads).
///
/// ```swift
/// @Test func signInGolden() async {
///     await assertReplay(golden: "fixtures/sign-in.actionlog", of: .eventViewModel(services: ["AuthService"]) { emit in
///         let viewModel = SignInViewModel(service: RecordedAuthService(live: OfflineAuthService()))
///         viewModel.output.addHandler(emit)
///         return { await viewModel.handle(event: $0) }
///     })
/// }
/// ```
///
/// - Parameters:
///   - golden: the golden (`.actionlog` or `.jsonl`); a relative path is found from the test file's directory upwards.
///   - code: today's ViewModel and its services (see ``AsyncReplayedCode``).
///   - sessionName: for a journal holding several sessions, the name of the one to replay.
///   - options: fields to ignore, upcasters.
///   - record: when to write the golden from the code's `liveSession`; `nil` reads `ACTIONLOG_RECORD`.
///   - environment: where `ACTIONLOG_RECORD` and `CI` are read.
///   - fileID: the caller's `#fileID`.
///   - filePath: the caller's `#filePath`; also where a relative golden is looked for.
///   - line: the caller's line.
///   - column: the caller's column.
public func assertReplay(
    golden: String,
    of code: AsyncReplayedCode,
    sessionName: String? = nil,
    options: ReplayOptions = ReplayOptions(),
    record: RecordMode? = nil,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) async {
    let result = await verifyReplay(
        golden: golden, of: code, sessionName: sessionName, options: options, record: record, environment: environment, filePath: filePath)
    reportReplayFailure(result, fileID: fileID, filePath: filePath, line: line, column: column)
}
