import ActionLog
import Foundation
import Replayer

// A state that grows, dispatched back to back under the default back-pressure (`.wait(50 ms)`):
// the writer falls behind for the whole run, so steps are dropped and each gap is followed by a
// keyframe. What the run costs — recording, the file, the drop reports, the replay — shows whether
// the writer catches up between gaps or spirals (each keyframe slower than the wait it causes).

struct OverloadResult {
    var name: String
    var dispatches: Int
    var record: Double
    var slowestCall: Double
    var dropped: Int
    var gaps: Int
    var keyframes: Int
    var reports: Int
    var fileBytes: Int
    var replay: Double
    var matched: Bool
}

/// Records `dispatches` actions of a ledger back to back with the default configuration, then
/// replays the session.
func measureOverload<State: Codable & Equatable & Sendable>(
    name: String, initial: State, reduce: @escaping (inout State, LedgerAction) -> Void, dispatches: Int, directory: String
) throws -> OverloadResult {
    let path = "\(directory)/overload-\(name.filter { $0.isLetter || $0.isNumber }).actionlog"
    defer {
        if ProcessInfo.processInfo.environment["ACTIONLOG_BENCH_KEEP"] == nil { removeDatabase(path) } else { print("kept: \(path)") }
    }
    let reports = ReportCount()
    var configuration = RecorderConfiguration()
    configuration.onError = { _ in reports.count.withLock { $0 += 1 } }
    var state = initial
    let recorder = try Recorder<State, LedgerAction, Never>(path: path, sessionName: name, initialState: state, configuration: configuration)
    let actions = Ledger.actions(dispatches)
    var slowest = 0.0
    let start = clock.now
    for action in actions {
        let callStart = clock.now
        reduce(&state, action)
        recorder.record(action: action, state: state)
        slowest = max(slowest, callStart.duration(to: clock.now).seconds)
    }
    recorder.close()
    let record = start.duration(to: clock.now).seconds
    let dropped = recorder.statistics.dropped + recorder.statistics.lost
    let journal = try Journal(path: path)
    var gaps = 0
    var keyframes = 0
    var cursor = try journal.timelineCursor(in: recorder.sessionID)
    while let entry = try cursor.next() {
        switch entry.kind {
        case .gap: gaps += 1
        case .keyframe: keyframes += 1
        case .delta: break
        }
    }
    let fileBytes = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    let replayStart = clock.now
    let report = try Replay<State, LedgerAction, Never>(journal: journal, session: recorder.sessionID, reducer: { reduce(&$0, $1); return nil }).run()
    return OverloadResult(
        name: name, dispatches: dispatches, record: record, slowestCall: slowest, dropped: dropped, gaps: gaps, keyframes: keyframes,
        reports: reports.count.withLock { $0 }, fileBytes: fileBytes, replay: replayStart.duration(to: clock.now).seconds, matched: report.isMatch)
}

/// The second part of the `--backpressure` report: the ledger (its history in a `ChunkedArray`, then
/// in a plain array) dispatched back to back.
func overloadReport(quick: Bool, directory: String, progress: (String) -> Void) throws -> String {
    let dispatches = quick ? 5_000 : 50_000
    var table = Table(
        ["state", "dispatches", "record s", "slowest call ms", "dropped", "gaps", "keyframes", "drop reports", "file MB", "replay s", "matched"],
        leftAligned: [0])
    let cases: [(String, (String) throws -> OverloadResult)] = [
        ("ledger, chunked", { try measureOverload(name: $0, initial: ChunkedLedger(), reduce: ChunkedLedger.reduce, dispatches: dispatches, directory: directory) }),
        ("ledger, plain array", { try measureOverload(name: $0, initial: Ledger(), reduce: Ledger.reduce, dispatches: dispatches, directory: directory) }),
    ]
    for (name, measure) in cases {
        progress("overload: \(name)")
        let result = try measure(name)
        table.add([
            result.name, grouped(result.dispatches), fixed(result.record, decimals: 2), fixed(result.slowestCall * 1e3, decimals: 1),
            grouped(result.dropped), grouped(result.gaps), grouped(result.keyframes), grouped(result.reports),
            fixed(Double(result.fileBytes) / 1e6, decimals: 1), fixed(result.replay, decimals: 2), result.matched ? "yes" : "NO",
        ])
    }
    return [
        table.render(),
        "A ledger whose history gains a line per action, dispatched back to back (reduce + record, no pause) with the default",
        "configuration (.wait(50 ms)), then replayed. record s: first dispatch to close(). gaps: runs of dropped steps, each",
        "followed by a keyframe built from the writer's own JSON. drop reports: calls of onError (one per overload, told",
        "again once the writer has kept up for a second). plain array: each dispatch copies the history the queue still",
        "holds (copy-on-write), which a ChunkedArray avoids.",
    ].joined(separator: "\n")
}

/// How many times the recorder's error handler (called on the writer's thread) ran.
private final class ReportCount: Sendable {
    let count = Locked(0)
}
