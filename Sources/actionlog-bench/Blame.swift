import ActionLog
import CSQLite
import Foundation

// Field blame at scale: `replay-cli why` on the long sessions, beside a plain SELECT of the rows it
// lists, as rows of the scale section's table.

/// `why` on a path every entry changes, one a few entries changed long ago, and (ledger) a path
/// whose children every entry adds; each as a child process, its floor a SELECT of the rows it lists.
func measureWhy(_ session: ScaleSession, repeats: Int, timeLimit: Double, cli: String) throws -> [ReaderCost] {
    let file = session.path, id = String(session.id)
    var costs: [ReaderCost] = []
    for path in whyPaths[session.workload] ?? [] {
        var runs: [ChildRun] = []
        for _ in 0..<repeats {
            runs.append(try runChild(cli, ["why", file, "--session", id, path, "--json"], output: .capture, timeLimit: timeLimit))
        }
        let listed = try whySeqs(runs.last?.output ?? "")
        let floor = median(try (0..<3).map { _ in try selectRows(path: file, session: session.id, seqs: listed) })
        costs.append(ReaderCost(
            command: "why \(path) (\(listed.count) listed)", workload: session.workload, entries: session.actions + 1,
            time: median(runs.map(\.elapsed)), peakResident: runs.map(\.peakResidentBytes).max() ?? 0, floor: floor,
            timedOut: runs.contains { $0.timedOut }))
    }
    return costs
}

/// The paths `why` is asked about, by workload: one every entry changes, one changed at the start only,
/// and for the ledger the history, whose children every entry adds.
private let whyPaths = [
    "counter": ["/count"],
    "ledger": ["/balanceCents", "/history/0/memo", "/history"],
]

/// The entries `why --json` listed.
private func whySeqs(_ output: String) throws -> [Int] {
    guard let object = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any],
        let changes = object["changes"] as? [[String: Any]]
    else { throw BenchError("why printed no changes: \(output.prefix(200))") }
    return changes.compactMap { ($0["seq"] as? NSNumber)?.intValue }
}

/// Opens `path` on a bare sqlite3 connection and reads the rows of `seqs`, every byte of their texts:
/// the least a reader listing those entries pays. Seconds.
private func selectRows(path: String, session: JournalSession.ID, seqs: [Int]) throws -> Double {
    let start = clock.now
    let database = try Database(path: path, readOnly: true)
    let query = try database.prepare("SELECT seq, kind, time, label, action, state, effect FROM entries WHERE session_id = ?1 AND seq = ?2")
    var checksum = 0
    for seq in seqs {
        query.bind(1, Int(session))
        query.bind(2, seq)
        while try query.step() {
            for column: Int32 in [1, 3, 4, 5, 6] {
                guard let text = sqlite3_column_text(query.handle, column) else { continue }
                checksum &+= UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(query.handle, column))).reduce(0) { $0 &+ Int($1) }
            }
        }
        query.reset()
    }
    blackHole(checksum)
    return start.duration(to: clock.now).seconds
}

