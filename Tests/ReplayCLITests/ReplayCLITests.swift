import Foundation
import Testing

/// The demo journal's contents, as `actionlog-demo` records them (deterministic: simulated services, no clock in the data).
enum DemoJournal {
    static let citySearchEntries = 17
    static let checkoutEntries = 15
    static let productCardEntries = 9
    static let signInEntries = 9

    static let citySearchLabels: [String?] = [
        nil, "input.onAppear", "feedback.resultsLoaded", "input.queryChanged", "input.queryChanged",
        "feedback.resultsLoaded", "input.queryChanged", "feedback.resultsLoaded", "input.queryChanged",
        "feedback.resultsLoaded", "input.queryChanged", "feedback.resultsLoaded", "input.queryChanged",
        "feedback.loadFailed", "input.queryChanged", "input.queryChanged", "feedback.resultsLoaded",
    ]

    /// `replay-cli log demo.actionlog --session 2` after the sequence number and offset columns.
    static let checkoutLogRows = [
        "(initial state)",
        #"addItem           {"addItem":{"_0":{"name":"Green tea","priceCents":1250,"quantity":2,"sku":"tea-01"}}}"#,
        #"addItem           {"addItem":{"_0":{"name":"Copper kettle","priceCents":64900,"quantity":1,"sku":"kettle-9"}}}"#,
        #"checkoutTapped    {"checkoutTapped":{}}"#,
        #"cartValidated     {"cartValidated":{"totalCents":67400}}"#,
        #"payTapped         {"payTapped":{}}"#,
        #"paymentDeclined   {"paymentDeclined":{"reason":"Card declined: 67400 cents is over the 50000 cent limit"}}"#,
        #"retryTapped       {"retryTapped":{}}"#,
        #"removeItem        {"removeItem":{"sku":"kettle-9"}}"#,
        #"addItem           {"addItem":{"_0":{"name":"Tea cup","priceCents":900,"quantity":4,"sku":"cup-02"}}}"#,
        #"checkoutTapped    {"checkoutTapped":{}}"#,
        #"cartValidated     {"cartValidated":{"totalCents":6100}}"#,
        #"payTapped         {"payTapped":{}}"#,
        #"paymentSucceeded  {"paymentSucceeded":{"transactionID":"txn-4pg"}}"#,
        #"doneTapped        {"doneTapped":{}}"#,
    ]

    static let sessionsHeader = "ID  NAME          STATUS  ENTRIES  STARTED                      DURATION"

    /// The expected output of the demo when it records sessions `first` to `first + 3` into `file`.
    static func demoOutput(file: String, first: Int) -> String {
        """
        Recorded session \(first) "city search": 17 entries, closed
        Recorded session \(first + 1) "checkout": 15 entries, closed
        Recorded session \(first + 2) "product card": 9 entries, closed
        Recorded session \(first + 3) "sign in": 9 entries, closed
        Replayed 16 of 16 actions of session \(first) "city search" of \(file): no divergence.
        Replayed 14 of 14 actions of session \(first + 1) "checkout" of \(file): no divergence.
        Replayed 8 of 8 actions of session \(first + 2) "product card" of \(file): no divergence.
        Replayed 8 of 8 actions of session \(first + 3) "sign in" of \(file): no divergence.

        Journal: \(file)
        Next:
          swift run replay-cli sessions \(file)
          swift run replay-cli log \(file) --session \(first + 1)
          swift run replay-cli log \(file) --session \(first + 2)
          swift run replay-cli state \(file) --session \(first + 1) --at 5
          swift run replay-cli verify \(file)

        """
    }
}

@Suite("actionlog-demo")
struct DemoCommandTests {
    @Test("in an empty directory it writes demo.actionlog and replays all four sessions")
    func demoInEmptyDirectory() throws {
        try withTemporaryDirectory { directory in
            let result = try runCLI([], in: directory, program: .demo)
            #expect(result.status == 0)
            #expect(result.stderr == "")
            #expect(result.stdout == DemoJournal.demoOutput(file: "demo.actionlog", first: 1))
            #expect(lines(result.stdout).contains("Replayed 16 of 16 actions of session 1 \"city search\" of demo.actionlog: no divergence."))
            #expect(lines(result.stdout).contains("Replayed 14 of 14 actions of session 2 \"checkout\" of demo.actionlog: no divergence."))
            #expect(lines(result.stdout).contains("Replayed 8 of 8 actions of session 3 \"product card\" of demo.actionlog: no divergence."))
            #expect(lines(result.stdout).contains("Replayed 8 of 8 actions of session 4 \"sign in\" of demo.actionlog: no divergence."))
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("demo.actionlog").path))
        }
    }

    @Test("--output writes the named journal instead")
    func demoOutputOption() throws {
        try withTemporaryDirectory { directory in
            let result = try runCLI(["--output", "other.actionlog"], in: directory, program: .demo)
            #expect(result.status == 0)
            #expect(result.stderr == "")
            #expect(result.stdout == DemoJournal.demoOutput(file: "other.actionlog", first: 1))
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("other.actionlog").path))
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("demo.actionlog").path))

            let verify = try runCLI(["verify", "other.actionlog"], in: directory)
            #expect(verify.status == 0)
            #expect(verify.stdout == "other.actionlog: 4 sessions, 50 entries: OK\n")
        }
    }

    @Test(
        "every command the demo prints under Next: runs as printed from where the demo ran, the journal's path quoted for a shell",
        arguments: ["demo.actionlog", "my demo's.actionlog", "-odd.actionlog"])
    func nextCommandsRun(output: String) throws {
        try withTemporaryDirectory { directory in
            let result = try runCLI(["--output=\(output)"], in: directory, program: .demo)
            #expect(result.status == 0, "\(result.stderr)")
            let printed = lines(result.stdout)
            let start = try #require(printed.firstIndex(of: "Next:"))
            let commands = printed[(start + 1)...].prefix { !$0.isEmpty }
            #expect(commands.count == 5)
            for command in commands {
                // `swift run replay-cli ARGS` from the package directory runs the replay-cli this test runs.
                #expect(command.hasPrefix("  swift run replay-cli "), "\(command)")
                let words = try #require(shellWords(String(command.dropFirst("  swift run replay-cli ".count))), "\(command)")
                #expect(words.contains { FileManager.default.fileExists(atPath: directory.appendingPathComponent($0).path) }, "\(command)")
                let run = try runCLI(words, in: directory)
                #expect(run.status == 0, "\(command): \(run.stderr)")
                #expect(!run.stdout.isEmpty, "\(command)")
            }
        }
    }

    /// The words a POSIX shell makes of `line`: split at spaces, single-quoted parts taken as they
    /// are, a character after a backslash as itself (the only quoting the demo prints: `'\''`);
    /// `nil` for anything else a shell would treat specially.
    private func shellWords(_ line: String) -> [String]? {
        var words: [String] = []
        var word: String?
        var quoted = false
        var escaped = false
        for character in line {
            if escaped {
                word = (word ?? "") + String(character)
                escaped = false
                continue
            }
            switch (character, quoted) {
            case ("'", _):
                quoted.toggle()
                word = word ?? ""
            case (" ", false):
                if let finished = word { words.append(finished) }
                word = nil
            case ("\\", false):
                escaped = true
                word = word ?? ""
                continue
            case (_, false) where "\"\\$`;&|<>()*?[]#~".contains(character):
                return nil
            default:
                word = (word ?? "") + String(character)
            }
        }
        if quoted || escaped { return nil }
        if let word { words.append(word) }
        return words
    }

    @Test("a second demo appends sessions 5 to 8 to the journal")
    func demoTwiceAppends() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            let second = try runCLI([], in: directory, program: .demo)
            #expect(second.status == 0)
            #expect(second.stdout == DemoJournal.demoOutput(file: "demo.actionlog", first: 5))

            let sessions = try runCLI(["sessions", "demo.actionlog", "--json"], in: directory)
            #expect(sessions.status == 0)
            let values = try jsonObjects(sessions.stdout)
            #expect(values.map { int($0["session"]) } == [1, 2, 3, 4, 5, 6, 7, 8])
            #expect(values.map { $0["sessionName"] as? String } == [
                "city search", "checkout", "product card", "sign in", "city search", "checkout", "product card", "sign in",
            ])
            #expect(values.map { int($0["entries"]) } == [17, 15, 9, 9, 17, 15, 9, 9])

            let verify = try runCLI(["verify", "demo.actionlog"], in: directory)
            #expect(verify.stdout == "demo.actionlog: 8 sessions, 100 entries: OK\n")
        }
    }

    @Test("--help, whole")
    func help() throws {
        try withTemporaryDirectory { directory in
            let result = try runCLI(["--help"], in: directory, program: .demo)
            #expect(result.status == 0)
            #expect(result.stderr == "")
            #expect(result.stdout == """
                OVERVIEW: Record scripted sessions of the example features into a journal, then
                replay them.

                The four example features, one per architecture: a Store with effects (city
                search), a state-machine ViewModel (checkout), an actor ViewModel behind a
                Reducer front (product card) and an event ViewModel (sign in). An existing
                journal keeps its sessions: the demo adds four more.

                Examples:
                  actionlog-demo
                  actionlog-demo --output /tmp/demo.actionlog

                USAGE: actionlog-demo [--output <path>]

                OPTIONS:
                  -o, --output <path>     The journal to write. (default: demo.actionlog)
                  --version               Show the version.
                  -h, --help              Show help information.


                """)
        }
    }

    @Test("a missing or empty --output is a usage error, and nothing is written", arguments: [
        (["--output"], "Error: Missing value for '--output <path>'"),
        (["--output", ""], "Error: --output is an empty path; give the path of a file."),
    ])
    func usageErrors(arguments: [String], message: String) throws {
        try withTemporaryDirectory { directory in
            let result = try runCLI(arguments, in: directory, program: .demo)
            #expect(result.status == 64)
            #expect(result.stdout == "")
            #expect(lines(result.stderr).first == message, "\(result.stderr)")
            #expect(result.stderr.contains("Usage: actionlog-demo [--output <path>]"))
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        }
    }
}

@Suite("replay-cli sessions")
struct SessionsCommandTests {
    @Test("sessions prints a table: a header and one row per session")
    func sessionsTable() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            let result = try runCLI(["sessions", "demo.actionlog"], in: directory)
            #expect(result.status == 0)
            #expect(result.stderr == "")
            let output = lines(result.stdout)
            try #require(output.count == 5, "\(result.stdout)")
            #expect(output[0] == DemoJournal.sessionsHeader)
            #expect(matches(output[1], "1   city search   closed  17       \(timestampPattern)  \(secondsPattern)"), "\(output[1])")
            #expect(matches(output[2], "2   checkout      closed  15       \(timestampPattern)  \(secondsPattern)"), "\(output[2])")
            #expect(matches(output[3], "3   product card  closed  9        \(timestampPattern)  \(secondsPattern)"), "\(output[3])")
            #expect(matches(output[4], "4   sign in       closed  9        \(timestampPattern)  \(secondsPattern)"), "\(output[4])")
        }
    }

    @Test("sessions --json describes every session")
    func sessionsJSON() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            let result = try runCLI(["sessions", "demo.actionlog", "--json"], in: directory)
            #expect(result.status == 0)
            #expect(result.stderr == "")
            let values = try jsonObjects(result.stdout)
            try #require(values.count == 4)
            #expect(values.map { int($0["session"]) } == [1, 2, 3, 4])
            #expect(values.map { $0["sessionName"] as? String } == ["city search", "checkout", "product card", "sign in"])
            #expect(values.map { $0["status"] as? String } == ["closed", "closed", "closed", "closed"])
            #expect(values.map { int($0["entries"]) } == [
                DemoJournal.citySearchEntries, DemoJournal.checkoutEntries, DemoJournal.productCardEntries, DemoJournal.signInEntries,
            ])
            #expect(values.map { int($0["dropped"]) } == [0, 0, 0, 0])
            #expect(values.map { $0["stateType"] as? String } == [
                "ActionLogExamples.CitySearch", "ActionLogExamples.Checkout.State", "ActionLogExamples.ProductCard", "ActionLog.NoState",
            ])
            #expect(values.map { $0["actionType"] as? String } == [
                "ActionLogStore.Message<ActionLogExamples.CitySearch.Input, ActionLogExamples.CitySearch.Feedback>",
                "ActionLogExamples.Checkout.Event",
                "ActionLogExamples.ProductCardAction",
                "ActionLogExamples.SignInViewEvent",
            ])
            #expect(values.map { $0["appVersion"] as? String } == ["actionlog-demo", "actionlog-demo", "actionlog-demo", "actionlog-demo"])
            for value in values {
                let started = try #require(value["startedAt"] as? String)
                let ended = try #require(value["endedAt"] as? String)
                #expect(matches(started, timestampPattern))
                #expect(matches(ended, timestampPattern))
                #expect(started <= ended)
                let duration = try #require(int(value["durationNanoseconds"]))
                #expect(duration >= 0 && duration < 60_000_000_000)
            }
        }
    }

    @Test("sessions of a journal without sessions says so")
    func sessionsOfEmptyJournal() throws {
        try withTemporaryDirectory { directory in
            try makeEmptyJournal(at: directory.appendingPathComponent("empty.actionlog"))
            let table = try runCLI(["sessions", "empty.actionlog"], in: directory)
            #expect(table.status == 0)
            #expect(table.stdout == "empty.actionlog: no sessions\n")
            let json = try runCLI(["sessions", "empty.actionlog", "--json"], in: directory)
            #expect(json.status == 0)
            #expect(try jsonObjects(json.stdout).isEmpty)
            let verify = try runCLI(["verify", "empty.actionlog"], in: directory)
            #expect(verify.status == 0)
            #expect(verify.stdout == "empty.actionlog: 0 sessions, 0 entries: OK\n")
        }
    }
}

@Suite("replay-cli log")
struct LogCommandTests {
    @Test("log prints a header and one line per entry", arguments: ["2", "checkout"])
    func logTable(session: String) throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            let result = try runCLI(["log", "demo.actionlog", "--session", session], in: directory)
            #expect(result.status == 0)
            #expect(result.stderr == "")
            let output = lines(result.stdout)
            #expect(output.count == DemoJournal.checkoutEntries + 1)
            #expect(matches(output.first ?? "", "SEQ  OFFSET +ACTION {12}JSON"), "\(output.first ?? "")")
            let rows = output.dropFirst().map(LogRow.init)
            #expect(rows.allSatisfy { $0 != nil }, "unparsable rows in:\n\(result.stdout)")
            #expect(rows.map { $0?.seq } == Array(0..<DemoJournal.checkoutEntries))
            #expect(rows.map { $0?.rest } == DemoJournal.checkoutLogRows)
            #expect(output[1].hasPrefix("0    +"))
            #expect(output.contains { $0.contains(#"addItem           {"addItem":{"_0":{"name":"Green tea""#) })
        }
    }

    @Test("log --session accepts -s and a name: the same timeline as by id")
    func logByNameMatchesByID() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            let byID = try runCLI(["log", "demo.actionlog", "--session", "1"], in: directory)
            let byName = try runCLI(["log", "demo.actionlog", "-s", "city search"], in: directory)
            #expect(byID.status == 0)
            #expect(byName.status == 0)
            #expect(byName.stdout == byID.stdout)
            #expect(lines(byID.stdout).count == DemoJournal.citySearchEntries + 1)
        }
    }

    @Test("log by name picks the newest session of that name")
    func logByNamePicksNewest() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            try runDemo(in: directory)
            let byName = try runCLI(["log", "demo.actionlog", "--session", "checkout", "--json"], in: directory)
            let byID = try runCLI(["log", "demo.actionlog", "--session", "6", "--json"], in: directory)
            let older = try runCLI(["log", "demo.actionlog", "--session", "2", "--json"], in: directory)
            #expect(byName.status == 0)
            #expect(byName.stdout == byID.stdout)
            #expect(byName.stdout != older.stdout)  // Same actions, but other times.
        }
    }

    @Test("log --json lists every entry with its seq, kind, label and action")
    func logJSON() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            let checkout = try runCLI(["log", "demo.actionlog", "--session", "checkout", "--json"], in: directory)
            #expect(checkout.status == 0)
            #expect(checkout.stderr == "")
            let entries = try jsonLines(checkout.stdout)
            #expect(entries.map { int($0["seq"]) } == Array(0..<DemoJournal.checkoutEntries))
            // Small states: a delta is written only where it is smaller than the keyframe and within budget.
            var kinds = Array(repeating: "keyframe", count: DemoJournal.checkoutEntries)
            for seq in [7, 8, 9, 13, 14] { kinds[seq] = "delta" }
            #expect(entries.map { $0["kind"] as? String } == kinds)
            let labels = entries.map { $0["label"] as? String }
            #expect(labels == [nil, "addItem", "addItem", "checkoutTapped", "cartValidated", "payTapped", "paymentDeclined",
                               "retryTapped", "removeItem", "addItem", "checkoutTapped", "cartValidated", "payTapped",
                               "paymentSucceeded", "doneTapped"])
            let first = try #require(entries.first)
            #expect(first["action"] is NSNull)
            #expect(first["label"] is NSNull)
            #expect(first["reducerNanoseconds"] is NSNull)
            let added = try #require(entries.dropFirst().first?["action"] as? [String: Any])
            let item = try #require((added["addItem"] as? [String: Any])?["_0"] as? [String: Any])
            #expect(item["sku"] as? String == "tea-01")
            #expect(int(item["priceCents"]) == 1_250)
            #expect(int(item["quantity"]) == 2)
            for entry in entries {
                #expect(matches(entry["time"] as? String ?? "", timestampPattern))
                #expect((int(entry["offsetNanoseconds"]) ?? -1) >= 0)
                #expect(int(entry["session"]) == 2)
                #expect(entry["dropped"] is NSNull)
            }
            // The state machine's side effects are its entries' effects.
            #expect(entries.map { ($0["effect"] as? [String: Any]).map { $0.keys.sorted() } } == [
                nil, nil, nil, ["validateCart"], nil, ["chargePayment"], nil, nil, nil, nil, ["validateCart"], nil, ["chargePayment"], nil, nil,
            ])
            #expect(entries.dropFirst().allSatisfy { int($0["reducerNanoseconds"]) != nil })

            let citySearch = try runCLI(["log", "demo.actionlog", "--session", "1", "--json"], in: directory)
            let cityEntries = try jsonLines(citySearch.stdout)
            #expect(cityEntries.map { $0["label"] as? String } == DemoJournal.citySearchLabels)
            #expect(cityEntries.contains { $0["effect"] is [String: Any] }, "the city search records fetch effects")
        }
    }
}

@Suite("replay-cli state")
struct StateCommandTests {
    @Test("state --at 0 prints the initial state as pretty JSON")
    func initialState() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            let result = try runCLI(["state", "demo.actionlog", "--session", "2", "--at", "0"], in: directory)
            #expect(result.status == 0)
            #expect(result.stderr == "")
            #expect(result.stdout == """
                {
                  "idle": {
                    "cart": {
                      "items": []
                    }
                  }
                }

                """)
        }
    }

    @Test("state without --at prints the state after the last entry")
    func lastState() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            let result = try runCLI(["state", "demo.actionlog", "--session", "checkout"], in: directory)
            #expect(result.status == 0)
            #expect(result.stdout == """
                {
                  "completed": {
                    "receipt": {
                      "totalCents": 6100,
                      "transactionID": "txn-4pg"
                    }
                  }
                }

                """)
        }
    }

    @Test("state --at 5 prints the state after that entry")
    func stateInTheMiddle() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            let result = try runCLI(["state", "demo.actionlog", "-s", "2", "--at", "5"], in: directory)
            #expect(result.status == 0)
            let state = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let processing = try #require(state["processingPayment"] as? [String: Any], "\(result.stdout)")
            #expect(int(processing["totalCents"]) == 67_400)
            let items = try #require((processing["cart"] as? [String: Any])?["items"] as? [[String: Any]])
            #expect(items.map { $0["sku"] as? String } == ["tea-01", "kettle-9"])
        }
    }
}
