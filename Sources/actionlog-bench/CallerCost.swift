import ActionLog
import CPerfCounter
import Foundation

// What recording costs the dispatching thread at a UI's pace, whatever the state's size: a cart of
// 10/100/1000 items and a ledger whose history already holds 10,000 or 100,000 lines and grows by one
// per action. Beside it, the writer's throughput on the same workload, measured in the same run.

/// A ledger whose history already holds `lines` lines: the state of an app that ran for a while.
func prefilledLedgerWorkload(lines: Int, plan: Plan) -> Workload<Ledger, LedgerAction> {
    var initial = Ledger()
    for action in Ledger.actions(lines) { Ledger.reduce(&initial, action) }
    return Workload(name: ledgerName(lines), initial: initial, reduce: Ledger.reduce, actions: Ledger.actions, plan: plan)
}

/// The same with the history in a ``ChunkedArray``.
func prefilledChunkedLedgerWorkload(lines: Int, plan: Plan) -> Workload<ChunkedLedger, LedgerAction> {
    var initial = ChunkedLedger()
    for action in Ledger.actions(lines) { ChunkedLedger.reduce(&initial, action) }
    return Workload(name: ledgerName(lines) + ", chunked", initial: initial, reduce: ChunkedLedger.reduce, actions: Ledger.actions, plan: plan)
}

private func ledgerName(_ lines: Int) -> String {
    lines >= 1_000 && lines % 1_000 == 0 ? "ledger \(lines / 1_000)k" : "ledger \(lines)"
}

struct CallerCostResult {
    var name: String
    /// Dispatches per paced loop, and the pace.
    var dispatches: Int
    var interval: Duration
    /// Reduce alone, µs per dispatch, at the pace.
    var reduceMicros: Double
    /// What `record` and the copy-on-write it provokes add per dispatch, at the pace (mean).
    var addedMicros: Double
    /// The same, for the slowest tenth of the dispatches (the 90th percentile of the added time).
    var addedP90Micros: Double
    /// What the least a recorder could do adds per dispatch at the same pace: hand the step to a
    /// thread that lets it go within a millisecond (see ``FloorHandOff``), mean.
    var floorMicros: Double
    /// Back to back (no pause between dispatches): what recording adds per dispatch.
    var backToBackMicros: Double
    /// Instructions the dispatching thread retires per dispatch beyond the unrecorded loop's, in user
    /// space (Linux perf events): the median dispatch's and the mean. `nil` where no counter opens.
    /// Unlike the times, the host's load hardly moves them; cache misses and waits do not show in them.
    var addedInstructions: (median: Double, mean: Double)?
    /// The same for the floor's hand-off.
    var floorInstructions: (median: Double, mean: Double)?
    /// The dispatching thread's CPU time per dispatch beyond the unrecorded loop's, µs: the median
    /// dispatch's and the mean. A thread's CPU time leaves out the time the host gives to other
    /// machines (steal), which the wall-clock figures include.
    var addedCPUMicros: (median: Double, mean: Double)?
    /// The same for the floor's hand-off.
    var floorCPUMicros: (median: Double, mean: Double)?
    /// Writer throughput, actions per second from the first `record` until `flush()` returns, back to back.
    var writerRate: Double
    var actions: Int
    var droppedOrLost: Int
}

/// The least any recorder does on the dispatching thread: append the step (action, state, time) to
/// a locked array, which a thread of its own empties every millisecond, letting the steps go
/// unread. What it adds at a UI's pace is the floor of the caller's added cost on this machine: a
/// lock and an append after 4 ms of sleep, on cold caches.
final class FloorHandOff<State: Sendable, Action: Sendable>: Sendable {
    private let queue = Locked<(steps: [(Action, State, Date)], stopped: Bool)>(([], false))

    init() {
        let thread = Thread { [self] in
            while true {
                Thread.sleep(forTimeInterval: 0.001)
                let stop: Bool = self.queue.withLock { queue in
                    queue.steps.removeAll(keepingCapacity: true)
                    return queue.stopped
                }
                if stop { return }
            }
        }
        thread.start()
    }

    func record(action: Action, state: State) {
        queue.withLock { $0.steps.append((action, state, Date())) }
    }

    func stop() {
        queue.withLock { $0.stopped = true }
    }
}

/// One paced loop's dispatches: the time of each, in seconds, the dispatching thread's CPU time in
/// each, in µs, and the instructions it retired in each (`nil` when no counter could be opened).
struct PacedDispatches {
    var times: [Double] = []
    var cpuMicros: [Double] = []
    var instructions: [Double]?
}

/// Times each dispatch (reduce, and `record` when a recorder is given) of `actions`, one every
/// `interval`, and counts the instructions it retires on this thread.
func pacedLoop<State, Action>(
    _ workload: Workload<State, Action>, actions: [Action], interval: Duration, recorder: Recorder<State, Action, Never>?,
    floor: FloorHandOff<State, Action>? = nil
) -> PacedDispatches {
    var state = workload.initial
    var dispatches = PacedDispatches()
    dispatches.times.reserveCapacity(actions.count)
    dispatches.cpuMicros.reserveCapacity(actions.count)
    let counter = actionlog_open_instruction_counter()
    defer { if counter >= 0 { actionlog_close_counter(counter) } }
    var counts: [Double] = []
    counts.reserveCapacity(actions.count)
    var next = clock.now
    for action in actions {
        next = next.advanced(by: interval)
        let start = clock.now
        let cpuBefore = threadCPUMicros()
        let before = counter >= 0 ? actionlog_read_counter(counter) : -1
        workload.reduce(&state, action)
        recorder?.record(action: action, state: state)
        floor?.record(action: action, state: state)
        let after = counter >= 0 ? actionlog_read_counter(counter) : -1
        dispatches.cpuMicros.append(threadCPUMicros() - cpuBefore)
        dispatches.times.append(start.duration(to: clock.now).seconds)
        if before >= 0, after >= before { counts.append(Double(after - before)) }
        let now = clock.now
        if now < next { Thread.sleep(forTimeInterval: now.duration(to: next).seconds) } else { next = now }
    }
    if counts.count == actions.count { dispatches.instructions = counts }
    blackHole(state)
    return dispatches
}

/// The median and mean of `values` minus those of `baseline`, when both were measured.
private func addedCounts(_ values: [Double]?, over baseline: [Double]?) -> (median: Double, mean: Double)? {
    guard let values, let baseline, !values.isEmpty, !baseline.isEmpty else { return nil }
    return (median(values) - median(baseline), mean(values) - mean(baseline))
}

/// The median over the runs of each run's added counts; `nil` when no run was counted.
private func medianOfRuns(_ runs: [(median: Double, mean: Double)]) -> (median: Double, mean: Double)? {
    runs.isEmpty ? nil : (median(runs.map(\.median)), median(runs.map(\.mean)))
}

/// The paced loop without recording and with it, interleaved `runs` times, and a back-to-back run
/// of `throughputActions` for the writer's throughput.
func measureCallerCost<State, Action>(
    _ workload: Workload<State, Action>, dispatches: Int, interval: Duration, throughputActions: Int, runs: Int, directory: String
) throws -> CallerCostResult {
    let paced = workload.actions(dispatches)
    let backToBack = workload.actions(throughputActions)
    let slug = workload.name.filter { $0.isLetter || $0.isNumber }
    var reduceMeans: [Double] = []
    var addedMeans: [Double] = []
    var addedP90s: [Double] = []
    var addedInstructions: [(median: Double, mean: Double)] = []
    var floorInstructions: [(median: Double, mean: Double)] = []
    var addedCPU: [(median: Double, mean: Double)] = []
    var floorCPU: [(median: Double, mean: Double)] = []
    var floors: [Double] = []
    var rates: [Double] = []
    var backToBackAdded: [Double] = []
    var lost = 0
    for run in 0..<runs {
        let baselineRun = pacedLoop(workload, actions: paced, interval: interval, recorder: nil)
        let baseline = baselineRun.times
        let floorHandOff = FloorHandOff<State, Action>()
        let floorRun = pacedLoop(workload, actions: paced, interval: interval, recorder: nil, floor: floorHandOff)
        let floor = floorRun.times
        floorHandOff.stop()

        let path = "\(directory)/caller-\(slug)-\(run).actionlog"
        var configuration = RecorderConfiguration()
        configuration.queueCapacity = max(throughputActions, dispatches) + 1
        configuration.queueByteCapacity = .max
        configuration.backpressure = .wait(timeout: .seconds(60))
        let recorder = try Recorder<State, Action, Never>(
            path: path, sessionName: workload.name, initialState: workload.initial, configuration: configuration)
        recorder.flush()  // Entry 0 (the whole initial state) written: the writer is idle when dispatching starts.
        let recordedRun = pacedLoop(workload, actions: paced, interval: interval, recorder: recorder)
        let recorded = recordedRun.times
        if let added = addedCounts(recordedRun.instructions, over: baselineRun.instructions) { addedInstructions.append(added) }
        if let added = addedCounts(floorRun.instructions, over: baselineRun.instructions) { floorInstructions.append(added) }
        if let added = addedCounts(recordedRun.cpuMicros, over: baselineRun.cpuMicros) { addedCPU.append(added) }
        if let added = addedCounts(floorRun.cpuMicros, over: baselineRun.cpuMicros) { floorCPU.append(added) }
        recorder.close()
        lost += recorder.statistics.dropped + recorder.statistics.lost
        removeDatabase(path)

        reduceMeans.append(mean(baseline))
        addedMeans.append(mean(recorded) - mean(baseline))
        floors.append(mean(floor) - mean(baseline))
        // The added time of the slowest dispatches: sorted recorded times against sorted baseline times.
        let (sortedRecorded, sortedBaseline) = (recorded.sorted(), baseline.sorted())
        let p90 = min(sortedRecorded.count - 1, sortedRecorded.count * 9 / 10)
        addedP90s.append(sortedRecorded[p90] - sortedBaseline[p90])

        let reducerOnly = runReducerOnly(workload, actions: backToBack).seconds
        let throughputPath = "\(directory)/caller-\(slug)-throughput-\(run).actionlog"
        let run = try runActionLog(workload, actions: backToBack, path: throughputPath)
        removeDatabase(throughputPath)
        rates.append(Double(backToBack.count) / run.total.seconds)
        backToBackAdded.append((run.loop.seconds - reducerOnly) / Double(backToBack.count))
        lost += run.droppedOrLost
    }
    return CallerCostResult(
        name: workload.name, dispatches: dispatches, interval: interval,
        reduceMicros: median(reduceMeans) * 1e6, addedMicros: median(addedMeans) * 1e6, addedP90Micros: median(addedP90s) * 1e6,
        floorMicros: median(floors) * 1e6, backToBackMicros: median(backToBackAdded) * 1e6,
        addedInstructions: medianOfRuns(addedInstructions), floorInstructions: medianOfRuns(floorInstructions),
        addedCPUMicros: medianOfRuns(addedCPU), floorCPUMicros: medianOfRuns(floorCPU),
        writerRate: median(rates), actions: throughputActions, droppedOrLost: lost)
}

/// The caller-cost section of the report: carts of 10/100/1000 items, ledgers of 10k and 100k lines.
func callerCostReport(runs: Int, quick: Bool, directory: String, progress: (String) -> Void) throws -> String {
    let interval = Duration.milliseconds(4)  // 250 dispatches a second: a busy UI.
    let dispatches = quick ? 40 : 250
    func scaled(_ count: Int) -> Int { quick ? max(20, count / 20) : count }
    var results: [CallerCostResult] = []
    let plan = Plan(actionLog: 0, naive: 0, floor: 0)
    for (items, actions) in [(10, 10_000), (100, 5_000), (1000, 2_000)] {
        let workload = cartWorkload(items: items, plan: plan)
        progress("caller cost: \(workload.name)")
        results.append(try measureCallerCost(workload, dispatches: dispatches, interval: interval, throughputActions: scaled(actions), runs: runs, directory: directory))
    }
    for (lines, actions) in [(10_000, 2_000), (100_000, 500)] {
        let workload = prefilledLedgerWorkload(lines: lines, plan: plan)
        progress("caller cost: \(workload.name)")
        results.append(try measureCallerCost(workload, dispatches: dispatches, interval: interval, throughputActions: scaled(actions), runs: runs, directory: directory))
    }
    for (lines, actions) in [(10_000, 2_000), (100_000, 2_000)] {
        let workload = prefilledChunkedLedgerWorkload(lines: lines, plan: plan)
        progress("caller cost: \(workload.name)")
        results.append(try measureCallerCost(workload, dispatches: dispatches, interval: interval, throughputActions: scaled(actions), runs: runs, directory: directory))
    }
    var table = Table([
        "workload", "reduce µs", "caller's added µs per dispatch", "floor µs", "over the floor µs", "p90 added µs", "back to back +µs", "writer actions/s (K)",
    ])
    for result in results {
        table.add([
            result.name, format(result.reduceMicros, digits: 3), format(result.addedMicros, digits: 2), format(result.floorMicros, digits: 2),
            format(result.addedMicros - result.floorMicros, digits: 2), format(result.addedP90Micros, digits: 2),
            format(result.backToBackMicros, digits: 2), rate(result.writerRate) + " (\(grouped(result.actions)))",
        ])
    }
    var counted = Table([
        "workload", "added CPU µs: median dispatch", "mean", "floor: median", "floor: mean",
        "added instructions: median dispatch", "mean", "floor: median", "floor: mean",
    ])
    func instructions(_ count: Double?) -> String { count.map { grouped(Int($0.rounded())) } ?? "n/a" }
    func micros(_ value: Double?) -> String { value.map { format($0, digits: 2) } ?? "n/a" }
    for result in results {
        let added = result.addedInstructions, floor = result.floorInstructions
        let cpu = result.addedCPUMicros, floorCPU = result.floorCPUMicros
        counted.add([
            result.name, micros(cpu?.median), micros(cpu?.mean), micros(floorCPU?.median), micros(floorCPU?.mean),
            instructions(added?.median), instructions(added?.mean), instructions(floor?.median), instructions(floor?.mean),
        ])
    }
    var lines = [table.render(), "", counted.render()]
    lines.append("caller's added µs: one dispatch every \(fixed(interval.seconds * 1e3, decimals: 0)) ms (\(fixed(1 / interval.seconds, decimals: 0)) a second), \(dispatches) dispatches;")
    lines.append("each dispatch (reduce + record) timed alone, mean minus the mean of the same paced loop without recording. It includes")
    lines.append("the copy-on-write a mutation makes when the writer still shares the collection it mutates. p90: the 90th percentile")
    lines.append("of the recorded dispatches minus that of the unrecorded ones. floor: the same for the least any recorder does (append")
    lines.append("the step to a locked array that another thread empties every millisecond), measured in the same run: on a shared host,")
    lines.append("a lock and an append after 4 ms of sleep run on cold caches. over the floor: what recording adds beyond that.")
    lines.append("back to back: dispatching without pause, faster than the writer, so queued steps hold the state and each in-place mutation copies what they share. writer actions/s: K")
    lines.append("actions back to back, first record to flush(). Ledgers start with 10,000 / 100,000 lines and gain one per action;")
    lines.append("chunked: the same ledger with its history in a ChunkedArray, whose copies share all but the leaf of 64 lines an append changes.")
    lines.append("added CPU µs: the dispatching thread's CPU time per dispatch (CLOCK_THREAD_CPUTIME_ID, read around each")
    lines.append("dispatch), recorded minus unrecorded, for the median dispatch and the mean (median of the runs); it leaves out")
    lines.append("the time the host gives other machines (steal), which the wall-clock columns above include.")
    lines.append("added instructions: what the dispatching thread retires in user space per dispatch (a perf-events counter on")
    lines.append("that thread, read around each dispatch), recorded minus unrecorded, for the median dispatch and the mean (median")
    lines.append("of the runs); floor: the same for the floor's hand-off. The host's load hardly moves these counts, unlike the")
    lines.append("times; cache misses and waits do not show in them, a copy-on-write of the state does. n/a: no counter here.")
    for result in results where result.droppedOrLost > 0 {
        lines.append("WARNING: \(result.name): \(result.droppedOrLost) entries dropped or lost.")
    }
    return lines.joined(separator: "\n")
}
