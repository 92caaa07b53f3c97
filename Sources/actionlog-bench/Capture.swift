import ActionLog
import Foundation

// Capture mode (RecorderConfiguration.capture) beside recording to disk and beside no recording, in
// the same run, per workload: what each adds to the dispatching thread at a UI's pace, and what
// capture mode holds in memory once its window has filled.

struct CaptureResult {
    var name: String
    var reduceMicros: Double
    var diskAddedMicros: Double
    var captureAddedMicros: Double
    /// Back to back, `actions` of them: the most bytes the window held, and the growth of the
    /// process's resident memory from before the recorder started to the end of the loop.
    var actions: Int
    var peakHeldBytes: Int
    var captureRSSGrowth: Int?
    var diskRSSGrowth: Int?
    var noneRSSGrowth: Int?
}

private func measureCapture<State, Action>(
    _ workload: Workload<State, Action>, window: CaptureWindow, dispatches: Int, interval: Duration, memoryActions: Int, runs: Int, directory: String
) throws -> CaptureResult {
    let paced = workload.actions(dispatches)
    let backToBack = workload.actions(memoryActions)
    let slug = workload.name.filter { $0.isLetter || $0.isNumber }
    var reduce: [Double] = [], disk: [Double] = [], capture: [Double] = []
    var peaks: [Double] = [], captureRSS: [Double] = [], diskRSS: [Double] = [], noneRSS: [Double] = []
    func recorder(_ path: String, capturing: Bool) throws -> Recorder<State, Action, Never> {
        var configuration = RecorderConfiguration()
        configuration.queueCapacity = max(memoryActions, dispatches) + 1
        configuration.queueByteCapacity = .max
        configuration.backpressure = .wait(timeout: .seconds(60))
        if capturing { configuration.capture = window }
        let recorder = try Recorder<State, Action, Never>(path: path, sessionName: workload.name, initialState: workload.initial, configuration: configuration)
        recorder.flush()
        return recorder
    }
    /// Back to back through `recorder` (none: reduce alone), then flushed: the RSS growth.
    func memoryRun(_ recorder: Recorder<State, Action, Never>?, since before: Int) -> Double? {
        var state = workload.initial
        for action in backToBack {
            workload.reduce(&state, action)
            recorder?.record(action: action, state: state)
        }
        recorder?.flush()
        let after = residentBytes()
        blackHole(state)
        guard before > 0, after > 0 else { return nil }  // No /proc here.
        return Double(after - before)
    }
    for run in 0..<runs {
        let baseline = pacedLoop(workload, actions: paced, interval: interval, recorder: nil).times
        let diskPath = "\(directory)/capture-disk-\(slug)-\(run).actionlog"
        let toDisk = try recorder(diskPath, capturing: false)
        let diskTimes = pacedLoop(workload, actions: paced, interval: interval, recorder: toDisk).times
        toDisk.close()
        removeDatabase(diskPath)
        let capturePath = "\(directory)/capture-\(slug)-\(run).actionlog"
        let captured = try recorder(capturePath, capturing: true)
        let captureTimes = pacedLoop(workload, actions: paced, interval: interval, recorder: captured).times
        captured.close()
        removeDatabase(capturePath)
        reduce.append(mean(baseline))
        disk.append(mean(diskTimes) - mean(baseline))
        capture.append(mean(captureTimes) - mean(baseline))

        // Memory: the window filled back to back, beside the same loop to disk and unrecorded.
        if let growth = memoryRun(nil, since: residentBytes()) { noneRSS.append(growth) }
        let diskBefore = residentBytes()
        let memoryDisk = try recorder(diskPath, capturing: false)
        if let growth = memoryRun(memoryDisk, since: diskBefore) { diskRSS.append(growth) }
        memoryDisk.close()
        removeDatabase(diskPath)
        let captureBefore = residentBytes()
        let memoryCapture = try recorder(capturePath, capturing: true)
        if let growth = memoryRun(memoryCapture, since: captureBefore) { captureRSS.append(growth) }
        peaks.append(Double(memoryCapture.captureHeldBytesPeak))
        memoryCapture.close()
        removeDatabase(capturePath)
    }
    func rss(_ values: [Double]) -> Int? { values.count == runs ? Int(median(values)) : nil }
    return CaptureResult(
        name: workload.name, reduceMicros: median(reduce) * 1e6, diskAddedMicros: median(disk) * 1e6, captureAddedMicros: median(capture) * 1e6,
        actions: memoryActions, peakHeldBytes: Int(median(peaks)),
        captureRSSGrowth: rss(captureRSS), diskRSSGrowth: rss(diskRSS), noneRSSGrowth: rss(noneRSS))
}

/// The capture section of the report: carts of 10/100/1000 items, ledgers of 10k and 100k lines.
func captureReport(runs: Int, quick: Bool, directory: String, progress: (String) -> Void) throws -> String {
    let interval = Duration.milliseconds(4)
    let dispatches = quick ? 40 : 250
    let window = CaptureWindow()  // 5,000 entries, 60 s, 8 MiB
    func scaled(_ count: Int) -> Int { quick ? max(20, count / 20) : count }
    let plan = Plan(actionLog: 0, naive: 0, floor: 0)
    var results: [CaptureResult] = []
    for (items, actions) in [(10, 10_000), (100, 6_000), (1000, 2_000)] {
        let workload = cartWorkload(items: items, plan: plan)
        progress("capture: \(workload.name)")
        results.append(try measureCapture(workload, window: window, dispatches: dispatches, interval: interval, memoryActions: scaled(actions), runs: runs, directory: directory))
    }
    for (lines, actions) in [(10_000, 2_000), (100_000, 500)] {
        let workload = prefilledLedgerWorkload(lines: lines, plan: plan)
        progress("capture: \(workload.name)")
        results.append(try measureCapture(workload, window: window, dispatches: dispatches, interval: interval, memoryActions: scaled(actions), runs: runs, directory: directory))
    }
    var table = Table([
        "workload", "reduce µs", "added µs: to disk", "added µs: capture", "actions", "window peak held MB", "RSS growth MB: none", "to disk", "capture",
    ])
    func megabytes(_ bytes: Int?) -> String { bytes.map { fixed(Double($0) / 1_048_576, decimals: 1) } ?? "n/a" }
    for result in results {
        table.add([
            result.name, format(result.reduceMicros, digits: 3), format(result.diskAddedMicros, digits: 2), format(result.captureAddedMicros, digits: 2),
            grouped(result.actions), megabytes(result.peakHeldBytes),
            megabytes(result.noneRSSGrowth), megabytes(result.diskRSSGrowth), megabytes(result.captureRSSGrowth),
        ])
    }
    return [
        table.render(), "",
        "added µs: one dispatch every \(fixed(interval.seconds * 1e3, decimals: 0)) ms, \(dispatches) dispatches, each timed alone, mean minus the mean",
        "of the same loop unrecorded, in the same run (as the caller-cost section). capture: CaptureWindow() (5,000 entries,",
        "60 s, 8 MiB). window peak held: the most bytes of encoded text the window held (its limit: 8 MiB) over `actions` dispatched",
        "back to back. RSS growth: this process's resident memory after those actions were flushed, minus before the recorder",
        "started (none: the same loop unrecorded); it includes the allocator's retained pages, so it is a rough figure.",
    ].joined(separator: "\n")
}
