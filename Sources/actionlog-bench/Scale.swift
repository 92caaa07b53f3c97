import ActionLog
import CSQLite
import Foundation
import Replayer

// The scale section (`--scale`): every reader of a long session run as a child process, so that its
// peak memory is its own, against a plain SELECT over the same rows, at a full and a half size.
// Linear readers take twice the time at twice the size; bounded ones the same memory.

// MARK: - Sizes

/// How many actions the scale section records per session.
struct ScaleSizes {
    var counter: Int
    var ledger: Int
    /// Seconds after which a reader is killed and reported as slower than that.
    var timeLimit: Double

    /// `--scale`: 1,000,000 counter entries, 100,000 ledger entries.
    static let full = ScaleSizes(counter: 1_000_000, ledger: 100_000, timeLimit: 300)
    /// The default run: a tenth.
    static let reduced = ScaleSizes(counter: 100_000, ledger: 10_000, timeLimit: 60)
    /// `--quick`: a hundredth.
    static let quick = ScaleSizes(counter: 10_000, ledger: 1_000, timeLimit: 30)
}

/// What one reader cost on one session.
struct ReaderCost {
    var command: String
    var workload: String
    var entries: Int
    /// Seconds (median over the runs or samples).
    var time: Double
    /// The largest peak resident memory over the runs, bytes.
    var peakResident: Int
    /// The plain SELECT over the same rows, seconds.
    var floor: Double
    /// `log --json`: seconds until the first line.
    var firstLine: Double?
    /// Killed at the time limit (then ``time`` is the limit and ``peakResident`` the peak until then).
    var timedOut = false

    var timeText: String { (timedOut ? "> " : "") + duration(self.time) }
    var residentText: String { (timedOut ? "≥ " : "") + megabytes(peakResident) }
}

/// A recorded session to read.
struct ScaleSession {
    var workload: String
    var path: String
    var id: JournalSession.ID
    /// Actions recorded (the session holds one more entry: the initial state).
    var actions: Int
    var recordingSeconds: Double
}

// MARK: - The section

/// Records the counter and ledger sessions at `sizes` and at half of them, runs every reader on each
/// as a child process, and prints the costs and the full ÷ half ratios. Failures are printed, never fatal.
func runScaleSection(sizes: ScaleSizes, repeats: Int, directory: String) {
    // Kept with the rest of the directory when ACTIONLOG_BENCH_KEEP is set (see removeUnlessKept).
    let folder = "\(directory)/scale"
    defer { if ProcessInfo.processInfo.environment["ACTIONLOG_BENCH_KEEP"] == nil { try? FileManager.default.removeItem(atPath: folder) } }
    do {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let cli = siblingExecutable("replay-cli")
        guard FileManager.default.isExecutableFile(atPath: cli) else {
            print("## Readers at scale: skipped, no replay-cli beside this binary (\(cli)).")
            print("Build both first: swift build -c release && ./.build/release/actionlog-bench --scale")
            print()
            return
        }
        try measureScale(sizes: sizes, repeats: repeats, folder: folder, cli: cli)
    } catch {
        print("scale measurement failed: \(error)")
    }
    print()
}

private func measureScale(sizes: ScaleSizes, repeats: Int, folder: String, cli: String) throws {
    let start = clock.now
    func progress(_ text: String) {
        FileHandle.standardError.write(Data("… scale: \(text) (\(fixed(start.duration(to: clock.now).seconds, decimals: 0)) s)\n".utf8))
    }
    var sessions: [(full: ScaleSession, half: ScaleSession)] = []
    for (workload, count) in scaleWorkloads(sizes) {
        var pair: [ScaleSession] = []
        for actions in [count, count / 2] {
            progress("recording \(grouped(actions)) \(workload) entries")
            let path = "\(folder)/\(workload)-\(actions).actionlog"
            let recorded = try recordScaleSession(workload, count: actions, path: path)
            pair.append(ScaleSession(workload: workload, path: path, id: recorded.session, actions: actions, recordingSeconds: recorded.seconds))
        }
        sessions.append((pair[0], pair[1]))
    }

    let startup = try runChild(cli, ["--version"], output: .discard)
    let spawnFloor = try runChild("/bin/true", [], output: .discard)
    var full: [ReaderCost] = []
    var half: [ReaderCost] = []
    for pair in sessions {
        progress("readers: \(grouped(pair.full.actions)) \(pair.full.workload) entries")
        full += try measureReaders(pair.full, repeats: repeats, timeLimit: sizes.timeLimit, folder: folder, cli: cli)
        progress("readers: \(grouped(pair.half.actions)) \(pair.half.workload) entries")
        half += try measureReaders(pair.half, repeats: repeats, timeLimit: sizes.timeLimit, folder: folder, cli: cli)
    }

    print("## Readers at scale (each a child process: time, and peak RSS from wait4)")
    print()
    for pair in sessions {
        for session in [pair.full, pair.half] {
            let perSecond = Double(session.actions) / session.recordingSeconds
            print("recorded \(grouped(session.actions)) \(session.workload) entries in \(fixed(session.recordingSeconds, decimals: 1)) s (\(rate(perSecond))/s)")
        }
    }
    print("replay-cli --version: \(time(startup.elapsed)), \(megabytes(startup.peakResidentBytes)) MB (what starting the process costs);"
        + " /bin/true: \(megabytes(spawnFloor.peakResidentBytes)) MB (the least a child's peak reads here)")
    print()
    var table = Table(["command", "session", "entries", "time", "peak RSS MB", "SELECT floor", "÷ floor", "first line"])
    for cost in full {
        table.add([
            cost.command, cost.workload, grouped(cost.entries), cost.timeText, cost.residentText,
            time(cost.floor), (cost.timedOut ? "> " : "") + ratio(cost.time / cost.floor), cost.firstLine.map(time) ?? "",
        ])
    }
    print(table.render())
    print("time: median of \(repeats) run\(repeats == 1 ? "" : "s") (state, diff: of the samples), process start included;"
        + " a reader still running after \(fixed(sizes.timeLimit, decimals: 0)) s is killed and shown as \"> \(fixed(sizes.timeLimit, decimals: 0)) s\".")
    print("SELECT floor: `SELECT seq, kind, time, label, action, state, effect FROM entries WHERE session_id = ? ORDER BY seq`")
    print("on a bare sqlite3 connection, opened, every row stepped and every text byte read; state and diff: only the rows")
    print("from the keyframe at or before each entry asked for up to it; why: only the rows it lists (seq = ?, one statement reused).")
    print("first line: from spawn to the first newline on the pipe.")
    print()

    var linearity = Table(["command", "session", "entries", "time", "half: time", "full ÷ half", "floor: full ÷ half", "RSS MB", "half: RSS MB", "full ÷ half"])
    for (big, small) in zip(full, half) {
        linearity.add([
            big.command, big.workload, "\(grouped(big.entries)) / \(grouped(small.entries))",
            big.timeText, small.timeText, big.timedOut || small.timedOut ? "n/a" : ratio(big.time / small.time), ratio(big.floor / small.floor),
            big.residentText, small.residentText,
            big.timedOut || small.timedOut ? "n/a" : ratio(Double(big.peakResident) / Double(small.peakResident)),
        ])
    }
    print(linearity.render())
    print("Twice the entries: time ×2 is linear (×4 quadratic); peak RSS ×1 is bounded. floor: full ÷ half says how much the rows")
    print("read grew: the ledger's keyframes hold its whole history, so its bytes need not double with its entries; a reader is linear")
    print("when its ratio follows the floor's. State and diff read one keyframe and its chain, whatever the session's length; the")
    print("ledger's state grows with the session, so what holds it grows too. Figures, never assertions.")
}

// MARK: - Recording

/// The long sessions the scale and viewer sections read, by workload name, with their sizes: the
/// counter and the ledger whose history grows.
func scaleWorkloads(_ sizes: ScaleSizes) -> [(name: String, count: Int)] {
    let plan = Plan(actionLog: 0, naive: 0, floor: 0)
    return [(counterWorkload(plan: plan).name, sizes.counter), (ledgerWorkload(plan: plan).name, sizes.ledger)]
}

/// Records `count` actions of the counter or the ledger (by ``scaleWorkloads(_:)``'s name) with the
/// queue each suits. The counter's states are one Int: a deep queue costs nothing. Each queued
/// ledger state is its own copy of the history (the reducer appends while the queue holds the
/// previous one), so its queue stays short; `.wait` back-pressure means nothing drops either way.
func recordScaleSession(_ workload: String, count: Int, path: String) throws -> (seconds: Double, session: JournalSession.ID) {
    let plan = Plan(actionLog: 0, naive: 0, floor: 0)
    let counter = counterWorkload(plan: plan)
    return workload == counter.name
        ? try recordScaleSession(counter, count: count, path: path, queue: 4_096, batch: 256)
        : try recordScaleSession(ledgerWorkload(plan: plan), count: count, path: path, queue: 32, batch: 16)
}

/// Records `count` actions with the library's `Recorder`; back-pressure waits, so nothing is dropped.
func recordScaleSession<State, Action>(
    _ workload: Workload<State, Action>, count: Int, path: String, queue: Int, batch: Int
) throws -> (seconds: Double, session: JournalSession.ID) {
    var configuration = RecorderConfiguration()
    configuration.queueCapacity = queue
    configuration.batchSize = batch
    configuration.backpressure = .wait(timeout: .seconds(600))
    let start = clock.now
    let recorder = try Recorder<State, Action, Never>(path: path, sessionName: workload.name, initialState: workload.initial, configuration: configuration)
    var state = workload.initial
    var done = 0
    while done < count {
        let chunk = min(65_536, count - done)
        for action in workload.actions(chunk) {
            workload.reduce(&state, action)
            recorder.record(action: action, state: state)
        }
        done += chunk
    }
    recorder.flush()
    recorder.close()
    let seconds = start.duration(to: clock.now).seconds
    let statistics = recorder.statistics
    guard statistics.dropped + statistics.lost == 0 else {
        throw BenchError("\(path): \(statistics.dropped) entries dropped and \(statistics.lost) lost while recording")
    }
    return (seconds, recorder.sessionID)
}

// MARK: - Readers

/// Every reader on `session`, each as a child process, with its SELECT floor.
private func measureReaders(_ session: ScaleSession, repeats: Int, timeLimit: Double, folder: String, cli: String) throws -> [ReaderCost] {
    let file = session.path, id = String(session.id), entries = session.actions + 1
    let whole = try medianTime(repeats: 3, budget: .seconds(30)) {
        _ = try selectFloor(path: file, session: session.id, from: 0, through: session.actions)
    }
    var costs: [ReaderCost] = []
    @discardableResult
    func measure(_ command: String, executable: String = cli, output: ChildOutput = .discard, _ arguments: (Int) -> [String]) throws -> [ChildRun] {
        var runs: [ChildRun] = []
        for run in 0..<repeats {
            runs.append(try runChild(executable, arguments(run), output: output, timeLimit: timeLimit))
            if runs[run].timedOut { break }  // The others would too.
        }
        costs.append(ReaderCost(
            command: command, workload: session.workload, entries: entries,
            time: median(runs.map(\.elapsed)), peakResident: runs.map(\.peakResidentBytes).max() ?? 0, floor: whole,
            timedOut: runs.contains { $0.timedOut }
        ))
        return runs.filter { !$0.timedOut }
    }
    let slug = "\(session.workload)-\(session.actions)"
    let exported = "\(folder)/\(slug).jsonl"
    try measure("export") { _ in
        removeDatabase(exported)
        return ["export", file, "--session", id, "--output", exported]
    }
    try measure("import") { run in
        let target = "\(folder)/\(slug)-imported-\(run).actionlog"
        removeDatabase(target)
        return ["import", exported, "--into", target]
    }
    for run in 0..<repeats { removeDatabase("\(folder)/\(slug)-imported-\(run).actionlog") }
    removeDatabase(exported)
    try measure("log") { _ in ["log", file, "--session", id] }
    try measure("log --json") { _ in ["log", file, "--session", id, "--json"] }
    let firstLines = try (0..<repeats).map { _ in
        try runChild(cli, ["log", file, "--session", id, "--json"], output: .firstLine, timeLimit: timeLimit).firstLine ?? .nan
    }
    costs[costs.count - 1].firstLine = median(firstLines)
    try measure("verify") { _ in ["verify", file] }

    // Random steps: the same seeds at both sizes, so the half session is asked the same share of its length.
    var random = SplitMix64(seed: 5)
    let samples = 5
    let steps = (0..<samples).map { _ in 1 + random.next(below: session.actions) }
    try sampled("state --at N", steps.map { [$0] }, session: session, timeLimit: timeLimit, into: &costs, cli: cli) { ["state", file, "--session", id, "--at", String($0[0])] }
    let pairs = (0..<samples).map { _ -> [Int] in
        let from = random.next(below: max(1, session.actions - 10))
        return [from, from + 1 + random.next(below: 10)]
    }
    try sampled("diff A B (B−A ≤ 10)", pairs, session: session, timeLimit: timeLimit, into: &costs, cli: cli) { ["diff", file, "--session", id, String($0[0]), String($0[1])] }

    costs += try measureWhy(session, repeats: repeats, timeLimit: timeLimit, cli: cli)

    let replays = try measure("Replay.run()", executable: ownExecutable().path, output: .capture) { _ in ["--replay-child", file, id, session.workload] }
    let expected = "\(session.actions) match"  // Replay counts the entries after the initial state.
    for run in replays where run.output.trimmingCharacters(in: .whitespacesAndNewlines) != expected {
        throw BenchError("--replay-child \(file) answered \"\(run.output)\", not \"\(expected)\"")
    }
    return costs
}

/// A reader asked about a few entries: one child per sample; the median time, the largest peak, and
/// the median floor over the rows each sample reads (from the keyframe at or before each entry up to it).
private func sampled(
    _ command: String, _ samples: [[Int]], session: ScaleSession, timeLimit: Double, into costs: inout [ReaderCost], cli: String,
    _ arguments: ([Int]) -> [String]
) throws {
    var times: [Double] = []
    var peaks: [Int] = []
    var floors: [Double] = []
    var timedOut = false
    for sample in samples where !timedOut {
        let run = try runChild(cli, arguments(sample), timeLimit: timeLimit)
        times.append(run.elapsed)
        peaks.append(run.peakResidentBytes)
        timedOut = run.timedOut
        var floor = 0.0
        for seq in sample {
            let keyframe = try keyframeSeq(path: session.path, session: session.id, atOrBefore: seq)
            floor += try selectFloor(path: session.path, session: session.id, from: keyframe, through: seq)
        }
        floors.append(floor)
    }
    costs.append(ReaderCost(
        command: command, workload: session.workload, entries: session.actions + 1,
        time: median(times), peakResident: peaks.max() ?? 0, floor: median(floors), timedOut: timedOut
    ))
}

// MARK: - The SELECT floor

/// Opens `path` on a bare sqlite3 connection and steps entries `from...through` of `session`, reading
/// every column and every byte of each text column: what any reader of those rows pays at least. Seconds.
func selectFloor(path: String, session: JournalSession.ID, from: Int, through: Int) throws -> Double {
    let start = clock.now
    let database = try Database(path: path, readOnly: true)
    let query = try database.prepare("""
        SELECT seq, kind, time, label, action, state, effect FROM entries
        WHERE session_id = ?1 AND seq BETWEEN ?2 AND ?3 ORDER BY seq
        """)
    query.bind(1, Int(session))
    query.bind(2, from)
    query.bind(3, through)
    var checksum = 0
    while try query.step() {
        checksum &+= Int(sqlite3_column_int64(query.handle, 0))
        checksum &+= Int(sqlite3_column_double(query.handle, 2))
        for column: Int32 in [1, 3, 4, 5, 6] {
            guard let text = sqlite3_column_text(query.handle, column) else { continue }
            let bytes = UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(query.handle, column)))
            checksum &+= bytes.reduce(0) { $0 &+ Int($1) }
        }
    }
    let elapsed = start.duration(to: clock.now).seconds
    blackHole(checksum)
    return elapsed
}

/// The keyframe a state at `seq` is rebuilt from.
private func keyframeSeq(path: String, session: JournalSession.ID, atOrBefore seq: Int) throws -> Int {
    let database = try Database(path: path, readOnly: true)
    let query = try database.prepare("SELECT coalesce(max(seq), 0) FROM entries WHERE session_id = ?1 AND seq <= ?2 AND kind = 'keyframe'")
    query.bind(1, Int(session))
    query.bind(2, seq)
    guard try query.step() else { return 0 }
    return query.int(0)
}

// MARK: - The replay child

/// `actionlog-bench --replay-child PATH SESSION counter|ledger`: replays the session with the
/// workload's reducer and prints the number of entries and whether they matched, so that
/// `Replay.run()` gets a process, and a peak memory, of its own. Returns the exit status.
func replayChild(_ arguments: [String]) -> Int32 {
    guard arguments.count == 3, let session = JournalSession.ID(arguments[1]) else {
        return childFailure("usage: actionlog-bench --replay-child PATH SESSION counter|ledger|chunked-ledger|cart|search", usage: true)
    }
    do {
        let journal = try Journal(path: arguments[0])
        let report: ReplayReport
        switch arguments[2] {
        case "counter": report = try Replay<Counter, CounterAction, Never>(journal: journal, session: session, reducer: Counter.reduce).run()
        case "ledger": report = try Replay<Ledger, LedgerAction, Never>(journal: journal, session: session, reducer: Ledger.reduce).run()
        case "chunked-ledger": report = try Replay<ChunkedLedger, LedgerAction, Never>(journal: journal, session: session, reducer: ChunkedLedger.reduce).run()
        case "cart": report = try Replay<Cart, CartAction, Never>(journal: journal, session: session, reducer: Cart.reduce).run()
        case "search": report = try Replay<CitySearch, SearchAction, Never>(journal: journal, session: session, reducer: CitySearch.reduce).run()
        default:
            return unknownWorkload("--replay-child", arguments[2])
        }
        print("\(report.entriesReplayed) \(report.isMatch ? "match" : "diverged")")
        return 0
    } catch {
        return childFailure("--replay-child: \(error)")
    }
}

/// What a child entry point says when it cannot do its work: `message` on standard error, and the
/// exit status to return (64 for a usage error, as `sysexits.h` has it; 1 otherwise).
private func childFailure(_ message: String, usage: Bool = false) -> Int32 {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    return usage ? 64 : 1
}

/// The usage error of a child entry point given an unknown workload.
private func unknownWorkload(_ flag: String, _ name: String) -> Int32 {
    childFailure("\(flag): unknown workload \(name); counter, ledger, cart or search", usage: true)
}

/// `actionlog-bench --rebuild-child PATH SESSION counter|ledger|cart|search REPEATS`: the replay
/// section's rebuild+decode loop (``rebuild(_:session:decoding:decoder:)``),
/// `REPEATS` times, with nothing else in the process: what to put under `perf stat`, `perf record`
/// or `valgrind --tool=callgrind` when working on the read path. Prints the entries read per
/// repeat. Returns the exit status.
func rebuildChild(_ arguments: [String]) -> Int32 {
    readingChild("--rebuild-child", arguments, RebuildLoop.self)
}

/// `actionlog-bench --decode-child PATH SESSION counter|ledger|cart|search REPEATS`: the replay
/// section's decode-only loop (``decodeActions(_:decoding:decoder:)``) over the session's action texts,
/// read once first, `REPEATS` times: the other side of `--rebuild-child`'s share. Returns the exit
/// status.
func decodeChild(_ arguments: [String]) -> Int32 {
    readingChild("--decode-child", arguments, DecodeLoop.self)
}

/// A loop a reading child repeats, made for a workload's action type (a generic function, so that
/// the loop is specialized for it as in the replay section).
private protocol ReadingLoop {
    /// Prepares the loop; each call of the result reads the session once and returns its count.
    static func make<Action: Decodable>(path: String, session: JournalSession.ID, decoding: Action.Type, decoder: JSONDecoder) throws -> () throws -> Int
}

private enum RebuildLoop: ReadingLoop {
    static func make<Action: Decodable>(path: String, session: JournalSession.ID, decoding: Action.Type, decoder: JSONDecoder) throws -> () throws -> Int {
        let journal = try Journal(path: path)
        return { try rebuild(journal, session: session, decoding: Action.self, decoder: decoder) }
    }
}

private enum DecodeLoop: ReadingLoop {
    static func make<Action: Decodable>(path: String, session: JournalSession.ID, decoding: Action.Type, decoder: JSONDecoder) throws -> () throws -> Int {
        let texts = try actionTexts(path: path, session: session)
        return {
            try decodeActions(texts, decoding: Action.self, decoder: decoder)
            return texts.count
        }
    }
}

/// Runs a reading child: `Loop`'s loop for the workload named in the arguments, `REPEATS` times,
/// then prints the count of the last run. Returns the exit status.
private func readingChild<Loop: ReadingLoop>(_ flag: String, _ arguments: [String], _: Loop.Type) -> Int32 {
    guard arguments.count == 4, let session = JournalSession.ID(arguments[1]), let repeats = Int(arguments[3]), repeats > 0 else {
        return childFailure("usage: actionlog-bench \(flag) PATH SESSION counter|ledger|cart|search REPEATS", usage: true)
    }
    let (path, decoder) = (arguments[0], JSONDecoder())
    do {
        let loop: () throws -> Int
        switch arguments[2] {
        case "counter": loop = try Loop.make(path: path, session: session, decoding: CounterAction.self, decoder: decoder)
        case "ledger": loop = try Loop.make(path: path, session: session, decoding: LedgerAction.self, decoder: decoder)
        case "cart": loop = try Loop.make(path: path, session: session, decoding: CartAction.self, decoder: decoder)
        case "search": loop = try Loop.make(path: path, session: session, decoding: SearchAction.self, decoder: decoder)
        default: return unknownWorkload(flag, arguments[2])
        }
        var count = 0
        for _ in 0..<repeats { count = try loop() }
        print("\(count) entries")
        return 0
    } catch {
        return childFailure("\(flag): \(error)")
    }
}

/// `actionlog-bench --parse-child FILE REPEATS`: parses the JSON text in `FILE` with
/// `JSONValue(parsing:)` `REPEATS` times, with nothing else in the process: what to put under
/// `perf stat` or `perf record` when working on the parser (a keyframe saved with
/// `sqlite3 JOURNAL "SELECT state FROM entries WHERE …" > FILE`). Returns the exit status.
func parseChild(_ arguments: [String]) -> Int32 {
    guard arguments.count == 2, let repeats = Int(arguments[1]), repeats > 0,
        let data = FileManager.default.contents(atPath: arguments[0])
    else {
        return childFailure("usage: actionlog-bench --parse-child FILE REPEATS", usage: true)
    }
    let bytes = [UInt8](data)
    do {
        for _ in 0..<repeats { blackHole(try JSONValue(parsing: bytes)) }
        print("\(bytes.count) bytes parsed \(repeats) times")
        return 0
    } catch {
        return childFailure("--parse-child: \(error)")
    }
}

/// `actionlog-bench --share-child PATH SESSION counter|ledger|cart|search [REPEATS]`: the replay
/// section's decode-only and rebuild+decode figures (median of `REPEATS`, 5 unless given) and their
/// share for one session of a kept journal (`ACTIONLOG_BENCH_KEEP=1`), without recording anything
/// first. `Replay.run()` is left out. Returns the exit status.
func shareChild(_ arguments: [String]) -> Int32 {
    guard arguments.count == 3 || arguments.count == 4, let session = JournalSession.ID(arguments[1]) else {
        return childFailure("usage: actionlog-bench --share-child PATH SESSION counter|ledger|cart|search [REPEATS]", usage: true)
    }
    let repeats = arguments.count == 4 ? Int(arguments[3]) ?? 5 : 5
    let plan = Plan(actionLog: 0, naive: 0, floor: 0)
    func measure<State, Action>(_ workload: Workload<State, Action>) throws -> ReplayResult {
        try measureReplay(workload, path: arguments[0], session: session, repeats: repeats, runReplay: false)
    }
    do {
        let result: ReplayResult
        switch arguments[2] {
        case "counter": result = try measure(counterWorkload(plan: plan))
        case "ledger": result = try measure(ledgerWorkload(plan: plan))
        // Only the types and the reducer matter here: the cart's size comes from the journal.
        case "cart": result = try measure(cartWorkload(items: 0, plan: plan))
        case "search": result = try measure(searchWorkload(plan: plan))
        default:
            return unknownWorkload("--share-child", arguments[2])
        }
        let instructions = result.reconstructShareInstructions.map { ", instructions: \(percent($0))" } ?? ""
        print("\(grouped(result.entries)) entries: decode only \(time(result.decodeOnly)), rebuild+decode \(time(result.reconstruct)), share \(percent(result.reconstructShare)) (CPU: \(percent(result.reconstructShareCPU))\(instructions)); start \(time(result.start)), share after it \(percent(result.shareAfterStart))")
        return 0
    } catch {
        return childFailure("--share-child: \(error)")
    }
}

/// Seconds in the unit that suits them (``time(_:)``, for where a property named `time` hides it).
private func duration(_ seconds: Double) -> String { time(seconds) }

/// Bytes as megabytes with one decimal.
private func megabytes(_ bytes: Int) -> String {
    fixed(Double(bytes) / 1_048_576, decimals: 1)
}
