import ActionLog
import Foundation
import IssueReporting

/// Reads an asynchronous golden and replays it with `replay`; words the outcome. A record mode
/// writes the golden only from `liveSession`: a replay cannot make up the answers of services it
/// never called, so an asynchronous golden is always a live session (or its text form).
func asyncGoldenCheck(
    _ file: GoldenFile, sessionName: String?, record: RecordMode?, liveSession: (@Sendable () async throws -> RecordedSession)?,
    environment: [String: String], replay: (RecordedSession) async -> ReplayReport
) async -> GoldenReport {
    let mode: RecordMode
    let why: String
    switch RecordMode.resolve(record, environment: environment) {
    case .success(let resolved): (mode, why) = resolved
    case .failure(let error): return GoldenReport(file, .never, message: error.description)
    }
    func report(_ replay: ReplayReport?, _ message: String?, wrote: Bool = false) -> GoldenReport {
        GoldenReport(file, mode, replay: replay, wrote: wrote, message: message)
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
        guard mode != .never else { return report(nil, file.notRecorded(why: why)) }
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
    let viewerReport = FailureReport.write(recorded: recorded, replayed: nil, replay: result, golden: file, environment: environment)
    return report(result, goldenFailure(result, fix: fix, viewerReport: viewerReport))
}
