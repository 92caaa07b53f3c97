import ActionLog
import Foundation
import IssueReporting

/// Replays a golden session of an actor ViewModel into a fresh one and says whether behaviour
/// changed: the pure core of the async `assertReplay(golden:sessionName:services:options:fileID:filePath:line:column:viewModel:)`.
///
/// The golden is a journal (`.actionlog`) recorded with `ViewModelRecorder`, or its text form
/// (`.jsonl`, from `replay-cli export`). An asynchronous golden comes from a live session (its
/// service answers are the live ones), so a record mode writes one only from `liveSession`, a
/// new live recording of the feature's script; without it, a missing golden or a changed
/// behaviour asks to record the session again.
///
/// A golden written from `liveSession` is in the deterministic time form
/// (every time 0, no durations), so recording it
/// again changes only the lines of the entries whose content changed. The message of a re-record
/// (`failed`, `all`) then lists, entry by entry, which of the golden's recorded service calls the
/// new session kept, changed or dropped, and the calls it added:
///
/// ```
/// Re-recorded fixtures/product.jsonl (record mode failed) from a new live session: 4 entries. Review it, commit it, and re-run the test.
///
/// Recorded service calls, entry by entry (1 kept, 1 changed, 0 dropped):
///   entry 2 viewDidLoad: kept call 0 ProductService.fetchProduct("p-7")
///   entry 3 addToBasket: changed call 0 ProductService.addToBasket("p-7", 1) → ProductService.addToBasket("p-7", 2)
/// ```
///
/// ```swift
/// let result = await verifyReplay(golden: "fixtures/product.actionlog", services: ["ProductService"]) { initial in
///     let state = ProductState(initial)
///     let viewModel = ProductViewModel(state: state, service: RecordedProductService(live: OfflineProductService()))
///     return ReplayedViewModel(handle: { await viewModel.handle($0) }, snapshot: { state.snapshot })
/// }
/// #expect(result.passed, "\(result.message ?? "")")
/// ```
///
/// - Parameters:
///   - golden: the golden (`.actionlog` or `.jsonl`); a relative path is found from the test file's directory upwards.
///   - sessionName: for a journal holding several sessions, the name of the one to replay.
///   - services: the names of the recorded services the ViewModel uses.
///   - options: fields to ignore, upcasters.
///   - record: when to write the golden from `liveSession` (see ``RecordMode``); `nil` reads
///     `ACTIONLOG_RECORD` from `environment`, and defaults to `missing` (`never` under CI).
///   - liveSession: records a new live session of the ViewModel (its script, with live or simulated
///     services) and returns it: what a record mode writes as the golden. Without it, nothing is written.
///   - environment: where `ACTIONLOG_RECORD` and `CI` are read.
///   - filePath: the test file, for finding a relative golden.
///   - viewModel: makes the fresh ViewModel, given the recorded initial state.
/// - Returns: the report; its ``GoldenReport/message`` is the failure to show, if any.
public func verifyReplay<State: Codable & Sendable, Action: Codable & Sendable>(
    golden: String,
    sessionName: String? = nil,
    services: [String] = [],
    options: ReplayOptions = ReplayOptions(),
    record: RecordMode? = nil,
    liveSession: (@Sendable () async throws -> RecordedSession)? = nil,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    filePath: StaticString = #filePath,
    viewModel: @escaping @MainActor @Sendable (State) -> ReplayedViewModel<State, Action>
) async -> GoldenReport {
    let file = GoldenFile(path: golden, testFile: "\(filePath)")
    return await asyncGoldenCheck(
        file, sessionName: sessionName, record: record, liveSession: liveSession, environment: environment
    ) { recorded in
        await ViewModelReplay(recording: recorded, services: services, options: options, viewModel: viewModel).run()
    }
}

/// Replays a golden session of an event ViewModel and says whether behaviour changed: the pure core
/// of the async `assertReplay(golden:sessionName:services:options:fileID:filePath:line:column:eventViewModel:)`.
///
/// ```swift
/// let result = await verifyReplay(golden: "fixtures/sign-in.actionlog", services: ["AuthService"]) {
///     (emit: @escaping @Sendable (SignInViewModelEvent) -> Void) in
///     let viewModel = SignInViewModel(service: RecordedAuthService(live: OfflineAuthService()))
///     viewModel.output.addHandler(emit)
///     return { (event: SignInViewEvent) in await viewModel.handle(event: event) }
/// }
/// ```
///
/// - Parameters:
///   - golden: the golden (`.actionlog` or `.jsonl`), recorded with `EventViewModelRecorder`.
///   - sessionName: for a journal holding several sessions, the name of the one to replay.
///   - services: the names of the recorded services the ViewModel uses.
///   - options: fields to ignore, upcasters.
///   - record: when to write the golden from `liveSession`; see the actor ViewModel's form.
///   - liveSession: records a new live session and returns it; without it, nothing is written.
///   - environment: where `ACTIONLOG_RECORD` and `CI` are read.
///   - filePath: the test file, for finding a relative golden.
///   - eventViewModel: makes the fresh ViewModel, taps its output with `emit`, returns its handler.
/// - Returns: the report; its ``GoldenReport/message`` is the failure to show, if any.
public func verifyReplay<ViewEvent: Codable & Sendable, ViewModelEvent: Codable & Sendable>(
    golden: String,
    sessionName: String? = nil,
    services: [String] = [],
    options: ReplayOptions = ReplayOptions(),
    record: RecordMode? = nil,
    liveSession: (@Sendable () async throws -> RecordedSession)? = nil,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    filePath: StaticString = #filePath,
    eventViewModel: @escaping @MainActor @Sendable (_ emit: @escaping @Sendable (ViewModelEvent) -> Void) -> @Sendable (ViewEvent) async -> Void
) async -> GoldenReport {
    let file = GoldenFile(path: golden, testFile: "\(filePath)")
    return await asyncGoldenCheck(
        file, sessionName: sessionName, record: record, liveSession: liveSession, environment: environment
    ) { recorded in
        await EventViewModelReplay(recording: recorded, services: services, options: options, viewModel: eventViewModel).run()
    }
}

/// Fails the current test, in XCTest or Swift Testing alike, when a fresh actor ViewModel does not
/// reproduce a golden session: the thin assertion over the async
/// `verifyReplay(golden:sessionName:services:options:filePath:viewModel:)`. It awaits the
/// replay on the caller's task, and reports from there.
///
/// ```swift
/// @Test func productCardGolden() async {
///     await assertReplay(golden: "fixtures/product.actionlog", services: ["ProductService"]) { initial in
///         let state = ProductState(initial)
///         let viewModel = ProductViewModel(state: state, service: RecordedProductService(live: OfflineProductService()))
///         return ReplayedViewModel(handle: { await viewModel.handle($0) }, snapshot: { state.snapshot })
///     }
/// }
/// ```
///
/// - Parameters:
///   - golden: the golden (`.actionlog` or `.jsonl`); a relative path is found from the test file's directory upwards.
///   - sessionName: for a journal holding several sessions, the name of the one to replay.
///   - services: the names of the recorded services the ViewModel uses.
///   - options: fields to ignore, upcasters.
///   - record: when to write the golden from `liveSession` (see ``RecordMode``); `nil` reads `ACTIONLOG_RECORD`.
///   - liveSession: records a new live session and returns it; without it, nothing is written.
///   - fileID: the caller's `#fileID`.
///   - filePath: the caller's `#filePath`; also where a relative golden is looked for.
///   - line: the caller's line.
///   - column: the caller's column.
///   - viewModel: makes the fresh ViewModel, given the recorded initial state.
public func assertReplay<State: Codable & Sendable, Action: Codable & Sendable>(
    golden: String,
    sessionName: String? = nil,
    services: [String] = [],
    options: ReplayOptions = ReplayOptions(),
    record: RecordMode? = nil,
    liveSession: (@Sendable () async throws -> RecordedSession)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    viewModel: @escaping @MainActor @Sendable (State) -> ReplayedViewModel<State, Action>
) async {
    let result = await verifyReplay(
        golden: golden, sessionName: sessionName, services: services, options: options, record: record, liveSession: liveSession,
        filePath: filePath, viewModel: viewModel)
    if let message = result.message {
        reportReplayFailure(message, fileID: fileID, filePath: filePath, line: line, column: column)
    }
}

/// Fails the current test when a fresh event ViewModel does not emit the golden session's output
/// events: the thin assertion over the async
/// `verifyReplay(golden:sessionName:services:options:filePath:eventViewModel:)`.
///
/// ```swift
/// @Test func signInGolden() async {
///     await assertReplay(golden: "fixtures/sign-in.actionlog", services: ["AuthService"]) {
///         (emit: @escaping @Sendable (SignInViewModelEvent) -> Void) in
///         let viewModel = SignInViewModel(service: RecordedAuthService(live: OfflineAuthService()))
///         viewModel.output.addHandler(emit)
///         return { (event: SignInViewEvent) in await viewModel.handle(event: event) }
///     }
/// }
/// ```
///
/// - Parameters:
///   - golden: the golden (`.actionlog` or `.jsonl`), recorded with `EventViewModelRecorder`.
///   - sessionName: for a journal holding several sessions, the name of the one to replay.
///   - services: the names of the recorded services the ViewModel uses.
///   - options: fields to ignore, upcasters.
///   - record: when to write the golden from `liveSession`; `nil` reads `ACTIONLOG_RECORD`.
///   - liveSession: records a new live session and returns it; without it, nothing is written.
///   - fileID: the caller's `#fileID`.
///   - filePath: the caller's `#filePath`; also where a relative golden is looked for.
///   - line: the caller's line.
///   - column: the caller's column.
///   - eventViewModel: makes the fresh ViewModel, taps its output with `emit`, returns its handler.
public func assertReplay<ViewEvent: Codable & Sendable, ViewModelEvent: Codable & Sendable>(
    golden: String,
    sessionName: String? = nil,
    services: [String] = [],
    options: ReplayOptions = ReplayOptions(),
    record: RecordMode? = nil,
    liveSession: (@Sendable () async throws -> RecordedSession)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    eventViewModel: @escaping @MainActor @Sendable (_ emit: @escaping @Sendable (ViewModelEvent) -> Void) -> @Sendable (ViewEvent) async -> Void
) async {
    let result = await verifyReplay(
        golden: golden, sessionName: sessionName, services: services, options: options, record: record, liveSession: liveSession,
        filePath: filePath, eventViewModel: eventViewModel)
    if let message = result.message {
        reportReplayFailure(message, fileID: fileID, filePath: filePath, line: line, column: column)
    }
}

/// Reads an asynchronous golden and replays it with `replay`; words the outcome. A record mode
/// writes the golden only from `liveSession`: a replay cannot make up the answers of services it
/// never called, so an asynchronous golden is always a live session (or its text form).
private func asyncGoldenCheck(
    _ file: GoldenFile, sessionName: String?, record: RecordMode?, liveSession: (@Sendable () async throws -> RecordedSession)?,
    environment: [String: String], replay: (RecordedSession) async -> ReplayReport
) async -> GoldenReport {
    let mode: RecordMode
    let why: String
    switch RecordMode.resolve(record, environment: environment) {
    case .success(let resolved): (mode, why) = resolved
    case .failure(let error):
        return GoldenReport(golden: file.displayPath, url: file.url, mode: .never, replay: nil, wroteGolden: false, message: error.description)
    }
    func report(_ replay: ReplayReport?, _ message: String?, wrote: Bool = false) -> GoldenReport {
        GoldenReport(golden: file.displayPath, url: file.url, mode: mode, replay: replay, wroteGolden: wrote, message: message)
    }
    /// Writes a new live session as the golden, in the deterministic time form; `nil` when there is
    /// none to write. `previous`: the golden it replaces, whose calls the message compares with the
    /// new ones (or why it could not be read).
    func write(_ replay: ReplayReport?, _ verb: String, replacing previous: Result<RecordedSession, any Error>? = nil) async -> GoldenReport? {
        guard let liveSession else { return nil }
        do {
            let recording = try await liveSession().withZeroTimes()
            try file.write(recording)
            let count = recording.entries.count
            var summary = """
                \(verb) \(file.displayPath) (\(why)) from a new live session: \(count) \(count == 1 ? "entry" : "entries"). \
                Review it, commit it, and re-run the test.
                """
            switch previous {
            case .success(let old)?: summary += "\n\n" + CallChanges(old: old, new: recording).message
            case .failure(let error)?: summary += "\n\nThe golden it replaced could not be read (\(error)), so its recorded service calls are not compared."
            case nil: break
            }
            return report(replay, replay.map { "\($0)\n\n\(summary)" } ?? summary, wrote: true)
        } catch {
            return report(replay, "Cannot record the golden \(file.displayPath) from a new live session: \(error)")
        }
    }
    guard file.exists else {
        guard mode != .never else {
            return report(nil, """
                No golden at \(file.displayPath) (\(why)). Record it on a developer machine (ACTIONLOG_RECORD=missing), \
                review it and commit it.
                """)
        }
        if let written = await write(nil, "Recorded a new golden at") { return written }
        return report(nil, """
            No golden at \(file.displayPath). An asynchronous golden comes from a live session: record one with \
            ViewModelRecorder or EventViewModelRecorder and keep its journal there, or pass liveSession: to record one.
            """)
    }
    let read = Result<RecordedSession, any Error> { try file.read(sessionName: sessionName) }
    if mode == .all, let written = await write(nil, "Re-recorded", replacing: read) { return written }
    let recorded: RecordedSession
    do {
        recorded = try read.get()
    } catch {
        return report(nil, "Cannot check the golden \(file.displayPath): \(error)")
    }
    let result = await replay(recorded)
    if result.isMatch { return report(result, nil) }
    if mode == .failed, let written = await write(result, "Re-recorded", replacing: .success(recorded)) { return written }
    let fix = goldenFix(for: result, ifIntended: liveSession == nil
        ? "If the new behaviour is intended, record the session again and replace the golden."
        : "If the new behaviour is intended, re-record with ACTIONLOG_RECORD=failed.")
    var message = "\(result)\n\n\(fix)"
    if let line = FailureReport.write(recorded: recorded, replayed: nil, replay: result, golden: file, environment: environment) {
        message += "\n\(line)"
    }
    return report(result, message)
}
