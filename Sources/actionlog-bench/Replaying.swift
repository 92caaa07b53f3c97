import ActionLog
import Foundation

/// One recorded session the replay section replays: a workload's reducer and where its session is.
@MainActor struct ReplayCase {
    var name: String
    var entries: Int
    /// The writer's measured actions per second for this workload, when known: `Replay.run()` is
    /// skipped where it would take over 10 s (it costs about what the writer does per entry).
    var rate: Double?
    /// Measures the session: decode only, rebuild+decode and, when asked, `Replay.run()`.
    var measure: (_ repeats: Int, _ runReplay: Bool) throws -> ReplayResult
    /// A long session: replayed after the ledger, and its journal removed once measured.
    var long: Bool
    /// Removes the session's journal.
    let remove: () -> Void

    init<State, Action>(_ workload: Workload<State, Action>, name: String? = nil, path: String, session: JournalSession.ID, entries: Int, rate: Double?, long: Bool = false) {
        self.name = name ?? workload.name
        self.entries = entries
        self.rate = rate
        self.long = long
        measure = { repeats, runReplay in
            try measureReplay(workload, path: path, session: session, repeats: repeats, runReplay: runReplay)
        }
        remove = { removeDatabase(path) }
    }
}

/// Prints the replay section: each case, then the ledger whose history grows by one line per action
/// (recorded here, up to `ledgerTarget` entries or what records within `ledgerBudget`). Returns
/// each session's figures, for the targets.
@MainActor func runReplaySection(
    _ cases: [ReplayCase], ledgerTarget: Int, ledgerBudget: Duration?, repeats: Int, directory: String
) -> [(name: String, result: ReplayResult)] {
    print("## Replay (the session of the last ActionLog run of each workload, a ledger whose history grows, and the long cart session)")
    print()
    var replays: [(name: String, result: ReplayResult)] = []
    var notes: [String] = []
    var table = Table([
        "session", "entries", "decode only", "rebuild+decode", "share", "share (CPU)", "share (instr.)", "start", "share after start",
        "Replay.run()", "share", "matched",
    ])
    func run(_ replayCase: ReplayCase) throws {
        progress("replay: \(replayCase.name)")
        let runReplay = replayCase.rate.map { Double(replayCase.entries) / $0 < 10 } ?? true
        let measured = try replayCase.measure(repeats, runReplay)
        replays.append((replayCase.name, measured))
        table.add([
            replayCase.name, grouped(measured.entries), time(measured.decodeOnly), time(measured.reconstruct), percent(measured.reconstructShare),
            percent(measured.reconstructShareCPU), measured.reconstructShareInstructions.map(percent) ?? "n/a",
            time(measured.start), percent(measured.shareAfterStart),
            measured.replay.map(time) ?? "skipped", measured.replayShare.map(percent) ?? "-", measured.replayMatched.map { $0 ? "yes" : "NO" } ?? "-",
        ])
        if replayCase.long, ProcessInfo.processInfo.environment["ACTIONLOG_BENCH_KEEP"] == nil { replayCase.remove() }
    }
    do {
        // The ledger's history grows by one line per action: replay must cost what changed, not the history's length.
        let ledger = ledgerWorkload(plan: Plan(actionLog: 0, naive: 0, floor: 0))
        let ledgerPath = "\(directory)/ledger-long.actionlog"
        progress("recording up to \(grouped(ledgerTarget)) entries of ledger")
        let ledgerSession = try recordGrowingSession(ledger, count: ledgerTarget, budget: ledgerBudget, path: ledgerPath)
        if ledgerSession.count < ledgerTarget || ledgerSession.lost > 0 {
            notes.append("ledger: \(grouped(ledgerSession.count)) entries (recorded in \(fixed(ledgerSession.elapsed.seconds, decimals: 0)) s) instead of \(grouped(ledgerTarget))"
                + (ledgerSession.lost > 0 ? ", WARNING: \(ledgerSession.lost) dropped or lost" : "") + "; run with --long for the full size.")
        }
        for replayCase in cases where !replayCase.long { try run(replayCase) }
        try run(ReplayCase(ledger, path: ledgerPath, session: ledgerSession.session, entries: ledgerSession.count, rate: nil, long: true))
        for replayCase in cases where replayCase.long { try run(replayCase) }
        print(table.render())
        print("decode only: JSONValue(parsing:) + decode of every action, texts already in memory. rebuild+decode: every entry read")
        print("as Replay.run() reads it (a cursor; StateWalk; a keyframe parsed when the delta after it needs it, the others")
        print("compared as text by a replay), every action decoded, the last state parsed. Replay.run() also reduces, encodes what changed (ChangeEncoder) and")
        print("compares the places either patch touched, plus a full encode and compare at each keyframe")
        print("(skipped where it would take over 10 s). share: decode-only time ÷ that time (100% = as fast as decoding the actions alone).")
        print("start: entry 0's keyframe parsed from its text in memory and freed, which every reading of the session from its")
        print("start pays once whatever the session's length; share after start: decode-only time ÷ (rebuild+decode − start).")
        print("share (CPU): the same in the measuring thread's CPU time, which leaves out the time the host gives other machines.")
        print("share (instr.): the same in instructions the measuring thread retired in user space (a perf-events counter), which")
        print("the host's load hardly moves: cache misses and waits do not count, so a host slow on memory moves the other two alone.")
        print("Decode only and rebuild+decode run in alternation, each a median of the rounds, so that a change in the host's")
        print("speed weighs on both.")
        for note in notes { print("note: \(note)") }
    } catch {
        print("replay measurement failed: \(error)")
    }
    return replays
}

/// Adds the replay target of one session to the targets table.
@MainActor func replayTarget(_ name: String, _ replay: ReplayResult, add: (String, String, Bool) -> Void) {
    add(
        "replay ≥ 50% of decode-only speed (\(name))",
        percent(replay.reconstructShare) + " (CPU: " + percent(replay.reconstructShareCPU)
            + (replay.reconstructShareInstructions.map { ", instr.: " + percent($0) } ?? "") + "; after the start: "
            + percent(replay.shareAfterStart) + ")"
            + (replay.replayShare.map { " (Replay.run(): " + percent($0) + ")" } ?? ""),
        replay.reconstructShare >= 0.5)
}
