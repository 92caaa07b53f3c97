import Foundation
import Testing
@testable import ActionLog

/// Creates a journal file with its schema and no session, as a recorder does before its first session.
func makeEmptyJournal(at url: URL) throws {
    _ = try Journal(url: url, mode: .readWrite)
}

@Suite("replay-cli verify")
struct VerifyCommandTests {
    @Test("verify on an intact journal prints OK and exits 0")
    func verifyIntactJournal() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            let result = try runCLI(["verify", "demo.actionlog"], in: directory)
            #expect(result.status == 0)
            #expect(result.stderr == "")
            #expect(result.stdout == "demo.actionlog: 4 sessions, 50 entries: OK\n")
        }
    }

    @Test("verify on a damaged journal lists every finding and exits 1")
    func verifyDamagedJournal() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            try runSQLite("""
                DELETE FROM entries WHERE session_id = 1 AND seq = 3;
                UPDATE entries SET checksum = NULL, action = '{bad' WHERE session_id = 2 AND seq = 2;
                """, on: "demo.actionlog", in: directory)

            let result = try runCLI(["verify", "demo.actionlog"], in: directory)
            #expect(result.status == 1)
            #expect(result.stderr == "")
            #expect(lines(result.stdout) == [
                "demo.actionlog: 4 sessions, 49 entries: 2 problems",
                "  session 1, entry 3: missing: the entry is not in the file",
                #"  session 2, entry 2: the action is not valid JSON: invalid JSON at byte 1: unexpected character "b""#,
                "  note: session 2: 1 entry without checksums (written before ActionLog checksummed its rows): a change to their bytes that SQLite's checks accept goes unnoticed",
            ])
        }
    }

    @Test("verify checks a text form (a golden) as import reads it: OK, or its first problem with exit 1")
    func verifyTextForm() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            let export = try runCLI(["export", "demo.actionlog", "--session", "2", "--output", "checkout.jsonl"], in: directory)
            try #require(export.status == 0, "\(export.stderr)")
            let intact = try runCLI(["verify", "checkout.jsonl"], in: directory)
            #expect(intact.status == 0)
            #expect(intact.stdout == "checkout.jsonl: 1 session, 15 entries: OK\n")

            let url = directory.appendingPathComponent("checkout.jsonl")
            let text = try String(contentsOf: url, encoding: .utf8)
            try Data(text.replacingOccurrences(of: #"{"seq":4,"#, with: #"{"seq":40,"#).utf8).write(to: url)
            let damaged = try runCLI(["verify", "checkout.jsonl"], in: directory)
            #expect(damaged.status == 1)
            #expect(damaged.stderr == "")
            #expect(lines(damaged.stdout) == [
                "checkout.jsonl: 1 session, 4 entries: 1 problem",
                "  entry 40: line 6: entry 40 where entry 4 was expected: entries run 0, 1, 2, … without holes",
            ])
        }
    }

    @Test("verify reports a gap in the sequence numbers of several entries, and a bad state")
    func verifyMoreDamage() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            try runSQLite("""
                DELETE FROM entries WHERE session_id = 2 AND seq BETWEEN 4 AND 6;
                UPDATE entries SET checksum = NULL, state = '[1,' WHERE session_id = 1 AND seq = 0;
                """, on: "demo.actionlog", in: directory)

            let result = try runCLI(["verify", "demo.actionlog"], in: directory)
            #expect(result.status == 1)
            let output = lines(result.stdout)
            #expect(output.first == "demo.actionlog: 4 sessions, 47 entries: 2 problems")
            #expect(output.contains("  session 2, entry 4: missing: entries 4...6 are not in the file"))
            #expect(output.contains { $0.hasPrefix("  session 1, entry 0: the state is not valid JSON: ") }, "\(result.stdout)")
        }
    }

    @Test("a damaged entry is named and passed over: log prints the entries around it and exits 1, export writes the lines before it")
    func readingDamagedEntry() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            try runSQLite("UPDATE entries SET checksum = NULL, action = '{bad' WHERE session_id = 2 AND seq = 2;", on: "demo.actionlog", in: directory)
            let message = "error: demo.actionlog, session 2, entry 2: the action is not valid JSON: invalid JSON at byte 1: unexpected character \"b\"\n"

            for json in [false, true] {
                let log = try runCLI(["log", "demo.actionlog", "--session", "2"] + (json ? ["--json"] : []), in: directory)
                #expect(log.status == 1)
                #expect(log.stderr == message)
                // Every entry but entry 2, under the table's header line.
                let rows = lines(log.stdout).dropFirst(json ? 0 : 1)
                let seqs = rows.compactMap { row in
                    json ? row.firstMatch(of: /"seq":(\d+)/).map { Int($0.1) } : row.split(separator: " ").first.flatMap { Int($0) }
                }
                #expect(seqs == Array(0..<DemoJournal.checkoutEntries).filter { $0 != 2 }, "\(log.stdout)")
            }

            // A filter that leaves the damaged entry out does not read its action: nothing fails.
            for filter in [["--label", "pay*"], ["--kind", "delta"]] {
                let filtered = try runCLI(["log", "demo.actionlog", "--session", "2", "--json"] + filter, in: directory)
                #expect(filtered.status == 0, "\(filter)")
                #expect(filtered.stderr == "")
                #expect(!lines(filtered.stdout).isEmpty)
            }
            let including = try runCLI(["log", "demo.actionlog", "--session", "2", "--label", "add*"], in: directory)
            #expect(including.status == 1)
            #expect(including.stderr == message)
            let includedSeqs = lines(including.stdout).dropFirst().compactMap { $0.split(separator: " ").first.flatMap { Int($0) } }
            #expect(includedSeqs.first == 1 && !includedSeqs.contains(2), "\(including.stdout)")

            // The export stops at the damaged entry, after writing the header and the lines before it.
            let export = try runCLI(["export", "demo.actionlog", "--session", "2"], in: directory)
            #expect(export.status == 1)
            #expect(export.stderr == message)
            #expect(lines(export.stdout).count == 3)
            #expect(lines(export.stdout).last?.contains(#""seq":1,"#) == true, "\(export.stdout)")

            // Another session is intact and still readable.
            let other = try runCLI(["log", "demo.actionlog", "--session", "1"], in: directory)
            #expect(other.status == 0)
            #expect(lines(other.stdout).count == DemoJournal.citySearchEntries + 1)
        }
    }

    @Test("log prints an entry at the largest sequence number there is, as text and as JSON, without overflowing")
    func logEntryAtInt64Max() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            try runSQLite("""
                UPDATE entries SET checksum = NULL, seq = 9223372036854775807
                WHERE session_id = 2 AND seq = (SELECT max(seq) FROM entries WHERE session_id = 2);
                """, on: "demo.actionlog", in: directory)

            for arguments in [["--session", "2"], ["--session", "2", "--from", "9223372036854775807"]] {
                let log = try runCLI(["log", "demo.actionlog"] + arguments, in: directory)
                #expect(log.status == 0)
                #expect(log.stderr == "")
                #expect(lines(log.stdout).last?.hasPrefix("9223372036854775807 ") == true, "\(log.stdout)")
            }
            let json = try runCLI(["log", "demo.actionlog", "--session", "2", "--json"], in: directory)
            #expect(json.status == 0)
            #expect(lines(json.stdout).count == DemoJournal.checkoutEntries)
            #expect(lines(json.stdout).last?.contains(#""seq":9223372036854775807,"#) == true)
        }
    }

    @Test("a damaged state fails only what needs it: log still prints the timeline, state names the entry")
    func damagedStateFailsOnlyStates() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            try runSQLite("UPDATE entries SET checksum = NULL, state = '{bad' WHERE session_id = 2 AND seq = 2;", on: "demo.actionlog", in: directory)

            let log = try runCLI(["log", "demo.actionlog", "--session", "2"], in: directory)
            #expect(log.status == 0)
            #expect(log.stderr == "")
            #expect(lines(log.stdout).count == DemoJournal.checkoutEntries + 1)

            let state = try runCLI(["state", "demo.actionlog", "--session", "2", "--at", "2"], in: directory)
            #expect(state.status == 1)
            #expect(state.stderr == "error: demo.actionlog, session 2, entry 2: the state is not valid JSON: invalid JSON at byte 1: unexpected character \"b\"\n")
        }
    }

    @Test("log --from and --limit print a window of the timeline; --json prints one object per line")
    func logWindow() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            let window = try runCLI(["log", "demo.actionlog", "--session", "2", "--from", "3", "--limit", "2"], in: directory)
            #expect(window.status == 0)
            let rows = lines(window.stdout)
            #expect(rows.count == 3)
            #expect(rows.first?.hasPrefix("SEQ") == true)
            #expect(rows.dropFirst().map { $0.prefix { $0 != " " } } == ["3", "4"])

            let json = try runCLI(["log", "demo.actionlog", "--session", "2", "--from", "13", "--json"], in: directory)
            #expect(json.status == 0)
            #expect(try jsonLines(json.stdout).map { int($0["seq"]) } == [13, 14])

            for arguments in [["--from=-1"], ["--from", "-1"], ["--limit", "-2"]] {
                let bad = try runCLI(["log", "demo.actionlog", "--session", "2"] + arguments, in: directory)
                #expect(bad.status == 64)
                #expect(lines(bad.stderr).first == (arguments == ["--limit", "-2"] ? "Error: --limit must be 0 or more, not -2" : "Error: --from must be 0 or more, not -1"))
            }
        }
    }
}

// MARK: - Sessions being recorded, and sessions left behind

struct Counter: Codable, Sendable, Equatable {
    var count = 0
}

enum CounterAction: Codable, Sendable {
    case increment
    case add(Int)
    case reset
}

typealias CounterRecorder = Recorder<Counter, CounterAction, Never>

/// Records increment, add(5), reset after the initial state: four entries in all.
func recordCounterSession(_ recorder: CounterRecorder) {
    recorder.record(action: .increment, state: Counter(count: 1))
    recorder.record(action: .add(5), state: Counter(count: 6))
    recorder.record(action: .reset, state: Counter(count: 0))
    recorder.flush()
}

/// What `replay-cli log` prints for the counter session after the seq and offset columns.
let counterLogRows = [
    "(initial state)",
    #"increment        {"increment":{}}"#,
    #"add              {"add":{"_0":5}}"#,
    #"reset            {"reset":{}}"#,
]

@Suite("replay-cli on sessions being recorded or interrupted")
struct LiveSessionTests {
    private func newRecorder(in directory: URL) throws -> CounterRecorder {
        var configuration = RecorderConfiguration()
        configuration.appVersion = "tests"
        return try CounterRecorder(
            path: directory.appendingPathComponent("live.actionlog").path,
            sessionName: "counter",
            initialState: Counter(),
            configuration: configuration
        )
    }

    @Test("a session a live recorder writes reads as recording, and as closed once closed")
    func liveSession() throws {
        try withTemporaryDirectory { directory in
            let recorder = try newRecorder(in: directory)
            recordCounterSession(recorder)

            let json = try runCLI(["sessions", "live.actionlog", "--json"], in: directory)
            #expect(json.status == 0)
            #expect(json.stderr == "")
            let sessions = try jsonObjects(json.stdout)
            try #require(sessions.count == 1)
            #expect(int(sessions[0]["session"]) == Int(recorder.sessionID))
            #expect(sessions[0]["sessionName"] as? String == "counter")
            #expect(sessions[0]["status"] as? String == "recording")
            #expect(int(sessions[0]["entries"]) == 4)
            #expect(sessions[0]["endedAt"] is NSNull)
            #expect(sessions[0]["appVersion"] as? String == "tests")
            #expect((sessions[0]["stateType"] as? String)?.hasSuffix(".Counter") == true)
            #expect((sessions[0]["actionType"] as? String)?.hasSuffix(".CounterAction") == true)

            let table = try runCLI(["sessions", "live.actionlog"], in: directory)
            #expect(table.status == 0)
            let rows = lines(table.stdout)
            #expect(rows.first == "ID  NAME     STATUS     ENTRIES  STARTED                      DURATION")
            #expect(matches(rows.dropFirst().first ?? "", "1   counter  recording  4        \(timestampPattern)  \(secondsPattern)"), "\(table.stdout)")

            let log = try runCLI(["log", "live.actionlog", "--session", "counter"], in: directory)
            #expect(log.status == 0)
            #expect(lines(log.stdout).dropFirst().map { LogRow($0)?.rest } == counterLogRows)

            let verify = try runCLI(["verify", "live.actionlog"], in: directory)
            #expect(verify.status == 0)
            #expect(verify.stdout == "live.actionlog: 1 session, 4 entries: OK\n")

            recorder.close()
            let closed = try jsonObjects(try runCLI(["sessions", "live.actionlog", "--json"], in: directory).stdout)
            #expect(closed.map { $0["status"] as? String } == ["closed"])
            #expect(closed.map { int($0["entries"]) } == [4])
            #expect(closed.first?["endedAt"] is String)
        }
    }

    @Test("a session whose recorder died reads as interrupted, verifies, and keeps every flushed entry")
    func interruptedSession() throws {
        try withTemporaryDirectory { directory in
            let recorder = try newRecorder(in: directory)
            recordCounterSession(recorder)
            recorder.abandon()

            let json = try runCLI(["sessions", "live.actionlog", "--json"], in: directory)
            #expect(json.status == 0)
            let sessions = try jsonObjects(json.stdout)
            try #require(sessions.count == 1)
            #expect(sessions[0]["status"] as? String == "interrupted")
            #expect(int(sessions[0]["entries"]) == 4)
            let ended = try #require(sessions[0]["endedAt"] as? String, "an interrupted session ends at its last entry")
            #expect(matches(ended, timestampPattern))

            let table = try runCLI(["sessions", "live.actionlog"], in: directory)
            #expect(table.status == 0)
            let rows = lines(table.stdout)
            #expect(rows.count == 2)
            #expect(matches(rows.last ?? "", "1   counter  interrupted  4        \(timestampPattern)  \(secondsPattern)"), "\(table.stdout)")

            let verify = try runCLI(["verify", "live.actionlog"], in: directory)
            #expect(verify.status == 0)
            #expect(verify.stdout == "live.actionlog: 1 session, 4 entries: OK\n")

            let log = try runCLI(["log", "live.actionlog", "--session", "1"], in: directory)
            #expect(log.status == 0)
            let logLines = lines(log.stdout)
            #expect(logLines.count == 5)
            #expect(logLines.dropFirst().map { LogRow($0)?.seq } == [0, 1, 2, 3])
            #expect(logLines.dropFirst().map { LogRow($0)?.rest } == counterLogRows)

            let state = try runCLI(["state", "live.actionlog", "--session", "1", "--at", "2"], in: directory)
            #expect(state.status == 0)
            #expect(state.stdout == "{\n  \"count\": 6\n}\n")
        }
    }
}

@Suite("replay-cli on a journal whose writer stopped in the middle of a change")
struct HotJournalTests {
    @Test("readers name the unfinished change in the rollback journal, and vacuum rolls it back")
    func hotRollbackJournal() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            // A change in progress, its pages spilled into the file, copied with its rollback
            // journal while the transaction is open: what a writer killed at that moment leaves.
            let result = try runProcess(try sqlite3Tool(), [
                "demo.actionlog", "PRAGMA cache_size = 1", "BEGIN", "DELETE FROM entries", "CREATE TABLE junk (y)",
                "INSERT INTO junk VALUES (zeroblob(300000))",
                ".shell cp demo.actionlog hot.actionlog && cp demo.actionlog-journal hot.actionlog-journal", "ROLLBACK",
            ], in: directory)
            try #require(result.status == 0, "\(result.stderr)")
            try #require(FileManager.default.fileExists(atPath: directory.appendingPathComponent("hot.actionlog-journal").path))

            let message = """
                error: hot.actionlog: hot.actionlog-journal holds a change its writer did not finish (it stopped while writing), \
                which a reader cannot roll back; opening the journal to write does: `replay-cli vacuum hot.actionlog`, or the next recorder

                """
            for command in [["verify", "hot.actionlog"], ["sessions", "hot.actionlog"], ["log", "hot.actionlog", "--session", "1"]] {
                let read = try runCLI(command, in: directory)
                #expect(read.status == 1, "\(command)")
                #expect(read.stdout == "")
                #expect(read.stderr == message, "\(command)")
            }
            let vacuum = try runCLI(["vacuum", "hot.actionlog"], in: directory)
            #expect(vacuum.status == 0, "\(vacuum.stderr)")
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("hot.actionlog-journal").path))
            #expect(try runCLI(["verify", "hot.actionlog"], in: directory).stdout == "hot.actionlog: 4 sessions, 50 entries: OK\n")
        }
    }
}
