import ActionLog
import CPerfCounter
import Foundation

// Timing helpers, the ActionLog measurement, and the per-workload driver that runs ActionLog and
// both baselines on the same actions, several times, and keeps the medians.

let clock = ContinuousClock()

extension Duration {
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

/// The arithmetic mean; 0 for no values.
func mean(_ values: [Double]) -> Double {
    values.reduce(0, +) / Double(max(1, values.count))
}

func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// Runs `body` `repeats` times, or fewer once `budget` is spent (at least once); the median in seconds.
func medianTime(repeats: Int, budget: Duration = .seconds(3), _ body: () throws -> Void) rethrows -> Double {
    var times: [Double] = []
    let start = clock.now
    while times.count < repeats {
        let begin = clock.now
        try body()
        times.append(begin.duration(to: clock.now).seconds)
        if start.duration(to: clock.now) > budget { break }
    }
    return median(times)
}

/// The calling thread's CPU time so far, in µs (`CLOCK_THREAD_CPUTIME_ID`). On a virtual machine
/// whose kernel accounts steal time apart, it leaves out the time the host gave to other machines.
func threadCPUMicros() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) * 1e6 + Double(time.tv_nsec) / 1e3
}

/// The median wall-clock time and the median CPU time of the calling thread, in seconds.
struct MedianTimes {
    var wall: Double
    var cpu: Double
    /// The instructions the measuring thread retired in user space; `nil` where there is no counter.
    var instructions: Double?
}

/// Runs each of `bodies` in turn, `repeats` rounds (fewer once the rounds have taken `budget`), and
/// returns each body's median times. Interleaved rather than one body's repeats after the other's,
/// so that a change in the host's speed during the measurement weighs on every body alike.
func interleavedMedians(repeats: Int, budget: Duration = .seconds(6), _ bodies: [() throws -> Void]) throws -> [MedianTimes] {
    var walls = Array(repeating: [Double](), count: bodies.count)
    var cpus = Array(repeating: [Double](), count: bodies.count)
    var counts = Array(repeating: [Double](), count: bodies.count)
    let counter = actionlog_open_instruction_counter()
    defer { if counter >= 0 { actionlog_close_counter(counter) } }
    let start = clock.now
    for _ in 0..<repeats {
        for (index, body) in bodies.enumerated() {
            let (begin, cpuBegin) = (clock.now, threadCPUMicros())
            let before = counter >= 0 ? actionlog_read_counter(counter) : -1
            try body()
            let after = counter >= 0 ? actionlog_read_counter(counter) : -1
            cpus[index].append((threadCPUMicros() - cpuBegin) / 1e6)
            walls[index].append(begin.duration(to: clock.now).seconds)
            if before >= 0, after >= before { counts[index].append(Double(after - before)) }
        }
        if start.duration(to: clock.now) > budget { break }
    }
    return (0..<bodies.count).map { index in
        MedianTimes(
            wall: median(walls[index]), cpu: median(cpus[index]),
            instructions: counts[index].count == walls[index].count ? median(counts[index]) : nil)
    }
}

/// Removes a journal or database and the files SQLite and ActionLog keep beside it.
func removeDatabase(_ path: String) {
    let manager = FileManager.default
    let directory = (path as NSString).deletingLastPathComponent
    let name = (path as NSString).lastPathComponent
    for file in (try? manager.contentsOfDirectory(atPath: directory)) ?? [] where file.hasPrefix(name) {
        try? manager.removeItem(atPath: directory + "/" + file)
    }
}

// MARK: - No journaling

/// The reducer alone over `actions`.
func runReducerOnly<State, Action>(_ workload: Workload<State, Action>, actions: [Action]) -> Duration {
    var state = workload.initial
    let start = clock.now
    for action in actions {
        workload.reduce(&state, action)
    }
    let elapsed = start.duration(to: clock.now)
    blackHole(state)
    return elapsed
}

/// The reducer over `actions` while the state before each action stays alive, as the recorder keeps it
/// (queued for the writer, and as the writer's previous state): the reducer's in-place mutation then
/// copies the collection it mutates (copy-on-write). The difference from ``runReducerOnly(_:actions:)``
/// is that copy, a cost of holding the previous state that no encoding choice removes.
func runReducerHoldingPrevious<State, Action>(_ workload: Workload<State, Action>, actions: [Action]) -> Duration {
    var state = workload.initial
    var held = state
    let start = clock.now
    for action in actions {
        held = state
        workload.reduce(&state, action)
    }
    let elapsed = start.duration(to: clock.now)
    blackHole(held)
    blackHole(state)
    return elapsed
}

// MARK: - ActionLog

struct ActionLogRun {
    /// The dispatch loop (reduce + `record`) on the calling thread.
    var loop: Duration
    /// From the first `record` until `flush()` returned.
    var total: Duration
    var entries: Int
    var keyframes: Int
    /// Stored JSON (state column + action column) per entry, keyframes amortized.
    var payloadBytesPerEntry: Double
    /// Growth of the journal per entry (SQLite pages, indexes and every column included).
    var fileBytesPerEntry: Double
    var droppedOrLost: Int
    var sessionID: JournalSession.ID
}

/// Records `actions` with a recorder in its default configuration, except a queue that never drops
/// (and, for the cost of checksums, rows written without them unless `checksums`).
func runActionLog<State, Action>(_ workload: Workload<State, Action>, actions: [Action], path: String, checksums: Bool = true) throws -> ActionLogRun {
    var configuration = RecorderConfiguration()
    configuration.writesChecksums = checksums
    configuration.queueCapacity = actions.count + 1
    configuration.queueByteCapacity = .max  // The queue holds every action: the loop measures `record`, not waiting.
    configuration.backpressure = .wait(timeout: .seconds(60))
    let recorder = try Recorder<State, Action, Never>(
        path: path, sessionName: workload.name, initialState: workload.initial, configuration: configuration
    )
    recorder.flush()  // Entry 0 written: the writer is idle when the clock starts.
    let sizeBefore = try Database(path: path, readOnly: true).logicalSize()
    var state = workload.initial
    let start = clock.now
    for action in actions {
        workload.reduce(&state, action)
        recorder.record(action: action, state: state)
    }
    let loopEnd = clock.now
    recorder.flush()
    let end = clock.now
    recorder.close()
    let statistics = recorder.statistics

    let database = try Database(path: path, readOnly: true)
    let query = try database.prepare("""
        SELECT count(*), sum(kind = 'keyframe'), sum(length(CAST(state AS BLOB))), sum(length(CAST(action AS BLOB)))
        FROM entries WHERE session_id = ?1 AND seq >= 1
        """)
    query.bind(1, Int(recorder.sessionID))
    _ = try query.step()
    let entries = query.int(0)
    let count = Double(max(1, entries))
    return ActionLogRun(
        loop: start.duration(to: loopEnd),
        total: start.duration(to: end),
        entries: entries,
        keyframes: query.int(1),
        payloadBytesPerEntry: Double(query.int(2) + query.int(3)) / count,
        fileBytesPerEntry: Double(try database.logicalSize() - sizeBefore) / count,
        droppedOrLost: statistics.dropped + statistics.lost,
        sessionID: recorder.sessionID
    )
}

// MARK: - One workload

struct WorkloadResult {
    var name: String
    var size: Int?
    var plan: Plan
    var runs: Int
    /// Reducer alone, µs per dispatch.
    var reducerMicros: Double
    /// What recording adds on the calling thread, µs per dispatch.
    var addedMicros: Double
    /// Of that, the copy-on-write copy the reducer makes because the previous state is held, µs per dispatch.
    var copyOnWriteMicros: Double
    var actionLogRate: Double
    /// The same recorder writing no checksums: actions per second, and file bytes per entry.
    var uncheckedRate: Double
    var uncheckedFileBytes: Double
    var naiveRate: Double
    var floorRate: Double
    var payloadBytes: Double
    var fileBytes: Double
    var keyframes: Int
    var entries: Int
    var naivePayloadBytes: Double
    var naiveFileBytes: Double
    var droppedOrLost: Int
    /// The journal of the last ActionLog run, kept for the replay measurement.
    var journalPath: String
    var sessionID: JournalSession.ID
}

/// Runs the reducer alone, ActionLog, the naive journal and the floor `runs` times each, interleaved.
func benchmark<State, Action>(_ workload: Workload<State, Action>, runs: Int, directory: String) throws -> WorkloadResult {
    let plan = workload.plan
    let actions = workload.actions(plan.actionLog)
    let naiveActions = workload.actions(plan.naive)
    let floorActions = workload.actions(plan.floor)
    let slug = workload.name.filter { $0.isLetter || $0.isNumber }
    var reducer: [Double] = []
    var holding: [Double] = []
    var actionLog: [ActionLogRun] = []
    var unchecked: [ActionLogRun] = []
    var naive: [BaselineRun] = []
    var floor: [Double] = []
    var journalPath = ""
    for run in 0..<runs {
        reducer.append(runReducerOnly(workload, actions: actions).seconds)
        holding.append(runReducerHoldingPrevious(workload, actions: actions).seconds)

        if !journalPath.isEmpty { removeDatabase(journalPath) }
        journalPath = "\(directory)/\(slug)-\(run).actionlog"
        actionLog.append(try runActionLog(workload, actions: actions, path: journalPath))

        let uncheckedPath = "\(directory)/\(slug)-unchecked-\(run).actionlog"
        unchecked.append(try runActionLog(workload, actions: actions, path: uncheckedPath, checksums: false))
        removeDatabase(uncheckedPath)

        let naivePath = "\(directory)/\(slug)-naive-\(run).sqlite"
        naive.append(try runNaive(workload, actions: naiveActions, path: naivePath))
        removeDatabase(naivePath)

        let floorPath = "\(directory)/\(slug)-floor-\(run).sqlite"
        floor.append(try runFloor(workload, actions: floorActions, path: floorPath).seconds)
        removeDatabase(floorPath)
    }
    let reducerLoop = median(reducer)
    let actionLogLoop = median(actionLog.map(\.loop.seconds))
    let last = actionLog[actionLog.count - 1]
    return WorkloadResult(
        name: workload.name,
        size: workload.size,
        plan: plan,
        runs: runs,
        reducerMicros: reducerLoop / Double(plan.actionLog) * 1e6,
        addedMicros: (actionLogLoop - reducerLoop) / Double(plan.actionLog) * 1e6,
        copyOnWriteMicros: max(0, median(holding) - reducerLoop) / Double(plan.actionLog) * 1e6,
        actionLogRate: Double(plan.actionLog) / median(actionLog.map(\.total.seconds)),
        uncheckedRate: Double(plan.actionLog) / median(unchecked.map(\.total.seconds)),
        uncheckedFileBytes: median(unchecked.map(\.fileBytesPerEntry)),
        naiveRate: Double(plan.naive) / median(naive.map(\.elapsed.seconds)),
        floorRate: Double(plan.floor) / median(floor),
        payloadBytes: median(actionLog.map(\.payloadBytesPerEntry)),
        fileBytes: median(actionLog.map(\.fileBytesPerEntry)),
        keyframes: last.keyframes,
        entries: last.entries,
        naivePayloadBytes: median(naive.map(\.payloadBytesPerEntry)),
        naiveFileBytes: median(naive.map(\.fileBytesPerEntry)),
        droppedOrLost: actionLog.map(\.droppedOrLost).reduce(0, +),
        journalPath: journalPath,
        sessionID: last.sessionID
    )
}

/// Removes the benchmark's journals at `path`, unless `ACTIONLOG_BENCH_KEEP` is set: then says where
/// they are, for the reading children and the viewer.
func removeUnlessKept(_ path: String) {
    if ProcessInfo.processInfo.environment["ACTIONLOG_BENCH_KEEP"] != nil {
        print("journals kept in \(path) (ACTIONLOG_BENCH_KEEP is set)")
    } else {
        try? FileManager.default.removeItem(atPath: path)
    }
}
