import Foundation
import Testing
@testable import ActionLog

/// A session that lost actions: two gaps (3 and 2 actions lost), one entry with a reducer duration.
private let lossyJSONL = #"""
    {"actionlog":"session","format":1,"name":"lossy","status":"closed","startedAt":1000,"endedAt":1001,"libraryVersion":"0.1.0","stateType":"S","actionType":"A","dropped":5,"metadata":{}}
    {"seq":0,"kind":"keyframe","time":1000,"state":{"n":0}}
    {"seq":1,"kind":"keyframe","label":"tap","time":1000.1,"durationNs":5,"action":{"tap":{}},"state":{"n":1}}
    {"seq":2,"kind":"gap","time":1000.2,"dropped":3,"note":"queue full"}
    {"seq":3,"kind":"keyframe","label":"tap","time":1000.3,"action":{"tap":{}},"state":{"n":5}}
    {"seq":4,"kind":"gap","time":1000.4,"dropped":2}

    """#

/// Writes `text` as `name.jsonl` and imports it into `name.actionlog`.
private func importSession(_ text: String, named name: String, in directory: URL) throws {
    let url = directory.appendingPathComponent("\(name).jsonl")
    try text.write(to: url, atomically: true, encoding: .utf8)
    try Journal.importJSONL(at: url, into: directory.appendingPathComponent("\(name).actionlog").path)
}

/// Gives the demo's checkout session (session 2) fixed reducer durations, since the demo records
/// measured ones: entry N took N µs, but entry 3 took 41 µs, entry 8 2.5 ms, and entry 13 as long
/// as entry 14 (a tie).
private func fixCheckoutDurations(in directory: URL) throws {
    try runSQLite("""
        UPDATE entries SET checksum = NULL, duration_ns = CASE seq WHEN 3 THEN 41000 WHEN 8 THEN 2500000 WHEN 13 THEN 14000 ELSE seq * 1000 END
        WHERE session_id = 2 AND seq > 0;
        """, on: "demo.actionlog", in: directory)
}

@Suite("replay-cli stats")
struct StatsCommandTests {
    @Test("stats of the checkout session: entries by kind, bytes, labels by frequency, durations and the slowest entries")
    func checkoutText() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            try fixCheckoutDurations(in: directory)
            for session in ["2", "checkout"] {
                let result = try runCLI(["stats", "demo.actionlog", "--session", session], in: directory)
                #expect(result.status == 0)
                #expect(result.stderr == "")
                #expect(result.stdout == """
                    session 2 "checkout" (closed)
                      entries   15: 10 keyframes, 5 deltas, 0 gaps
                      stored    3.5 kB: states 2.4 kB, actions 612 B, effects 417 B, other 155 B; 235 B per entry
                      labels    9 distinct
                        3  addItem
                        2  cartValidated
                        2  checkoutTapped
                        2  payTapped
                        1  doneTapped
                        1  paymentDeclined
                        1  paymentSucceeded
                        1  removeItem
                        1  retryTapped
                      reducer   p50 9.0µs, p99 2.50ms, max 2.50ms over 14 entries
                      slowest
                        2.50ms  entry  8  removeItem
                        41.0µs  entry  3  checkoutTapped
                        14.0µs  entry 13  paymentSucceeded
                        14.0µs  entry 14  doneTapped
                        12.0µs  entry 12  payTapped

                    """)
            }
        }
    }

    @Test("stats --json of the checkout session uses the one naming of --json output: session, sessionName, …Nanoseconds")
    func checkoutJSON() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            try fixCheckoutDurations(in: directory)
            let result = try runCLI(["stats", "demo.actionlog", "--session", "2", "--json"], in: directory)
            #expect(result.status == 0)
            #expect(result.stderr == "")
            let values = try jsonObjects(result.stdout)
            try #require(values.count == 1)
            let stats = values[0]
            #expect(Set(stats.keys) == [
                "session", "sessionName", "status", "entries", "keyframes", "deltas", "gaps", "dropped", "bytes", "distinctLabels", "labels",
                "reducerNanoseconds", "slowest",
            ])
            #expect(int(stats["session"]) == 2)
            #expect(stats["sessionName"] as? String == "checkout")
            #expect(stats["status"] as? String == "closed")
            #expect([int(stats["entries"]), int(stats["keyframes"]), int(stats["deltas"]), int(stats["gaps"]), int(stats["dropped"])] == [15, 10, 5, 0, 0])
            let bytes = try #require(stats["bytes"] as? [String: Any])
            #expect(bytes.mapValues { int($0) } == ["states": 2350, "actions": 612, "effects": 417, "other": 155, "total": 3534, "perEntry": 235])
            #expect(int(stats["distinctLabels"]) == 9)
            let labels = try #require(stats["labels"] as? [[String: Any]])
            #expect(labels.map { "\($0["label"] as? String ?? "?") \(int($0["entries"]) ?? -1)" } == [
                "addItem 3", "cartValidated 2", "checkoutTapped 2", "payTapped 2", "doneTapped 1", "paymentDeclined 1",
                "paymentSucceeded 1", "removeItem 1", "retryTapped 1",
            ])
            let reducer = try #require(stats["reducerNanoseconds"] as? [String: Any])
            #expect(reducer.mapValues { int($0) } == ["entries": 14, "p50": 9000, "p99": 2_500_000, "max": 2_500_000])
            let slowest = try #require(stats["slowest"] as? [[String: Any]])
            #expect(slowest.map { "\(int($0["seq"]) ?? -1) \($0["label"] as? String ?? "?") \(int($0["reducerNanoseconds"]) ?? -1)" } == [
                "8 removeItem 2500000", "3 checkoutTapped 41000", "13 paymentSucceeded 14000", "14 doneTapped 14000", "12 payTapped 12000",
            ])
        }
    }

    @Test("stats without --session prints one block per session; --json one object per session")
    func everySession() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            let text = try runCLI(["stats", "demo.actionlog"], in: directory)
            #expect(text.status == 0)
            #expect(text.stderr == "")
            #expect(lines(text.stdout).filter { $0.hasPrefix("session ") } == [
                #"session 1 "city search" (closed)"#, #"session 2 "checkout" (closed)"#,
                #"session 3 "product card" (closed)"#, #"session 4 "sign in" (closed)"#,
            ])
            #expect(lines(text.stdout).filter { $0.hasPrefix("  entries") } == [
                "  entries   17: 7 keyframes, 10 deltas, 0 gaps", "  entries   15: 10 keyframes, 5 deltas, 0 gaps",
                "  entries   9: 4 keyframes, 5 deltas, 0 gaps", "  entries   9: 3 keyframes, 6 deltas, 0 gaps",
            ])
            let json = try runCLI(["stats", "demo.actionlog", "--json"], in: directory)
            #expect(json.status == 0)
            #expect(try jsonObjects(json.stdout).map { int($0["entries"]) } == [
                DemoJournal.citySearchEntries, DemoJournal.checkoutEntries, DemoJournal.productCardEntries, DemoJournal.signInEntries,
            ])
        }
    }

    @Test("stats of a session with gaps counts them and the actions they lost")
    func gaps() throws {
        try withTemporaryDirectory { directory in
            try importSession(lossyJSONL, named: "lossy", in: directory)
            let result = try runCLI(["stats", "lossy.actionlog"], in: directory)
            #expect(result.status == 0)
            #expect(result.stderr == "")
            #expect(result.stdout == """
                session 1 "lossy" (closed)
                  entries   5: 3 keyframes, 0 deltas, 2 gaps (5 actions lost)
                  stored    57 B: states 21 B, actions 20 B, effects 0 B, other 16 B; 11 B per entry
                  labels    1 distinct
                    2  tap
                  reducer   p50 5ns, p99 5ns, max 5ns over 1 entry
                  slowest
                    5ns  entry 1  tap

                """)
            let json = try jsonObjects(try runCLI(["stats", "lossy.actionlog", "--json"], in: directory).stdout)
            #expect(json.map { [int($0["gaps"]), int($0["dropped"])] } == [[2, 5]])
        }
    }

    @Test("stats lists the 20 most frequent labels and says how many more there are; --json lists them all")
    func longHistogram() throws {
        try withTemporaryDirectory { directory in
            var text = """
                {"actionlog":"session","format":1,"name":"many","status":"closed","startedAt":1000,"endedAt":1001,"libraryVersion":"0.1.0","stateType":"S","actionType":"A","dropped":0,"metadata":{}}
                {"seq":0,"kind":"keyframe","time":1000,"state":{}}

                """
            // "l00" three times, "l01" twice, then "l02" … "l23" once each: 24 labels.
            let labels = ["l00", "l00", "l00", "l01", "l01"] + (2...23).map { String(format: "l%02d", $0) }
            for (index, label) in labels.enumerated() {
                text += #"{"seq":\#(index + 1),"kind":"keyframe","label":"\#(label)","time":1000,"action":{"\#(label)":{}},"state":{}}"# + "\n"
            }
            try importSession(text, named: "many", in: directory)
            let result = try runCLI(["stats", "many.actionlog"], in: directory)
            #expect(result.status == 0)
            let output = lines(result.stdout)
            let labelsLine = try #require(output.firstIndex(of: "  labels    24 distinct"), "\(result.stdout)")
            #expect(Array(output[(labelsLine + 1)...(labelsLine + 3)]) == ["    3  l00", "    2  l01", "    1  l02"])
            #expect(output[labelsLine + 20] == "    1  l19")
            #expect(output[labelsLine + 21] == "    … 4 more")
            #expect(output[labelsLine + 22] == "  reducer   no durations recorded")
            let json = try jsonObjects(try runCLI(["stats", "many.actionlog", "--json"], in: directory).stdout)
            #expect((json.first?["labels"] as? [Any])?.count == 24)
            #expect(json.first?["reducerNanoseconds"] is NSNull)
            #expect((json.first?["slowest"] as? [Any])?.count == 0)
        }
    }

    @Test("stats escapes the names and labels it prints from the file")
    func escaping() throws {
        try withTemporaryDirectory { directory in
            try importSession(#"""
                {"actionlog":"session","format":1,"name":"x\u001b]0;pwned\u0007","status":"closed","startedAt":1000,"endedAt":1001,"libraryVersion":"0.1.0","stateType":"S","actionType":"A","dropped":0,"metadata":{}}
                {"seq":0,"kind":"keyframe","time":1000,"state":{}}
                {"seq":1,"kind":"keyframe","label":"tap\u001b[2J\u202e","time":1000,"durationNs":7,"action":{"tap":{}},"state":{}}

                """#, named: "hostile", in: directory)
            let result = try runCLI(["stats", "hostile.actionlog"], in: directory)
            #expect(result.status == 0)
            #expect(!result.stdout.contains("\u{1B}"))
            let output = lines(result.stdout)
            #expect(output.first == #"session 1 "x\u001b]0;pwned\u0007" (closed)"#)
            #expect(output.contains(#"    1  tap\u{1B}[2J\u{202E}"#))
            #expect(output.last == #"    7ns  entry 1  tap\u{1B}[2J\u{202E}"#)
        }
    }

    @Test("stats of an unknown session fails with status 64 and names the file and session")
    func unknownSession() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            let byID = try runCLI(["stats", "demo.actionlog", "--session", "7"], in: directory)
            #expect(byID.status == 64)
            #expect(byID.stdout == "")
            #expect(byID.stderr == "error: demo.actionlog, session 7: no such session\n")
            let byName = try runCLI(["stats", "demo.actionlog", "-s", "nope", "--json"], in: directory)
            #expect(byName.status == 64)
            #expect(byName.stdout == "")
            #expect(byName.stderr == "error: demo.actionlog: no session named \"nope\" (the journal holds \"city search\", \"checkout\", \"product card\", \"sign in\")\n")
        }
    }

    @Test("stats names the entry whose duration is not stored as an integer")
    func misstoredDuration() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            try runSQLite("UPDATE entries SET checksum = NULL, duration_ns = 'slow' WHERE session_id = 2 AND seq = 6;", on: "demo.actionlog", in: directory)
            let result = try runCLI(["stats", "demo.actionlog", "--session", "2"], in: directory)
            #expect(result.status == 1)
            #expect(result.stdout == "")
            #expect(result.stderr == "error: demo.actionlog, session 2, entry 6: the duration is stored as text, not as an integer\n")
        }
    }
}
