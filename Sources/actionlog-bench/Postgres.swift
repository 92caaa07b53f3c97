import ActionLog
import ActionLogPostgres
import Foundation

// The team store on PostgreSQL (`--postgres URL`, or ACTIONLOG_BENCH_POSTGRES_URL, or the
// ACTIONLOG_TEST_POSTGRES_URL that scripts/with-postgres sets): `replay-cli push` of a counter session
// beside a plain `COPY` of the same entry rows and beside `replay-cli copy` of its journal (the same
// rows into a file), then `replay-cli state --at` from the store beside the file. Each reader and the
// push run as child processes, their time and peak RSS from wait4. Skipped, saying so, without a server.

/// The server the section uses, if one is given.
func postgresBenchURL(_ given: String?) -> String? {
    let environment = ProcessInfo.processInfo.environment
    return given ?? environment["ACTIONLOG_BENCH_POSTGRES_URL"] ?? environment["ACTIONLOG_TEST_POSTGRES_URL"]
}

/// Prints the section; failures are printed, never fatal.
func runPostgresSection(url: String?, entries: Int, repeats: Int, directory: String) {
    print("## The team store on PostgreSQL (push, and state --at from the store)")
    print()
    guard let url else {
        print("skipped: no server given (--postgres URL, or ACTIONLOG_BENCH_POSTGRES_URL; `scripts/with-postgres` starts one).")
        print()
        return
    }
    let cli = siblingExecutable("replay-cli")
    guard FileManager.default.isExecutableFile(atPath: cli) else {
        print("skipped: no replay-cli beside this binary (\(cli)); build both first: swift build -c release")
        print()
        return
    }
    do {
        let path = "\(directory)/postgres-counter.actionlog"
        // A start time of now: a new session (a new global id) for each run, so the push is not "already there".
        let id = try insertCounterSession(entries: entries, into: path, startedAt: Date())
        let journal = try Journal(path: path)
        let session = try journal.session(id)
        var bytes = 0
        var after: [Int64]?
        while true {
            let page = try journal.storedRows(.entries, session: id, after: after, limit: 4096)
            for row in page {
                for value in row {
                    if case .text(let text) = value { bytes += text.count }
                }
            }
            guard page.count == 4096, case .integer(let seq) = page.last?.first else { break }
            after = [seq]
        }
        let push = try runChild(cli, ["push", path, url])
        let copy = try runChild(cli, ["copy", path, "\(directory)/postgres-copy.actionlog", "--force"])
        let plain = try measurePlainCopy(url: url, journal: journal, session: id)
        var table = Table(["\(grouped(entries)) entries, \(fixed(Double(bytes) / 1_048_576, decimals: 1)) MB of text", "time", "entries/s", "MB/s", "peak RSS"])
        func row(_ name: String, _ seconds: Double, _ rss: Int?) {
            table.add([
                name, time(seconds), grouped(Int(Double(entries) / max(seconds, 1e-9))),
                fixed(Double(bytes) / 1_048_576 / max(seconds, 1e-9), decimals: 1), rss.map { "\(fixed(Double($0) / 1_048_576, decimals: 1)) MB" } ?? "-",
            ])
        }
        row("replay-cli push (PostgreSQL)", push.elapsed, push.peakResidentBytes)
        row("plain COPY of the same rows (in process)", plain, nil)
        row("replay-cli copy (the journal to a file)", copy.elapsed, copy.peakResidentBytes)
        print(table.render())
        print()
        var latency = Table(["state --at (median of \(repeats))", "file", "PostgreSQL", "PostgreSQL RSS"])
        // By name: the newest session named "counter" is the one just pushed.
        _ = session
        for at in [entries / 10, entries / 2, entries - 1] {
            var fromFile: [Double] = []
            var fromStore: [Double] = []
            var rss = 0
            for _ in 0..<repeats {
                fromFile.append(try runChild(cli, ["state", path, "--at", String(at)]).elapsed)
                let run = try runChild(cli, ["state", url, "--session", "counter", "--at", String(at)])
                fromStore.append(run.elapsed)
                rss = max(rss, run.peakResidentBytes)
            }
            latency.add(["entry \(grouped(at))", time(median(fromFile)), time(median(fromStore)), "\(fixed(Double(rss) / 1_048_576, decimals: 1)) MB"])
        }
        print(latency.render())
        print("(A reader of the store reads the whole session into a temporary journal first: its latency grows with the session, not with --at.)")
    } catch {
        print("PostgreSQL measurement failed: \(error)")
    }
    print()
}

/// Seconds for a plain `COPY` of the session's entry rows, on a connection of its own.
private func measurePlainCopy(url: String, journal: Journal, session: JournalSession.ID) throws -> Double {
    try waitingFor { () async throws(ActionLogError) -> Double in
        let store = try await PostgresStore.connect(url: url)
        let start = ContinuousClock.now
        do throws(ActionLogError) {
            _ = try await store.plainCopy(journal, session: session)
        } catch {
            await store.close()
            throw error
        }
        let elapsed = start.duration(to: .now)
        await store.close()
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}

/// A closed counter session of `entries` entries: a keyframe, then one delta per action.
private func insertCounterSession(entries count: Int, into path: String, startedAt: Date) throws -> JournalSession.ID {
    var seq = 0
    let header = SessionHeader(
        name: "counter", startedAt: startedAt, endedAt: startedAt.addingTimeInterval(Double(count) / 1000), status: .closed,
        libraryVersion: ActionLogLibrary.version, appVersion: "bench", stateType: "Counter", actionType: "Action", effectType: nil,
        metadata: [:], entryCount: count, droppedCount: 0, lastEntryAt: nil)
    return try Journal(path: path, mode: .readWrite).insert(session: header, file: "counter") { () throws(ActionLogError) -> Entry? in
        guard seq < count else { return nil }
        defer { seq += 1 }
        let at = startedAt.addingTimeInterval(Double(seq) / 1000)
        if seq == 0 { return Entry(seq: 0, time: at, label: nil, action: nil, content: .keyframe(["count": 0]), effect: nil) }
        let patch = try JSONPatch([["op": "replace", "path": "/count", "value": .number(String(seq))]])
        return Entry(seq: seq, time: at, label: "increment", action: ["increment": [:]], content: .delta(patch), effect: nil)
    }
}
