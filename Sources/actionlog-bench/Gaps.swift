import ActionLog
import Foundation

// What dropped actions cost the file: the same actions of a state that grows with every action,
// recorded once with nothing dropped and once with drops made deterministic (the writer takes
// nothing until a flush, after every `kept + dropped` dispatches, from a queue of `kept`). The entry
// after each gap is stored as what changed since the last stored state, so the session with drops
// costs its gaps, not a keyframe of the whole history per gap.

/// A chat whose state gains one message per action.
struct Chat: Codable, Equatable, Sendable {
    var messages: [String] = []

    static func reduce(_ state: inout Chat, _ action: ChatAction) {
        switch action {
        case .post(let text): state.messages.append(text)
        }
    }

    /// `count` messages of about 40 characters.
    static func actions(_ count: Int) -> [ChatAction] {
        (0..<count).map { .post("message \($0) of the burst, as a chat shows it") }
    }
}

enum ChatAction: Codable, Equatable, Sendable {
    case post(String)
}

/// One recording of a gap-cost case.
struct GapRecording {
    var dropped: Int
    var gaps: Int
    var keyframes: Int
    /// The UTF-8 bytes of the entries' states and actions.
    var entryBytes: Int
    var fileBytes: Int
}

/// One row of the gap-cost table: the same actions without drops and with them.
struct GapCost {
    var name: String
    var actions: Int
    var plain: GapRecording
    var drops: GapRecording

    /// Entry bytes with drops ÷ without.
    var entryRatio: Double { Double(drops.entryBytes) / Double(max(1, plain.entryBytes)) }
    /// File bytes with drops ÷ without.
    var fileRatio: Double { Double(drops.fileBytes) / Double(max(1, plain.fileBytes)) }
}

/// Records `actions` into a journal of its own, with drops every `cycle` when given.
private func recordGapCase<State: Codable & Sendable, Action: Codable & Sendable>(
    path: String, initial: State, actions: [Action], reduce: (inout State, Action) -> Void, cycle: (kept: Int, dropped: Int)?
) throws -> GapRecording {
    defer {
        if ProcessInfo.processInfo.environment["ACTIONLOG_BENCH_KEEP"] == nil { removeDatabase(path) } else { print("kept: \(path)") }
    }
    var configuration = RecorderConfiguration()
    configuration.onError = { _ in }
    configuration.writerWaitsForFlush = true
    configuration.queueCapacity = cycle?.kept ?? 4_096
    configuration.queueByteCapacity = 1 << 40
    configuration.backpressure = .drop
    var state = initial
    let recorder = try Recorder<State, Action, Never>(path: path, sessionName: "gaps", initialState: state, configuration: configuration)
    // Without drops, a flush every 4,096 actions keeps the queue from filling; with, every cycle.
    let period = cycle.map { $0.kept + $0.dropped } ?? 4_096
    for (index, action) in actions.enumerated() {
        reduce(&state, action)
        recorder.record(action: action, state: state)
        if (index + 1) % period == 0 { recorder.flush() }
    }
    recorder.close()
    let database = try Database(path: path, readOnly: true)
    let query = try database.prepare("""
        SELECT sum(kind = 'gap'), sum(kind = 'keyframe'), sum(coalesce(length(CAST(state AS BLOB)), 0) + coalesce(length(CAST(action AS BLOB)), 0))
        FROM entries WHERE session_id = ?1
        """)
    query.bind(1, Int(recorder.sessionID))
    _ = try query.step()
    let fileBytes = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    return GapRecording(
        dropped: recorder.statistics.dropped, gaps: query.int(0), keyframes: query.int(1), entryBytes: query.int(2), fileBytes: fileBytes)
}

/// The gap-cost rows: a chat and the ledger, each a state that grows with every action.
func measureGapCosts(quick: Bool, directory: String, progress: (String) -> Void) throws -> [GapCost] {
    // The newcomer's burst: 48,000 actions; every 128 dispatches, 64 kept and 64 dropped (375 gaps).
    let count = quick ? 4_000 : 48_000
    let cycle = (kept: 64, dropped: 64)
    var costs: [GapCost] = []
    func measure<State: Codable & Sendable, Action: Codable & Sendable>(
        _ name: String, initial: State, actions: [Action], reduce: (inout State, Action) -> Void
    ) throws {
        let file = name.filter { $0.isLetter || $0.isNumber }
        progress("gaps: \(name), no drops")
        let plain = try recordGapCase(path: "\(directory)/gaps-\(file)-plain.actionlog", initial: initial, actions: actions, reduce: reduce, cycle: nil)
        progress("gaps: \(name), drops")
        let drops = try recordGapCase(path: "\(directory)/gaps-\(file)-drops.actionlog", initial: initial, actions: actions, reduce: reduce, cycle: cycle)
        costs.append(GapCost(name: name, actions: actions.count, plain: plain, drops: drops))
    }
    try measure("chat", initial: Chat(), actions: Chat.actions(count), reduce: Chat.reduce)
    try measure("ledger", initial: Ledger(), actions: Ledger.actions(count), reduce: Ledger.reduce)
    return costs
}

/// The gap-cost table and its legend.
func gapCostReport(_ costs: [GapCost]) -> String {
    var table = Table(
        ["state", "actions", "dropped", "gaps", "keyframes", "entry MB", "drops: keyframes", "drops: entry MB", "÷", "file MB", "drops: file MB", "÷"],
        leftAligned: [0])
    for cost in costs {
        table.add([
            cost.name, grouped(cost.actions), grouped(cost.drops.dropped), grouped(cost.drops.gaps),
            grouped(cost.plain.keyframes), fixed(Double(cost.plain.entryBytes) / 1e6, decimals: 2),
            grouped(cost.drops.keyframes), fixed(Double(cost.drops.entryBytes) / 1e6, decimals: 2), ratio(cost.entryRatio),
            fixed(Double(cost.plain.fileBytes) / 1e6, decimals: 2), fixed(Double(cost.drops.fileBytes) / 1e6, decimals: 2), ratio(cost.fileRatio),
        ])
    }
    return [
        table.render(),
        "The same actions of a state that gains an element per action (chat: a message of ~45 characters; ledger: a line),",
        "recorded without drops and with: the writer takes nothing until a flush after every 128 dispatches, from a queue of",
        "64, so each run of 128 keeps 64 and drops 64 (deterministic, never timed). entry MB: the states' and actions' UTF-8",
        "bytes; file MB: the journal's size. ÷: with drops over without (the target: under 2). The entry after each gap holds",
        "what changed since the state before the gap, under the keyframe policy, as any other entry.",
    ].joined(separator: "\n")
}
