import ActionLog
import Foundation

// The team store on PostgreSQL (`--postgres URL`, or ACTIONLOG_BENCH_POSTGRES_URL, or the
// ACTIONLOG_TEST_POSTGRES_URL that scripts/with-postgres sets): `replay-cli push` of a counter session
// beside a plain `COPY` of the same entry rows (`psql`'s `\copy` of a file written beforehand) and
// beside `replay-cli copy` of its journal (the same rows into a file), then `replay-cli state --at`
// from the store beside the file. Each runs as a child process, its time and peak RSS from wait4.
// Skipped, saying so, without a server.
//
// The benchmark does not link the store's client (postgres-nio): it drives `replay-cli`, so that its
// release build, which CI runs, compiles ActionLog's libraries and not NIO and BoringSSL.

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
        // The rows in COPY's text format, for the plain COPY; and how much text they hold.
        let (copyText, bytes) = try copyTextForm(of: journal, session: id)
        let rowsPath = "\(directory)/postgres-plain-copy.txt"
        try Data(copyText).write(to: URL(fileURLWithPath: rowsPath))
        let push = try runChild(cli, ["push", path, url])
        let copy = try runChild(cli, ["copy", path, "\(directory)/postgres-copy.actionlog", "--force"])
        let plain = try measurePlainCopy(url: url, rows: rowsPath)
        var table = Table(["\(grouped(entries)) entries, \(fixed(Double(bytes) / 1_048_576, decimals: 1)) MB of text", "time", "entries/s", "MB/s", "peak RSS"])
        func row(_ name: String, _ seconds: Double, _ rss: Int) {
            table.add([
                name, time(seconds), grouped(Int(Double(entries) / max(seconds, 1e-9))),
                fixed(Double(bytes) / 1_048_576 / max(seconds, 1e-9), decimals: 1), "\(fixed(Double(rss) / 1_048_576, decimals: 1)) MB",
            ])
        }
        row("replay-cli push (PostgreSQL)", push.elapsed, push.peakResidentBytes)
        row("plain COPY of the same rows (psql \\copy)", plain.elapsed, plain.peakResidentBytes)
        row("replay-cli copy (the journal to a file)", copy.elapsed, copy.peakResidentBytes)
        print(table.render())
        print()
        var latency = Table(["state --at (median of \(repeats))", "file", "file RSS", "PostgreSQL", "PostgreSQL RSS"])
        // By name: the newest session named "counter" is the one just pushed.
        for at in [entries / 10, entries / 2, entries - 1] {
            var fromFile: [Double] = []
            var fromStore: [Double] = []
            var fileRSS = 0
            var storeRSS = 0
            for _ in 0..<repeats {
                let file = try runChild(cli, ["state", path, "--at", String(at)])
                fromFile.append(file.elapsed)
                fileRSS = max(fileRSS, file.peakResidentBytes)
                let store = try runChild(cli, ["state", url, "--session", "counter", "--at", String(at)])
                fromStore.append(store.elapsed)
                storeRSS = max(storeRSS, store.peakResidentBytes)
            }
            latency.add([
                "entry \(grouped(at))", time(median(fromFile)), "\(fixed(Double(fileRSS) / 1_048_576, decimals: 1)) MB",
                time(median(fromStore)), "\(fixed(Double(storeRSS) / 1_048_576, decimals: 1)) MB",
            ])
        }
        print(latency.render())
        print("(From the store, state --at N reads the rows from the keyframe before N through N into a temporary journal, then reads that as a file.)")
    } catch {
        print("PostgreSQL measurement failed: \(error)")
    }
    print()
}

/// The session's entry rows in `COPY`'s text format, and the bytes of text they hold.
private func copyTextForm(of journal: Journal, session: JournalSession.ID) throws -> (rows: [UInt8], textBytes: Int) {
    var rows: [UInt8] = []
    var textBytes = 0
    var after: [Int64]?
    while true {
        let page = try journal.storedRows(.entries, session: session, after: after, limit: 4096)
        for row in page {
            for value in row {
                if case .text(let bytes) = value { textBytes += bytes.count }
            }
            StoredValue.appendCopyLine(row, to: &rows)
        }
        guard page.count == 4096, case .integer(let seq) = page.last?.first else { break }
        after = [seq]
    }
    return (rows, textBytes)
}

/// A plain `COPY` of the rows at `rows` (``copyTextForm(of:session:)``) into a temporary table of
/// the entries' columns (no key, no staging, no conflict check, no batches), run by `psql`: what
/// moving the same bytes costs, for a push to be read beside.
private func measurePlainCopy(url: String, rows: String) throws -> ChildRun {
    let types = StoredTable.entries.columns.map { "\($0.name) \($0.postgresType)" }
    let psql = ["/usr/bin/psql", "/usr/local/bin/psql"].first { FileManager.default.isExecutableFile(atPath: $0) } ?? "psql"
    return try runChild(psql, [
        "--no-psqlrc", "--quiet", "-v", "ON_ERROR_STOP=1", "--dbname", url,
        "-c", "CREATE TEMPORARY TABLE actionlog_plain_copy (\(types.joined(separator: ", ")))",
        "-c", "\\copy actionlog_plain_copy FROM '\(rows)'",
    ])
}

/// A closed counter session of `entries` entries: a keyframe every 4,096 entries (the longest run of
/// deltas a recorder writes, ``KeyframePolicy/maximumDeltaRun``), one delta per action between.
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
        if seq % 4096 == 0 {
            return Entry(seq: seq, time: at, label: "increment", action: ["increment": [:]], content: .keyframe(["count": .number(String(seq))]), effect: nil)
        }
        let patch = try JSONPatch([["op": "replace", "path": "/count", "value": .number(String(seq))]])
        return Entry(seq: seq, time: at, label: "increment", action: ["increment": [:]], content: .delta(patch), effect: nil)
    }
}
