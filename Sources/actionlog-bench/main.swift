/// actionlog-bench: what journaling with ActionLog costs, against baselines measured in the same run.
///
/// Run it in release mode (a debug build measures the optimizer's absence, not ActionLog):
///
/// ```sh
/// swift run -c release actionlog-bench            # the full report, about 2-3 minutes
/// swift run -c release actionlog-bench --quick    # a smoke run: few actions, one repetition
/// swift run -c release actionlog-bench --runs 5   # more repetitions per figure (default 3)
/// swift run -c release actionlog-bench --long     # long sessions at full size (1,000,000 counter and
///                                                 # 100,000 cart entries), however long recording takes
/// swift run -c release actionlog-bench --caller-cost   # only the caller's cost at a UI's pace, in µs (wall clock and thread CPU time) and in instructions (CallerCost.swift)
/// swift run -c release actionlog-bench --capture       # only capture mode beside recording to disk and none:
///                                                      # caller's added µs and memory (Capture.swift)
/// swift run -c release actionlog-bench --replay        # only replay speed, on sessions recorded for it
///                                                      # (ACTIONLOG_BENCH_KEEP=1 keeps their journals)
/// swift run -c release actionlog-bench --backpressure  # only `record` under a slow writer, per back-pressure policy
///                                                      # (Backpressure.swift): max, p99, drops, memory, close; then a
///                                                      # growing ledger back to back (Overload.swift): gaps, file, replay;
///                                                      # then what gaps cost the file (Gaps.swift)
/// swift run -c release actionlog-bench --gaps          # only what dropped actions cost the file: a growing state
///                                                      # recorded with and without deterministic drops (Gaps.swift)
/// swift build -c release && ./.build/release/actionlog-bench --scale   # only the readers at scale, full size
/// swift build -c release && ./.build/release/actionlog-bench --postgres URL   # only the team store: push
///                                                  # throughput beside a plain COPY and a file copy, state --at from
///                                                  # the store beside the file (--long: 1,000,000 entries)
/// swift run -c release actionlog-bench --viewer    # only the viewer's server (`replay-cli serve`) on the long
///                                                  # sessions (1,000,000 counter, 100,000 ledger entries)
/// ```
///
/// For work on the read path, on journals kept with `ACTIONLOG_BENCH_KEEP=1`, one figure at a time
/// with nothing else in the process (under `perf stat -e instructions:u` or `perf record` when the
/// host is too noisy for times):
///
/// ```sh
/// ./.build/release/actionlog-bench --share-child JOURNAL SESSION cart [REPEATS]  # decode only, rebuild+decode, share
/// ./.build/release/actionlog-bench --rebuild-child JOURNAL SESSION cart REPEATS  # the rebuild loop alone
/// ./.build/release/actionlog-bench --decode-child JOURNAL SESSION cart REPEATS   # the decode-only loop alone
/// ./.build/release/actionlog-bench --replay-child JOURNAL SESSION cart           # one Replay.run()
/// ./.build/release/actionlog-bench --parse-child FILE REPEATS                    # JSONValue(parsing:) of a file
/// ```
///
/// **Readers at scale** (`--scale`; also at the end of the default run at a tenth of the size, a hundredth
/// with `--quick`): records a 1,000,000-entry counter session and a 100,000-entry ledger session (whose
/// history grows by one line per action), and a session of half each. On each it runs `replay-cli export`,
/// `import`, `log`, `log --json` (and the time to its first line), `verify`, `state --at N` and `diff A B`
/// at random steps, and `Replay.run()`, each as a child process whose time and peak RSS (`wait4`) are
/// printed beside a plain `SELECT` over the same rows on a bare sqlite3 connection, and then full ÷ half
/// (time ×2: linear; RSS ×1: bounded). It needs `replay-cli` beside this binary: build with
/// `swift build -c release`, not `swift run`, which builds only the benchmark.
///
/// Progress goes to standard error, the report to standard output. Journals are written to a fresh
/// directory under the temporary directory and removed at the end.
///
/// Workloads: a cart of N = 10, 100, 1000 items where each action sets one item's quantity; a city
/// search whose every action replaces the 20 results wholesale; a counter; and, for replay only, a
/// ledger whose history grows by one line per action (100,000 entries with `--long`, else what
/// records in ~45 s). For each:
///
/// - **reduce µs**: the reducer alone, no journaling, per dispatch.
/// - **+µs/dispatch**: what `recorder.record` adds on the calling thread (the dispatch loop with
///   recording minus the loop without, over the actions dispatched). The writer runs meanwhile.
/// - **ActionLog/s**: writer throughput, actions per second from the first `record` until `flush()`
///   returns, with a queue large enough that nothing is dropped.
/// - **naive/s**: per action, the action and the full state as canonical JSON, each in its own
///   transaction (`BEGIN; INSERT; COMMIT`, WAL, `synchronous=NORMAL`, prepared statements reused).
/// - **floor/s**: per action, only the action's canonical JSON, in transactions of 256 as the writer batches.
/// - **bytes/entry**: JSON stored (state column + action column, keyframes amortized) and the growth
///   of the SQLite file per entry, for ActionLog and the naive journal.
///
/// Then the full-encode path the change encoder replaces (encoding, parsing, diffing, canonical text,
/// each timed alone) against the measured writer time per entry,
/// the state at a random step of a long session (`Journal.state(at:in:)` + decoding, against parsing +
/// decoding the session's largest keyframe; long sessions shrink to what records in ~45 s unless
/// `--long`), replay speed (rebuilding every state and decoding every action, and `Replay.run()`,
/// against decoding the actions alone), and whether the targets of the performance issue are met. Every figure is a median of the repetitions; each throughput is
/// measured over enough actions to take roughly 0.2-2 s. A missed target is reported, never an exit status.
import ActionLog
import CSQLite
import Foundation

// MARK: - Arguments

// The scale section runs each reader in a child process, through a lean copy of this binary.
if CommandLine.arguments.count > 1, let child = childEntryPoint(CommandLine.arguments[1]) {
    exit(child(Array(CommandLine.arguments.dropFirst(2))))
}
var quick = false
var scaleOnly = false
var viewerOnly = false
var longSessions = false
var runs = 3
var callerCostOnly = false
var captureOnly = false
var replayOnly = false
var backpressureOnly = false
var postgresOnly = false
var postgresURL: String?
var gapsOnly = false
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--quick": quick = true
    case "--long": longSessions = true
    case "--caller-cost": callerCostOnly = true
    case "--capture": captureOnly = true
    case "--backpressure": backpressureOnly = true
    case "--gaps": gapsOnly = true
    case "--scale": scaleOnly = true
    case "--viewer": viewerOnly = true
    case "--replay": replayOnly = true
    case "--postgres":
        guard let value = arguments.next() else {
            print("--postgres takes a server's URL (postgres://USER@HOST:PORT/DATABASE)")
            exit(64)
        }
        postgresURL = value
        postgresOnly = true
    case "--runs":
        guard let value = arguments.next().flatMap(Int.init), value > 0 else {
            print("--runs takes a positive number")
            exit(64)
        }
        runs = value
    case "-h", "--help":
        print("usage: actionlog-bench [--quick] [--long] [--caller-cost] [--capture] [--backpressure] [--gaps] [--scale] [--viewer] [--replay] [--postgres URL] [--runs N]")
        exit(0)
    default:
        print("unknown argument \(argument); usage: actionlog-bench [--quick] [--long] [--caller-cost] [--capture] [--backpressure] [--gaps] [--scale] [--viewer] [--replay] [--postgres URL] [--runs N]")
        exit(64)
    }
}
if quick || scaleOnly, !CommandLine.arguments.contains("--runs") { runs = 1 }
let factor = quick ? 0.05 : 1.0

// MARK: - Header

func machine() -> String {
    var name = utsname()
    guard uname(&name) == 0 else { return "unknown" }
    return withUnsafeBytes(of: &name.machine) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
}

let benchStart = clock.now
print("ActionLog benchmark — \(ISO8601DateFormatter().string(from: Date()))")
print("machine: \(machine()), \(ProcessInfo.processInfo.activeProcessorCount) cores, SQLite \(String(cString: sqlite3_libversion())), ActionLog \(ActionLogLibrary.version)")
print("mode: \(scaleOnly ? "--scale\(quick ? " --quick" : "") (readers at scale only)" : replayOnly ? "--replay (replay only)" : quick ? "--quick (smoke run: few actions, noisy figures)" : "default"), median of \(runs) run\(runs == 1 ? "" : "s") per figure")
#if DEBUG
print("WARNING: a debug build; run with -c release for meaningful figures.")
#endif
print("Figures are from one run on a shared machine: read ratios, not absolutes, and expect ±10-20%.")
print()

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("actionlog-bench-\(getpid())").path
try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)

/// Prints a section: its heading, then what `report` returns, or that `measurement` failed and why.
/// A failed section is printed, never fatal: the sections after it still run.
@MainActor func section(_ heading: String, measurement: String, _ report: () throws -> String) {
    print("## \(heading)")
    print()
    do {
        print(try report())
    } catch {
        print("\(measurement) failed: \(error)")
    }
    print()
}

/// Ends a run of some sections only: removes the journals (unless kept) and prints the total time.
@MainActor func finishEarly() -> Never {
    removeUnlessKept(directory)
    print("Total time: \(fixed(benchStart.duration(to: clock.now).seconds, decimals: 0)) s")
    exit(0)
}

if viewerOnly {
    runViewerSection(sizes: quick ? .quick : .full, directory: directory)
    finishEarly()
}
if postgresOnly {
    runPostgresSection(url: postgresURL, entries: longSessions ? 1_000_000 : quick ? 10_000 : 100_000, repeats: runs, directory: directory)
    finishEarly()
}
if scaleOnly {
    runScaleSection(sizes: quick ? .quick : .full, repeats: runs, directory: directory)
    finishEarly()
}

// MARK: - Throughput and size

// K per measurement: each takes roughly 0.2-2 s on a 2-core x86_64 VM with today's writer.
let counter = counterWorkload(plan: Plan(actionLog: 50_000, naive: 20_000, floor: 100_000).scaled(by: factor))
let cart10 = cartWorkload(items: 10, plan: Plan(actionLog: 10_000, naive: 5_000, floor: 50_000).scaled(by: factor))
let cart100 = cartWorkload(items: 100, plan: Plan(actionLog: 1_500, naive: 1_000, floor: 50_000).scaled(by: factor))
let cart1000 = cartWorkload(items: 1000, plan: Plan(actionLog: 200, naive: 150, floor: 50_000).scaled(by: factor))
let search = searchWorkload(plan: Plan(actionLog: 5_000, naive: 2_000, floor: 50_000).scaled(by: factor))

func progress(_ text: String) {
    FileHandle.standardError.write(Data("… \(text) (\(fixed(benchStart.duration(to: clock.now).seconds, decimals: 0)) s)\n".utf8))
}

// MARK: - Replay only

if replayOnly {
    // Each workload's session as the throughput runs record it, then the replay section alone.
    var cases: [ReplayCase] = []
    do {
        func add<State, Action>(_ workload: Workload<State, Action>) throws {
            let path = "\(directory)/\(workload.name.filter { $0.isLetter || $0.isNumber }).actionlog"
            progress("recording \(grouped(workload.plan.actionLog)) entries of \(workload.name)")
            let recorded = try recordGrowingSession(workload, count: workload.plan.actionLog, budget: nil, path: path)
            cases.append(ReplayCase(workload, path: path, session: recorded.session, entries: recorded.count, rate: nil))
        }
        try add(counter); try add(cart10); try add(cart100); try add(cart1000); try add(search)
    } catch {
        print("recording failed: \(error)")
        exit(1)
    }
    let replays = runReplaySection(cases, ledgerTarget: quick ? 5_000 : 100_000, ledgerBudget: longSessions ? nil : .seconds(quick ? 10 : 45), repeats: runs, directory: directory)
    print()
    var targets = Table(["target", "measured", "verdict"])
    for (name, replay) in replays {
        replayTarget(name, replay) { targets.add([$0, $1, verdict($2)]) }
    }
    print(targets.render())
    finishEarly()
}

// MARK: - Back-pressure

let gapsHeading = "What gaps cost the file"
if gapsOnly {
    section(gapsHeading, measurement: "gap measurement") { gapCostReport(try measureGapCosts(quick: quick, directory: directory, progress: progress)) }
    finishEarly()
}

if backpressureOnly {
    section("`record` when the writer falls behind, per back-pressure policy", measurement: "back-pressure measurement") {
        try backpressureReport(quick: quick, directory: directory, progress: progress)
    }
    section("A state that grows, dispatched back to back", measurement: "overload measurement") {
        try overloadReport(quick: quick, directory: directory, progress: progress)
    }
    section(gapsHeading, measurement: "gap measurement") { gapCostReport(try measureGapCosts(quick: quick, directory: directory, progress: progress)) }
    finishEarly()
}

// MARK: - Capture mode

let captureHeading = "Capture mode beside recording to disk and no recording: caller's added µs and memory"
if captureOnly {
    section(captureHeading, measurement: "capture measurement") { try captureReport(runs: runs, quick: quick, directory: directory, progress: progress) }
    finishEarly()
}

// MARK: - Caller's cost at a UI's pace

section("Caller's added µs per dispatch at a UI's pace, and the writer's throughput", measurement: "caller-cost measurement") {
    try callerCostReport(runs: runs, quick: quick, directory: directory, progress: progress)
}
if callerCostOnly { finishEarly() }
section(captureHeading, measurement: "capture measurement") { try captureReport(runs: runs, quick: quick, directory: directory, progress: progress) }

var results: [WorkloadResult] = []
do {
    progress("throughput: counter"); results.append(try benchmark(counter, runs: runs, directory: directory))
    progress("throughput: cart N=10"); results.append(try benchmark(cart10, runs: runs, directory: directory))
    progress("throughput: cart N=100"); results.append(try benchmark(cart100, runs: runs, directory: directory))
    progress("throughput: cart N=1000"); results.append(try benchmark(cart1000, runs: runs, directory: directory))
    progress("throughput: search"); results.append(try benchmark(search, runs: runs, directory: directory))
} catch {
    print("benchmark failed: \(error)")
    try? FileManager.default.removeItem(atPath: directory)
    exit(1)
}

print("## Dispatch cost and writer throughput (actions per second)")
print()
var throughput = Table(["workload", "K (AL/naive/floor)", "reduce µs", "+µs/dispatch", "of which CoW", "ActionLog/s", "naive/s", "floor/s", "AL ÷ naive", "AL ÷ floor"])
for result in results {
    throughput.add([
        result.name,
        "\(grouped(result.plan.actionLog))/\(grouped(result.plan.naive))/\(grouped(result.plan.floor))",
        format(result.reducerMicros, digits: 3),
        format(result.addedMicros, digits: 2),
        format(result.copyOnWriteMicros, digits: 2),
        rate(result.actionLogRate),
        rate(result.naiveRate),
        rate(result.floorRate),
        ratio(result.actionLogRate / result.naiveRate),
        ratio(result.actionLogRate / result.floorRate),
    ])
}
print(throughput.render())
print("K: actions per run. +µs/dispatch: what reduce + record costs the calling thread beyond reduce alone; of which CoW: the")
print("copy the reducer's in-place mutation makes because the previous state is held (reduce with a copy kept, minus reduce).")
print("ActionLog/s: from the first record until flush() returns. naive: action + full state as canonical JSON, one transaction")
print("per action. floor: the action's canonical JSON only, 256 per transaction. Each includes the reducer. Cart items: id, name")
print("(~20 chars), price, quantity, 2-3 tags; search: 20 of 400 cities replaced per action; counter: one Int.")
print()
print("## Bytes per entry (keyframes amortized)")
print()
var sizes = Table(["workload", "AL JSON", "AL file", "keyframes", "naive JSON", "naive file", "naive ÷ AL (file)"])
for result in results {
    sizes.add([
        result.name,
        format(result.payloadBytes), format(result.fileBytes),
        "\(grouped(result.keyframes)) of \(grouped(result.entries))",
        format(result.naivePayloadBytes), format(result.naiveFileBytes),
        ratio(result.naiveFileBytes / result.fileBytes),
    ])
}
print(sizes.render())
print("JSON: the state and action columns; file: growth of the SQLite file (all columns, b-tree pages).")
print()
print("## The cost of checksums (the same recorder with and without them, runs interleaved)")
print()
var checksumTable = Table(["workload", "writer µs/entry with", "without", "added µs", "file bytes/entry with", "without", "added bytes"])
for result in results {
    let (with, without) = (1e6 / result.actionLogRate, 1e6 / result.uncheckedRate)
    checksumTable.add([
        result.name, format(with, digits: 2), format(without, digits: 2), format(with - without, digits: 2),
        format(result.fileBytes), format(result.uncheckedFileBytes), format(result.fileBytes - result.uncheckedFileBytes),
    ])
}
print(checksumTable.render())
print("with: every entry's CRC-32C halves computed and stored (an INTEGER column); without: the column left NULL, as an")
print("ActionLog before checksums wrote. Writer µs/entry: from the first record until flush() returns, over the entries.")
let lossy = results.filter { $0.droppedOrLost > 0 }
for result in lossy {
    print("WARNING: \(result.name): \(result.droppedOrLost) entries dropped or lost; its ActionLog figures are not comparable.")
}
print()

// MARK: - Where the writer's time goes

print("## The full-encode path the change encoder replaces (µs per entry, each step timed alone on the same actions)")
print()
var breakdownTable = Table(["workload", "encode", "parse", "diff", "patch text", "state text", "action+label", "full path", "writer", "full ÷ writer"])
do {
    func breakdown<State, Action>(_ workload: Workload<State, Action>, _ result: WorkloadResult, steps: Int) throws {
        progress("writer breakdown: \(workload.name)")
        let pieces = try measureBreakdown(workload, steps: max(20, Int(Double(steps) * factor)))
        let keyframeShare = Double(result.keyframes) / Double(max(1, result.entries))
        let sum = pieces.total(keyframeShare: keyframeShare)
        let writer = 1e6 / result.actionLogRate
        breakdownTable.add([
            workload.name, format(pieces.encode), format(pieces.parse), format(pieces.diff), format(pieces.patchText),
            format(pieces.stateText) + " × " + percent(keyframeShare), format(pieces.action), format(sum), format(writer), String(format: "%.1f×", sum / writer),
        ])
    }
    try breakdown(counter, results[0], steps: 20_000)
    try breakdown(cart10, results[1], steps: 5_000)
    try breakdown(cart100, results[2], steps: 1_000)
    try breakdown(cart1000, results[3], steps: 150)
    try breakdown(search, results[4], steps: 2_000)
    print(breakdownTable.render())
    print("The naive way to find each delta: encode: JSONEncoder; parse: its output into a JSONValue; diff: JSONPatch.diff from")
    print("the previous state; state text: canonical text of the full state, paid for the share of entries that are keyframes.")
    print("full path: their sum, what each entry cost the writer before the change encoder.")
    print("writer: 1 ÷ measured ActionLog throughput, SQLite included.")
} catch {
    print("breakdown failed: \(error)")
}
print()

// MARK: - State at a random step

print("## State at a random step")
print()
/// Records a long session of `workload`: the first of `sizes` that the measured writer throughput
/// records within `budget` seconds (all of `sizes[0]` with `--long`), else as many as fit.
@MainActor func longSession<State, Action>(_ workload: Workload<State, Action>, sizes: [Int], measuredRate: Double, budget: Double) throws -> (count: Int, path: String, session: JournalSession.ID, elapsed: Double, note: String) {
    let fitting = longSessions ? sizes[0] : sizes.first { Double($0) / measuredRate <= budget } ?? max(2_000, Int(budget * measuredRate) / 1_000 * 1_000)
    var note = ""
    if fitting != sizes[0] {
        note = " \(workload.name): \(grouped(fitting)) entries instead of \(grouped(sizes[0])): at the measured \(rate(measuredRate)) actions/s"
            + " recording \(grouped(sizes[0])) would take ~\(fixed(Double(sizes[0]) / measuredRate, decimals: 0)) s"
            + (sizes.count > 1 ? " and \(grouped(sizes[1])) ~\(fixed(Double(sizes[1]) / measuredRate, decimals: 0)) s" : "")
            + " (run with --long for the full size)."
    }
    let path = "\(directory)/\(workload.name.filter { $0.isLetter || $0.isNumber })-long.actionlog"
    progress("recording \(grouped(fitting)) entries of \(workload.name)")
    let recorded = try recordLongSession(workload, count: fitting, path: path)
    if recorded.lost > 0 { note += " WARNING: \(recorded.lost) entries dropped or lost." }
    return (fitting, path, recorded.session, recorded.elapsed.seconds, note)
}

var randomSteps: [(name: String, entries: Int, result: RandomStepResult)] = []
var longCart: (path: String, session: JournalSession.ID)?
var randomTable = Table(["session", "entries", "recorded in", "samples", "state(at:)+decode", "keyframe parse", "parse+decode", "ratio", "keyframe read", "ratio", "median chain", "one entry"])
do {
    let counterRate = results[0].actionLogRate
    let counterSession = try longSession(counter, sizes: quick ? [20_000] : [1_000_000, 200_000], measuredRate: counterRate, budget: 45)
    progress("state at random steps: counter")
    let counterSteps = try measureRandomStep(Counter.self, path: counterSession.path, session: counterSession.session, entries: counterSession.count, samples: quick ? 10 : 50, budget: .seconds(quick ? 3 : 10))
    let cartRate = results[3].actionLogRate
    let cartSession = try longSession(cart1000, sizes: quick ? [1_000] : [100_000, 20_000], measuredRate: cartRate, budget: 40)
    longCart = (cartSession.path, cartSession.session)
    progress("state at random steps: cart N=1000")
    let cartSteps = try measureRandomStep(Cart.self, path: cartSession.path, session: cartSession.session, entries: cartSession.count, samples: quick ? 10 : 50, budget: .seconds(quick ? 3 : 10))
    for (name, session, steps) in [("counter", counterSession, counterSteps), ("cart N=1000", cartSession, cartSteps)] {
        randomSteps.append((name, session.count, steps))
        randomTable.add([
            name, grouped(session.count), fixed(session.elapsed, decimals: 1) + " s", "\(steps.samples)",
            time(steps.stateAt), time(steps.keyframeParse), time(steps.keyframeParseDecode),
            ratio(steps.ratio), time(steps.keyframeRead), ratio(steps.readRatio), fixed(steps.medianChain, decimals: 0), time(steps.oneEntry),
        ])
    }
    print(randomTable.render())
    print("ratio: state(at:)+decode ÷ (parse + decode of the session's largest keyframe, \(grouped(counterSteps.keyframeBytes)) B for the counter, \(grouped(cartSteps.keyframeBytes)) B for the cart).")
    print("keyframe read: the keyframe each sampled step starts from, read by primary key on a raw SQLite connection, parsed and")
    print("decoded (what reading any stored state costs at least: a read transaction, a b-tree descent); ratio: state(at:)+decode ÷ that.")
    print("one entry: Journal.entries(in:from:limit: 1).")
    print("keyframes: \(grouped(counterSteps.keyframes)) in the counter session, \(grouped(cartSteps.keyframes)) in the cart session.")
    print("bytes per entry over the whole session (every keyframe amortized): counter \(format(counterSteps.payloadBytesPerEntry)) JSON,"
        + " \(format(counterSteps.fileBytesPerEntry)) file; cart N=1000 \(format(cartSteps.payloadBytesPerEntry)) JSON, \(format(cartSteps.fileBytesPerEntry)) file"
        + (cartSteps.intervalPayloadBytesPerEntry.map { " (\(format($0)) JSON over whole keyframe intervals)." } ?? "."))
    for note in [counterSession.note, cartSession.note] where !note.isEmpty {
        print("note:\(note)")
    }
    removeDatabase(counterSession.path)
} catch {
    print("state-at-step measurement failed: \(error)")
}
print()

// MARK: - Replay

var replayCases: [ReplayCase] = [
    ReplayCase(counter, path: results[0].journalPath, session: results[0].sessionID, entries: results[0].entries, rate: results[0].actionLogRate),
    ReplayCase(cart10, path: results[1].journalPath, session: results[1].sessionID, entries: results[1].entries, rate: results[1].actionLogRate),
    ReplayCase(cart100, path: results[2].journalPath, session: results[2].sessionID, entries: results[2].entries, rate: results[2].actionLogRate),
    ReplayCase(cart1000, path: results[3].journalPath, session: results[3].sessionID, entries: results[3].entries, rate: results[3].actionLogRate),
    ReplayCase(search, path: results[4].journalPath, session: results[4].sessionID, entries: results[4].entries, rate: results[4].actionLogRate),
]
if let longCart {
    let entries = randomSteps.first { $0.name == cart1000.name }?.entries ?? 0
    replayCases.append(ReplayCase(cart1000, name: "cart N=1000, long", path: longCart.path, session: longCart.session, entries: entries, rate: nil, long: true))
}
let replays = runReplaySection(replayCases, ledgerTarget: quick ? 5_000 : 100_000, ledgerBudget: longSessions ? nil : .seconds(quick ? 10 : 45), repeats: runs, directory: directory)
print()

// MARK: - Readers at scale

runScaleSection(sizes: quick ? .quick : .reduced, repeats: runs, directory: directory)

// MARK: - Gaps

var gapCosts: [GapCost] = []
section(gapsHeading, measurement: "gap measurement") {
    gapCosts = try measureGapCosts(quick: quick, directory: directory, progress: progress)
    return gapCostReport(gapCosts)
}

// MARK: - The team store

runPostgresSection(url: postgresBenchURL(nil), entries: quick ? 10_000 : 100_000, repeats: runs, directory: directory)

// MARK: - Targets

print("## Targets")
print()
var targets = Table(["target", "measured", "verdict"])
@MainActor func target(_ name: String, _ measured: String, _ met: Bool) {
    targets.add([name, measured, verdict(met)])
}
let at10 = results[1], at1000 = results[3]
target("writer throughput ≥ 50× naive at N = 1000", ratio(at1000.actionLogRate / at1000.naiveRate), at1000.actionLogRate >= 50 * at1000.naiveRate)
target("writer throughput ≥ 8× naive at N = 10", ratio(at10.actionLogRate / at10.naiveRate), at10.actionLogRate >= 8 * at10.naiveRate)
target("writer within 3× of the floor at N = 10", "floor ÷ AL = " + ratio(at10.floorRate / at10.actionLogRate), at10.floorRate <= 3 * at10.actionLogRate)
// Bytes per entry at N = 1000 from the long session when there is one: the short run holds no keyframe after entry 0.
if let long = randomSteps.first(where: { $0.name == cart1000.name }) {
    let file = long.result.fileBytesPerEntry
    target("≤ 200 bytes/entry at N = 1000 (file, \(grouped(long.entries))-entry session)", format(file) + " B (JSON " + format(long.result.payloadBytesPerEntry) + " B)", file <= 200)
} else {
    target("≤ 200 bytes/entry at N = 1000 (file growth)", format(at1000.fileBytes) + " B (JSON " + format(at1000.payloadBytes) + " B)", at1000.fileBytes <= 200)
}
for (name, _, steps) in randomSteps {
    target("state at a random step ≤ 3× keyframe decode (\(name))", ratio(steps.ratio), steps.ratio <= 3)
}
for (name, replay) in replays {
    replayTarget(name, replay, add: target)
}
for cost in gapCosts {
    target("drops cost < 2× the bytes without (\(cost.name), \(grouped(cost.drops.gaps)) gaps)", ratio(cost.entryRatio) + " (file " + ratio(cost.fileRatio) + ")", cost.entryRatio < 2 && cost.fileRatio < 2)
}
print(targets.render())
print()
removeUnlessKept(directory)
print("Total time: \(fixed(benchStart.duration(to: clock.now).seconds, decimals: 0)) s")
