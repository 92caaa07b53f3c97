import ActionLog
import Foundation
import Testing

/// `1.2 kB` as `replay-cli` prints sizes: powers of 1000, one decimal.
private func formatted(_ bytes: Int) -> String {
    bytes < 1_000 ? "\(bytes) B" : String(format: "%.1f kB", Double(bytes) / 1e3)
}

/// The bytes of a journal file and its `-wal`.
private func bytesOnDisk(_ file: URL) -> Int {
    [file.path, file.path + "-wal"].reduce(0) { total, path in
        total + ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0)
    }
}

@Suite("replay-cli prune and vacuum")
struct PruneCommandTests {
    @Test("prune --dry-run says what it would remove and changes nothing; the real run removes it")
    func keep() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            let dryRun = try runCLI(["prune", "demo.actionlog", "--keep", "1", "--dry-run"], in: directory)
            #expect(dryRun.status == 0)
            #expect(dryRun.stderr == "")
            #expect(dryRun.stdout == """
                Would remove session 1 "city search": closed, 17 entries, 4.5 kB (beyond --keep 1)
                Would remove session 2 "checkout": closed, 15 entries, 3.5 kB (beyond --keep 1)
                Would remove session 3 "product card": closed, 9 entries, 1.9 kB (beyond --keep 1)
                demo.actionlog: would remove 3 sessions (41 entries, 10.0 kB); 1 session would be left. Nothing was changed (--dry-run).

                """)
            #expect(lines(try runCLI(["sessions", "demo.actionlog"], in: directory).stdout).count == 5)

            let pruned = try runCLI(["prune", "demo.actionlog", "--keep", "1"], in: directory)
            #expect(pruned.status == 0)
            #expect(pruned.stderr == "")
            #expect(pruned.stdout == """
                Removed session 1 "city search": closed, 17 entries, 4.5 kB (beyond --keep 1)
                Removed session 2 "checkout": closed, 15 entries, 3.5 kB (beyond --keep 1)
                Removed session 3 "product card": closed, 9 entries, 1.9 kB (beyond --keep 1)
                demo.actionlog: removed 3 sessions (41 entries, 10.0 kB); 1 session left. The file keeps its size until `replay-cli vacuum demo.actionlog`.

                """)
            let left = try jsonObjects(try runCLI(["sessions", "demo.actionlog", "--json"], in: directory).stdout)
            #expect(left.map { $0["sessionName"] as? String } == ["sign in"])

            let again = try runCLI(["prune", "demo.actionlog", "--keep", "1"], in: directory)
            #expect(again.stdout == "demo.actionlog: nothing to remove; 1 session left.\n")
            #expect(try runCLI(["verify", "demo.actionlog"], in: directory).stdout == "demo.actionlog: 1 session, 9 entries: OK\n")
        }
    }

    @Test("prune --max-bytes and --older-than remove the oldest sessions beyond the size or the age")
    func sizeAndAge() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            let size = try runCLI(["prune", "demo.actionlog", "--max-bytes", "5kB", "--dry-run"], in: directory)
            #expect(size.status == 0)
            #expect(size.stdout == """
                Would remove session 1 "city search": closed, 17 entries, 4.5 kB (to fit --max-bytes 5kB)
                Would remove session 2 "checkout": closed, 15 entries, 3.5 kB (to fit --max-bytes 5kB)
                demo.actionlog: would remove 2 sessions (32 entries, 8.1 kB); 2 sessions would be left. Nothing was changed (--dry-run).

                """)
            #expect(try runCLI(["prune", "demo.actionlog", "--max-bytes", "1MiB"], in: directory).stdout
                == "demo.actionlog: nothing to remove; 4 sessions left.\n")

            #expect(try runCLI(["prune", "demo.actionlog", "--older-than", "7d"], in: directory).stdout
                == "demo.actionlog: nothing to remove; 4 sessions left.\n")
            // The checkout ended ten days ago.
            try runSQLite("UPDATE sessions SET started_at = started_at - 864000, ended_at = ended_at - 864000 WHERE id = 2;", on: "demo.actionlog", in: directory)
            let age = try runCLI(["prune", "demo.actionlog", "--older-than", "7d"], in: directory)
            #expect(age.status == 0)
            #expect(age.stdout == """
                Removed session 2 "checkout": closed, 15 entries, 3.5 kB (ended more than 7d ago)
                demo.actionlog: removed 1 session (15 entries, 3.5 kB); 3 sessions left. The file keeps its size until `replay-cli vacuum demo.actionlog`.

                """)
        }
    }

    @Test("a live session survives prune, vacuum refuses while it records, and vacuum gives the space back once it is closed")
    func liveSessionSurvives() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            let file = directory.appendingPathComponent("demo.actionlog")
            // A session of more than a few pages, so that removing it leaves pages for vacuum to give back.
            let long = try CounterRecorder(path: file.path, sessionName: "long", initialState: Counter())
            for count in 1...3_000 { long.record(action: .increment, state: Counter(count: count)) }
            long.close()
            let recorder = try CounterRecorder(path: file.path, sessionName: "live", initialState: Counter())
            recorder.record(action: .increment, state: Counter(count: 1))
            recorder.flush()

            let pruned = try runCLI(["prune", "demo.actionlog", "--keep", "0"], in: directory)
            #expect(pruned.status == 0)
            #expect(pruned.stderr == "")
            #expect(pruned.stdout == """
                Removed session 1 "city search": closed, 17 entries, 4.5 kB (beyond --keep 0)
                Removed session 2 "checkout": closed, 15 entries, 3.5 kB (beyond --keep 0)
                Removed session 3 "product card": closed, 9 entries, 1.9 kB (beyond --keep 0)
                Removed session 4 "sign in": closed, 9 entries, 1.3 kB (beyond --keep 0)
                Removed session 5 "long": closed, 3001 entries, 115.9 kB (beyond --keep 0)
                Kept session 6 "live": it is being recorded (a live session is never removed)
                demo.actionlog: removed 5 sessions (3051 entries, 127.2 kB); 1 session left. The file keeps its size until `replay-cli vacuum demo.actionlog`.

                """)

            let refused = try runCLI(["vacuum", "demo.actionlog"], in: directory)
            #expect(refused.status == 1)
            #expect(refused.stdout == "")
            #expect(refused.stderr == """
                error: demo.actionlog, session 6: a recorder is writing this session now; vacuum rewrites the whole file \
                and would hold up its writes, so nothing was done: vacuum when no app records into the journal

                """)

            recorder.record(action: .add(5), state: Counter(count: 6))
            recorder.close()
            let sessions = try jsonObjects(try runCLI(["sessions", "demo.actionlog", "--json"], in: directory).stdout)
            #expect(sessions.map { $0["sessionName"] as? String } == ["live"])
            #expect(sessions.map { $0["status"] as? String } == ["closed"])
            #expect(sessions.map { int($0["entries"]) } == [3], "the live session kept every entry")

            let before = bytesOnDisk(file)
            let vacuumed = try runCLI(["vacuum", "demo.actionlog"], in: directory)
            let after = bytesOnDisk(file)
            #expect(vacuumed.status == 0)
            #expect(vacuumed.stderr == "")
            #expect(after < before)
            #expect(vacuumed.stdout == "demo.actionlog: \(formatted(before)) before, \(formatted(after)) after (\(formatted(before - after)) given back).\n")
            #expect(try runCLI(["verify", "demo.actionlog"], in: directory).stdout == "demo.actionlog: 1 session, 3 entries: OK\n")
        }
    }

    @Test("prune and vacuum by a user who may only read the journal say so, and change nothing")
    func readOnlyForThisUser() throws {
        guard let reason = otherUsersUnavailable() else {
            try withTemporaryDirectory { directory in
                #expect(chmod(directory.path, 0o755) == 0)
                try runDemo(in: directory)
                #expect(chmod(directory.appendingPathComponent("demo.actionlog").path, 0o644) == 0)
                let before = try Data(contentsOf: directory.appendingPathComponent("demo.actionlog"))
                for command in [["prune", "demo.actionlog", "--keep", "1"], ["vacuum", "demo.actionlog"]] {
                    let result = try runCLI(command, in: directory, asUser: 65534)
                    #expect(result.status == 1, "\(command)")
                    #expect(result.stdout == "")
                    #expect(result.stderr == "error: demo.actionlog: cannot write demo.actionlog: this user may only read it (permission denied)\n")
                }
                #expect(try Data(contentsOf: directory.appendingPathComponent("demo.actionlog")) == before)
                #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["demo.actionlog"])
            }
            return
        }
        print("Skipped: cannot run a child as another user here: \(reason)")
    }

    @Test("prune without a limit, or with a size or age it cannot read, is a usage error")
    func usageErrors() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            let none = try runCLI(["prune", "demo.actionlog"], in: directory)
            #expect(none.status == 64)
            #expect(none.stdout == "")
            let usage = """
                Usage: replay-cli prune <file> [--keep <n>] [--max-bytes <size>] [--older-than <duration>] [--dry-run] [--json]
                  See 'replay-cli prune --help' for more information.

                """
            #expect(none.stderr == "Error: Give at least one limit: --keep, --max-bytes or --older-than.\n" + usage)
            let size = try runCLI(["prune", "demo.actionlog", "--max-bytes", "12XB"], in: directory)
            #expect(size.status == 64)
            #expect(size.stderr == """
                Error: The value '12XB' is invalid for '--max-bytes <size>'
                Help:  --max-bytes <size>  Keep the sessions' entries within that many bytes: 500000, 800kB, 20MB, 1.5GiB.

                """ + usage)
            let age = try runCLI(["prune", "demo.actionlog", "--older-than", "7"], in: directory)
            #expect(age.status == 64)
            #expect(age.stderr == """
                Error: The value '7' is invalid for '--older-than <duration>'
                Help:  --older-than <duration>  Remove sessions that ended longer ago than that: 90s, 30m, 12h, 7d, 2w.

                """ + usage)
            let missing = try runCLI(["vacuum", "missing.actionlog"], in: directory)
            #expect(missing.status == 64)
            #expect(missing.stderr == "error: missing.actionlog: no such file (looked for missing.actionlog)\n")
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("missing.actionlog").path))
        }
    }
}
