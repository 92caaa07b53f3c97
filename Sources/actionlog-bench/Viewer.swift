import ActionLog
import ActionLogViewer
import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// The viewer section (`--viewer`): the time `replay-cli serve` takes, over HTTP on 127.0.0.1, to
// answer each request the page makes while stepping through the long counter and ledger sessions:
// the session list, the first window of the timeline, a window at 90% of the session, a filtered
// window, and the entry at random steps (its state, one keyframe plus deltas, and its change).
// Each figure is the median of several requests, measured from the client: connect, request, the
// whole answer read.

/// Records the long sessions at `sizes`, serves them with `ViewerServer`, and prints the time per request.
func runViewerSection(sizes: ScaleSizes, directory: String) {
    let folder = "\(directory)/viewer"
    // ACTIONLOG_BENCH_KEEP keeps the journals, to open them in the viewer by hand.
    defer { if ProcessInfo.processInfo.environment["ACTIONLOG_BENCH_KEEP"] == nil { try? FileManager.default.removeItem(atPath: folder) } }
    print("## The viewer's server at scale")
    print()
    print("Median time per request, measured by a client on 127.0.0.1 (connect, GET, read to the end).")
    print()
    do {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (name, count) in scaleWorkloads(sizes) {
            FileHandle.standardError.write(Data("… viewer: recording \(grouped(count)) \(name) entries\n".utf8))
            let path = "\(folder)/\(name).actionlog"
            let recorded = try recordScaleSession(name, count: count, path: path)
            let rows = try measureViewer(path: path, session: recorded.session, entries: count + 1, workload: name)
            var table = Table(["Workload", "Entries", "Request", "Time", "Bytes"], leftAligned: [0, 2])
            for row in rows { table.add(row) }
            print(table.render())
            print()
            if ProcessInfo.processInfo.environment["ACTIONLOG_BENCH_KEEP"] == nil { try? FileManager.default.removeItem(atPath: path) }
        }
    } catch {
        print("viewer measurement failed: \(error)")
    }
    print()
}

private func measureViewer(path: String, session: JournalSession.ID, entries: Int, workload: String) throws -> [[String]] {
    let server = try ViewerServer(journalPath: path, port: 0)
    defer { server.stop() }
    var rows: [[String]] = []
    func measure(_ title: String, _ paths: [String]) throws {
        var bytes = 0
        var times: [Double] = []
        for path in paths {
            let begin = clock.now
            let (status, body) = try viewerGet(port: server.port, path)
            times.append(begin.duration(to: clock.now).seconds)
            guard status == 200 else { throw BenchError("GET \(path) answered \(status): \(String(decoding: body.prefix(300), as: UTF8.self))") }
            bytes = max(bytes, body.count)
        }
        rows.append([workload, grouped(entries), title, time(median(times)), grouped(bytes)])
    }
    let base = "/api/sessions/\(session)"
    let at90 = entries / 10 * 9
    try measure("session list", Array(repeating: "/api/sessions", count: 5))
    try measure("timeline, first 200 rows", Array(repeating: "\(base)/timeline?from=0&limit=200", count: 5))
    try measure("timeline, 200 rows at \(grouped(at90))", Array(repeating: "\(base)/timeline?from=\(at90)&limit=200", count: 5))
    try measure("timeline filtered by label (≤ 50,000 read)", Array(repeating: "\(base)/timeline?from=0&limit=200&label=zz-no-such-label", count: 3))
    var generator = SystemRandomNumberGenerator()
    let seqs = (0..<20).map { _ in Int.random(in: 0..<entries, using: &generator) }
    try measure("entry at a random step (state + change), 20 steps", seqs.map { "\(base)/entries/\($0)" })
    try measure("entry at the last step", Array(repeating: "\(base)/entries/\(entries - 1)", count: 5))
    return rows
}

/// One GET to 127.0.0.1:`port`; the status and the body.
private func viewerGet(port: Int, _ path: String) throws -> (Int, [UInt8]) {
    let response = try LoopbackClient.get(port: port, path)
    return (response.status, response.bytes)
}
