import Foundation
import Testing
@testable import ActionLog

@Suite("replay-cli log --follow")
struct FollowTests {
    private func newRecorder(in directory: URL) throws -> CounterRecorder {
        try CounterRecorder(
            path: directory.appendingPathComponent("live.actionlog").path, sessionName: "counter",
            initialState: Counter(), configuration: RecorderConfiguration())
    }

    /// The rows of `log` after the header, without their offsets (which depend on the clock).
    private func rows(_ text: String) -> [String] {
        lines(text).dropFirst().map { line in LogRow(line).map { "\($0.seq) \($0.rest)" } ?? "unparsed: \(line)" }
    }

    @Test("log --follow prints the entries a recorder commits as they commit, and exits 0 when the session is closed")
    func followsUntilClosed() throws {
        try withTemporaryDirectory { directory in
            let recorder = try newRecorder(in: directory)
            recorder.record(action: .increment, state: Counter(count: 1))
            recorder.flush()

            let child = try LiveCLI(["log", "live.actionlog", "--session", "counter", "--follow"], in: directory)
            #expect(child.waitFor { rows($0).count == 2 }, "the entries already there: \(child.stdout)")
            #expect(rows(child.stdout) == ["0 (initial state)", #"1 increment        {"increment":{}}"#])

            // Each entry, from the commit to the line: measured, printed, not asserted.
            var latencies: [Duration] = []
            for (index, (action, count)) in [(CounterAction.add(5), 6), (.reset, 0), (.add(2), 2)].enumerated() {
                // At a random point of the child's poll interval, as a user's recorder would commit.
                Thread.sleep(forTimeInterval: Double.random(in: 0..<0.2))
                let committed = ContinuousClock.now
                recorder.record(action: action, state: Counter(count: count))
                recorder.flush()
                #expect(child.waitFor { rows($0).count == 3 + index }, "entry \(index + 2): \(child.stdout)")
                latencies.append(ContinuousClock.now - committed)
            }
            print("log --follow: from flush() to the printed line: \(latencies.map { "\($0.components.attoseconds / 1_000_000_000_000_000 + $0.components.seconds * 1000) ms" })")
            recorder.close()

            let result = child.finish()
            #expect(!result.killed, "log --follow did not end after the session was closed")
            #expect(result.status == 0)
            #expect(result.stderr == "")
            #expect(lines(result.stdout).first == "SEQ  OFFSET   ACTION           JSON")
            #expect(rows(result.stdout) == [
                "0 (initial state)",
                #"1 increment        {"increment":{}}"#,
                #"2 add              {"add":{"_0":5}}"#,
                #"3 reset            {"reset":{}}"#,
                #"4 add              {"add":{"_0":2}}"#,
            ])
        }
    }

    @Test("log --follow goes on past damaged entries, before it started and while it follows, names each, and exits 1 at the end")
    func followsPastDamage() throws {
        try withTemporaryDirectory { directory in
            let recorder = try newRecorder(in: directory)
            recorder.record(action: .increment, state: Counter(count: 1))
            recorder.record(action: .add(5), state: Counter(count: 6))
            recorder.flush()
            try runSQLite("UPDATE entries SET checksum = NULL, action = '{broken' WHERE seq = 1", on: "live.actionlog", in: directory)

            let child = try LiveCLI(["log", "live.actionlog", "--session", "counter", "--follow"], in: directory)
            #expect(child.waitFor { rows($0).count == 2 }, "the entries already there: \(child.stdout)")
            // Committed while it follows: a damaged entry 3, then a sound entry 4.
            let copy = "INSERT INTO entries (session_id, seq, kind, time, label, action, state, effect, duration_ns, dropped, note) SELECT session_id"
            try runSQLite("""
                BEGIN;
                \(copy), 3, kind, time, label, '[1,', state, effect, duration_ns, dropped, note FROM entries WHERE seq = 2;
                \(copy), 4, kind, time, label, action, state, effect, duration_ns, dropped, note FROM entries WHERE seq = 2;
                COMMIT
                """, on: "live.actionlog", in: directory)
            #expect(child.waitFor { rows($0).count == 3 }, "entry 4: \(child.stdout)")
            recorder.close()

            let result = child.finish()
            #expect(!result.killed)
            #expect(result.status == 1)
            #expect(rows(result.stdout) == ["0 (initial state)", #"2 add              {"add":{"_0":5}}"#, #"4 add              {"add":{"_0":5}}"#])
            #expect(result.stderr == """
                error: live.actionlog, session 1, entry 1: the action is not valid JSON: invalid JSON at byte 1: unexpected character "b"
                error: live.actionlog, session 1, entry 3: the action is not valid JSON: invalid JSON at byte 3: unexpected end of text

                """)
        }
    }

    @Test("log --follow ends with exit 1, saying so, when the journal is deleted and made again at its path")
    func followedJournalReplaced() throws {
        try withTemporaryDirectory { directory in
            let first = try newRecorder(in: directory)
            first.record(action: .increment, state: Counter(count: 1))
            first.flush()
            let child = try LiveCLI(["log", "live.actionlog", "--session", "1", "--follow"], in: directory)
            #expect(child.waitFor { rows($0).count == 2 }, "\(child.stdout)")
            // Another recorder, on a new file at the same path: its session 1 is live, but not this one.
            for suffix in ["", "-wal", "-shm"] {
                try? FileManager.default.removeItem(at: directory.appendingPathComponent("live.actionlog" + suffix))
            }
            first.close()   // into the file it has open, which no path names any more
            let second = try newRecorder(in: directory)
            let result = child.finish()
            second.close()
            #expect(!result.killed)
            #expect(result.status == 1)
            #expect(result.stderr == "error: live.actionlog: the journal was removed or replaced while it was followed; the follow ends here\n")
        }
    }

    @Test("log --follow --json prints JSON Lines as entries commit, honours --from and --label, and ends with the recorder")
    func followsJSON() throws {
        try withTemporaryDirectory { directory in
            let recorder = try newRecorder(in: directory)
            recorder.record(action: .increment, state: Counter(count: 1))
            recorder.record(action: .add(5), state: Counter(count: 6))
            recorder.flush()

            let child = try LiveCLI(
                ["log", "live.actionlog", "--session", "1", "--follow", "--json", "--from", "2", "--label", "add"], in: directory)
            #expect(child.waitFor { lines($0).count == 1 }, "\(child.stdout)")
            recorder.record(action: .reset, state: Counter(count: 0))
            recorder.record(action: .add(3), state: Counter(count: 3))
            recorder.flush()
            #expect(child.waitFor { lines($0).count == 2 }, "\(child.stdout)")
            recorder.abandon()  // The recorder dies: the session reads as interrupted, and follow ends.

            let result = child.finish()
            #expect(!result.killed)
            #expect(result.status == 0)
            #expect(result.stderr == "")
            let objects = try jsonLines(result.stdout)
            #expect(objects.map { int($0["seq"]) } == [2, 4])
            #expect(objects.map { int($0["session"]) } == [1, 1])
            #expect(objects.map { $0["label"] as? String } == ["add", "add"])
        }
    }

    @Test("log --follow on a closed session prints it whole and exits at once, as log does")
    func closedSession() throws {
        try withTemporaryDirectory { directory in
            let recorder = try newRecorder(in: directory)
            recordCounterSession(recorder)
            recorder.close()
            let follow = try runCLI(["log", "live.actionlog", "--session", "counter", "--follow"], in: directory)
            let plain = try runCLI(["log", "live.actionlog", "--session", "counter"], in: directory)
            #expect(follow.status == 0)
            #expect(follow.stderr == "")
            #expect(follow.stdout == plain.stdout)
            #expect(lines(follow.stdout).dropFirst().map { LogRow($0)?.rest } == counterLogRows)
        }
    }

    @Test("log --follow ends cleanly with exit 0 on SIGTERM and on SIGINT, with what it printed intact", arguments: [SIGTERM, SIGINT])
    func endsOnSignal(signal: Int32) throws {
        try withTemporaryDirectory { directory in
            let recorder = try newRecorder(in: directory)
            recordCounterSession(recorder)
            let child = try LiveCLI(["log", "live.actionlog", "--session", "counter", "--follow"], in: directory)
            #expect(child.waitFor { rows($0).count == 4 }, "\(child.stdout)")
            child.send(signal)
            let result = child.finish()
            #expect(!result.killed)
            #expect(result.status == 0)
            #expect(result.stderr == "")
            #expect(lines(result.stdout).dropFirst().map { LogRow($0)?.rest } == counterLogRows)
            recorder.close()
        }
    }

    @Test("log --follow ends cleanly on a signal that comes while it prints the entries recorded before it started")
    func endsOnSignalDuringFirstWalk() throws {
        try withTemporaryDirectory { directory in
            let recorder = try newRecorder(in: directory)
            // Enough entries that the first lines reach the pipe long before the walk over them ends.
            for count in 1...40_000 { recorder.record(action: .increment, state: Counter(count: count)) }
            recorder.flush()
            let child = try LiveCLI(["log", "live.actionlog", "--session", "counter", "--follow"], in: directory)
            #expect(child.waitFor { rows($0).count >= 2 }, "\(child.stdout.prefix(200))")
            child.send(SIGTERM)
            let result = child.finish()
            #expect(!result.killed)
            #expect(result.status == 0)
            #expect(result.stderr == "")
            // It stopped early, and every line it printed is whole, in order.
            let printed = rows(result.stdout)
            #expect(printed.count < 40_001)
            #expect(printed.enumerated().allSatisfy { index, row in row.hasPrefix("\(index) ") })
            recorder.close()
        }
    }

    @Test("log --follow waits for the first entry of a session that has none yet")
    func waitsForFirstEntry() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("live.actionlog").path
            // A session row without entries, still being recorded: what a recorder leaves before its first batch.
            let recorder = try newRecorder(in: directory)
            recorder.flush()
            try runSQLite("DELETE FROM entries;", on: path, in: directory)
            let child = try LiveCLI(["log", "live.actionlog", "--session", "1", "--follow", "--json"], in: directory)
            recorder.record(action: .increment, state: Counter(count: 1))
            recorder.flush()
            #expect(child.waitFor { lines($0).count == 1 }, "\(child.stdout)")
            recorder.close()
            let result = child.finish()
            #expect(!result.killed)
            #expect(result.status == 0)
            #expect(result.stderr == "")
            #expect(try jsonLines(result.stdout).map { int($0["seq"]) } == [1])
        }
    }

    @Test("log --follow prints the service calls of an asynchronous session's new entries under them")
    func followsHandlerRecords() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("FollowTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let viewModel = Lookup()
        let reducer = try await ViewModelRecorder<Int, LookupAction>(
            path: directory.appendingPathComponent("lookup.actionlog").path, sessionName: "lookup", services: ["Directory"],
            handle: { await viewModel.handle($0) }, snapshot: { 0 })
        reducer(.lookUp("ada"))
        await reducer.settle()
        reducer.flush()
        let child = try LiveCLI(["log", "lookup.actionlog", "--session", "lookup", "--follow", "--json"], in: directory)
        #expect(child.waitFor { lines($0).count == 2 }, "\(child.stdout)")
        reducer(.lookUp(""))
        await reducer.settle()
        reducer.flush()
        #expect(child.waitFor { lines($0).count == 3 }, "\(child.stdout)")
        reducer.close()
        let result = child.finish()
        #expect(!result.killed)
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let objects = try jsonLines(result.stdout)
        try #require(objects.count == 3)
        #expect(objects[0]["handler"] == nil)
        let calls = { (object: [String: Any]) in ((object["handler"] as? [String: Any])?["records"] as? [Any])?.count }
        #expect(calls(objects[1]) == 1, "\(objects[1])")
        #expect(calls(objects[2]) == 1, "the new entry's call, read while following: \(objects[2])")
    }

    @Test("log --follow waits for a journal that does not exist yet, then follows the session once a recorder starts it")
    func waitsForJournal() throws {
        try withTemporaryDirectory { directory in
            let child = try LiveCLI(["log", "live.actionlog", "--session", "counter", "--follow"], in: directory)
            // However long the child has looked meanwhile: it waits for ever by default.
            let recorder = try newRecorder(in: directory)
            recordCounterSession(recorder)
            #expect(child.waitFor { rows($0).count == 4 }, "\(child.stdout)")
            recorder.record(action: .add(2), state: Counter(count: 2))
            recorder.flush()
            #expect(child.waitFor { rows($0).count == 5 }, "\(child.stdout)")
            recorder.close()
            let result = child.finish()
            #expect(!result.killed)
            #expect(result.status == 0)
            #expect(result.stderr == "")
            #expect(rows(result.stdout) == counterLogRows.enumerated().map { "\($0) \($1)" } + [#"4 add              {"add":{"_0":2}}"#])
        }
    }

    @Test("log --follow waits for a session of that name to start in an existing journal")
    func waitsForSession() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("live.actionlog").path
            let other = try CounterRecorder(path: path, sessionName: "other", initialState: Counter(), configuration: RecorderConfiguration())
            other.close()
            let child = try LiveCLI(["log", "live.actionlog", "--session", "counter", "--follow", "--json"], in: directory)
            let recorder = try newRecorder(in: directory)
            recorder.record(action: .increment, state: Counter(count: 1))
            recorder.close()
            let result = child.finish()
            #expect(!result.killed)
            #expect(result.status == 0)
            #expect(result.stderr == "")
            let objects = try jsonLines(result.stdout)
            #expect(objects.map { int($0["seq"]) } == [0, 1])
            #expect(objects.allSatisfy { int($0["session"]) == 2 })
        }
    }

    @Test("--wait-timeout: a journal or a session still missing then is an error, with exit status 1", arguments: [
        (["log", "later.actionlog", "--follow", "--wait-timeout", "0.2"],
         "error: later.actionlog: no such file (looked for later.actionlog); gave up after waiting 0.200s for it (--wait-timeout)"),
        (["log", "live.actionlog", "--session", "nope", "--follow", "--wait-timeout", "0"],
         #"error: live.actionlog: no session named "nope" (the journal holds "counter"); gave up after waiting 0.000s for it (--wait-timeout)"#),
    ])
    func waitTimeout(arguments: [String], message: String) throws {
        try withTemporaryDirectory { directory in
            let recorder = try newRecorder(in: directory)
            recorder.close()
            let result = try runCLI(arguments, in: directory)
            #expect(result.status == 1)
            #expect(result.stdout == "")
            #expect(result.stderr == message + "\n")
        }
    }

    @Test("--wait-timeout needs --follow and a number of seconds, 0 or more")
    func waitTimeoutUsage() throws {
        try withTemporaryDirectory { directory in
            for (arguments, message) in [
                (["--wait-timeout", "5"], "Error: --wait-timeout goes with --follow: only --follow waits for a journal or a session"),
                (["--follow", "--wait-timeout", "-1"], "Error: --wait-timeout must be a number of seconds from 0 to 1000000000, not -1.0"),
            ] {
                let result = try runCLI(["log", "live.actionlog"] + arguments, in: directory)
                #expect(result.status == 64)
                #expect(result.stdout == "")
                #expect(lines(result.stderr).first == message)
            }
        }
    }

    @Test("--limit and --follow together are a usage error")
    func limitRefused() throws {
        try withTemporaryDirectory { directory in
            let result = try runCLI(["log", "live.actionlog", "--session", "1", "--follow", "--limit", "3"], in: directory)
            #expect(result.status == 64)
            #expect(result.stdout == "")
            #expect(lines(result.stderr).first == "Error: --limit and --follow cannot be used together: --follow prints every entry to come")
        }
    }
}
