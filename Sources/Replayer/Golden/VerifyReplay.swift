import ActionLog
import Foundation

/// What a golden check found and did: the replay report, whether the golden was written, and the
/// failure message (`nil` when the test passes).
///
/// ```swift
/// let result = verifyReplay(golden: "fixtures/checkout.jsonl", of: .reducer(Checkout.reduce))
/// if let message = result.message { print(message) }
/// ```
public struct GoldenReport: Sendable {
    /// The golden as the test named it, e.g. `fixtures/checkout.jsonl`.
    let golden: String
    /// Where the golden is on disk.
    let url: URL
    /// The record mode that applied.
    let mode: RecordMode
    /// The replay of the golden, when one ran.
    public let replay: ReplayReport?
    /// Whether the golden file was written (recorded or re-recorded).
    package let wroteGolden: Bool
    /// Why the test fails, `nil` when it passes. Writing a golden is a failure too: the message says
    /// what was written and asks to re-run.
    public let message: String?

    /// Whether the test passes.
    public var passed: Bool { message == nil }

    /// The report of a check of `file` in record mode `mode`.
    init(_ file: GoldenFile, _ mode: RecordMode, replay: ReplayReport? = nil, wrote: Bool = false, message: String? = nil) {
        golden = file.displayPath
        url = file.url
        self.mode = mode
        self.replay = replay
        wroteGolden = wrote
        self.message = message
    }
}

/// One golden check: decides, from the record mode and what is on disk, whether to replay, record or
/// re-record, and words the outcome.
struct GoldenCheck<State: Codable, Action: Codable, Effect: Encodable> {
    let file: GoldenFile
    let sessionName: String?
    let options: ReplayOptions
    let record: RecordMode?
    let environment: [String: String]
    let reducer: (inout State, Action) -> Effect?

    func run(ifMissing: GoldenSource<State, Action>?) -> GoldenReport {
        let mode: RecordMode
        let why: String
        switch RecordMode.resolve(record, environment: environment) {
        case .success(let resolved): (mode, why) = resolved
        case .failure(let error): return GoldenReport(file, .never, message: error.description)
        }
        do {
            guard file.exists else { return try recordMissing(mode: mode, why: why, source: ifMissing) }
            let recorded = try file.read(sessionName: sessionName)
            if mode == .all {
                return try rerecord(recorded, mode: mode, why: why, replay: nil)
            }
            let replay = try Replay(recording: recorded, options: options, reducer: reducer).run()
            if replay.isMatch { return GoldenReport(file, mode, replay: replay) }
            if mode == .failed, replay.failure == nil || replay.failure?.code == .encodingFailed {
                return try rerecord(recorded, mode: mode, why: why, replay: replay)
            }
            let fix = goldenFix(for: replay, ifIntended: "If the new behaviour is intended, re-record with ACTIONLOG_RECORD=failed.")
            let viewerReport = FailureReport.write(
                recorded: recorded, replay: replay, golden: file, options: options, environment: environment, reducer: reducer)
            return GoldenReport(file, mode, replay: replay, message: goldenFailure(replay, fix: fix, viewerReport: viewerReport))
        } catch {
            return GoldenReport(file, mode, message: "Cannot check the golden \(file.displayPath): \(error)")
        }
    }

    private func recordMissing(mode: RecordMode, why: String, source: GoldenSource<State, Action>?) throws -> GoldenReport {
        let path = file.displayPath
        guard mode != .never else { return GoldenReport(file, mode, message: file.notRecorded(why: why)) }
        guard let source else {
            return GoldenReport(file, mode, message: """
                No golden at \(path). Export a recorded session into it \
                (replay-cli export app.actionlog --session NAME --format jsonl --output \(path)), \
                or pass ifMissing: to record one.
                """)
        }
        let recording: RecordedSession
        switch source {
        case .actions(let initial, let actions):
            let name = file.url.deletingPathExtension().lastPathComponent
            recording = try Rerecording.record(name: name, file: file.url.lastPathComponent, from: initial, actions: actions, reducer: reducer)
        case .recorded(let make):
            recording = try make().withZeroTimes()
        }
        try file.write(recording)
        let count = recording.entries.count
        return GoldenReport(file, mode, wrote: true, message: """
            Recorded a new golden at \(path) (\(why)): \(count) \(count == 1 ? "entry" : "entries"). \
            Review it, commit it, and re-run the test.
            """)
    }

    private func rerecord(_ recorded: RecordedSession, mode: RecordMode, why: String, replay: ReplayReport?) throws -> GoldenReport {
        let result = try Rerecording.rerecord(recorded, upcasters: options.upcasters, reducer: reducer)
        try file.write(result.recording)
        var changes: [String] = []
        if !result.rewroteStates.isEmpty { changes.append("the states of \(describeEntries(result.rewroteStates))") }
        if !result.rewroteEffects.isEmpty { changes.append("the effects of \(describeEntries(result.rewroteEffects))") }
        let rewritten = changes.isEmpty ? "nothing else changed" : "rewrote " + changes.joined(separator: " and ")
        let actions = result.actions == 1 ? "its 1 action" : "its \(result.actions) actions"
        let summary = """
            Re-recorded \(file.displayPath) (\(why)): kept \(actions); \(rewritten). \
            Review the change, then re-run the test.
            """
        return GoldenReport(file, mode, replay: replay, wrote: true, message: replay.map { "\($0)\n\n\(summary)" } ?? summary)
    }
}

extension GoldenFile {
    /// Why a missing golden was not recorded: `why` the record mode is `never`.
    func notRecorded(why: String) -> String {
        """
        No golden at \(displayPath) (\(why)). Record it on a developer machine (ACTIONLOG_RECORD=missing), \
        review it and commit it.
        """
    }
}

/// The message of a golden whose replay failed: the report, the line that says how to fix it, and
/// where the viewer report was written, if one was asked for.
func goldenFailure(_ replay: ReplayReport, fix: String, viewerReport: String?) -> String {
    "\(replay)\n\n\(fix)" + (viewerReport.map { "\n\($0)" } ?? "")
}

/// The line of a golden's failure that says how to fix what the replay found: `ifIntended` for a
/// changed behaviour (a divergence), else what the kind of failure asks for.
func goldenFix(for replay: ReplayReport, ifIntended: String) -> String {
    switch replay.failure?.code {
    case nil, .encodingFailed?:
        return ifIntended
    case .actionDoesNotDecode?, .upcastFailed?:
        let label = (replay.failure?.label ?? "?").displayEscaped
        return """
            If the action type changed on purpose, add an upcaster for "\(label)" to ReplayOptions.upcasters, \
            then move the golden forward once with migrate(golden:upcasters:as:).
            """
    case .stateDoesNotDecode?:
        return "If the state type changed on purpose, record the golden again from a new session."
    case .noInitialState?, .newerSession?, .damagedHandlerRecords?, .unknownRecordMode?, .missingGolden?, .sessionNotFound?,
        .writeFailed?, .notMigratable?:
        return "Replace the golden with a session this version of ActionLog can replay."
    case .notReproducible?:
        return """
            Make the handler await what it waits for through a recorded service or a RecordedClock, or not wait in its \
            turn for another handler's work; then record the golden again.
            """
    case .wrongArchitecture?:
        return "Replay the golden with the kind of replay and the services it was recorded with, or record it again."
    case .serviceResultDoesNotDecode?:
        return "If the service's result type changed on purpose, record the golden again from a new session."
    }
}

/// `entry 5`, `entries 5, 6, 7`; long lists are cut.
func describeEntries(_ seqs: [Int]) -> String {
    guard seqs.count > 1 else { return "entry \(seqs.first ?? 0)" }
    let shown = seqs.prefix(10).map(String.init).joined(separator: ", ")
    return "entries \(shown)" + (seqs.count > 10 ? ", … (\(seqs.count) in all)" : "")
}
