import Foundation
import Testing

private let red = "\u{1B}[31m", green = "\u{1B}[32m", dim = "\u{1B}[2m", reset = "\u{1B}[0m"

@Suite("replay-cli on a terminal: colours and progress")
struct TerminalTests {
    @Test("verify colours OK green on a terminal; NO_COLOR (any non-empty value) and TERM=dumb turn colour off")
    func verifyColour() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            let coloured = try runCLIOnTerminal(["verify", "demo.actionlog"], in: directory)
            #expect(coloured.status == 0)
            #expect(coloured.terminal == "demo.actionlog: 4 sessions, 50 entries: \(green)OK\(reset)\n")
            for environment in [["NO_COLOR": "1"], ["NO_COLOR": "false"], ["TERM": "dumb"]] {
                let plain = try runCLIOnTerminal(["verify", "demo.actionlog"], in: directory, environment: environment)
                #expect(plain.terminal == "demo.actionlog: 4 sessions, 50 entries: OK\n", "\(environment)")
            }
            // An empty NO_COLOR does not count (no-color.org).
            let empty = try runCLIOnTerminal(["verify", "demo.actionlog"], in: directory, environment: ["NO_COLOR": ""])
            #expect(empty.terminal.contains(green))
        }
    }

    @Test("verify findings are red on a terminal")
    func verifyFindingsRed() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            try runSQLite("DELETE FROM entries WHERE session_id = 1 AND seq = 3;", on: "demo.actionlog", in: directory)
            let result = try runCLIOnTerminal(["verify", "demo.actionlog"], in: directory)
            #expect(result.status == 1)
            #expect(lines(result.terminal) == [
                "demo.actionlog: 4 sessions, 49 entries: \(red)1 problem\(reset)",
                "  \(red)session 1, entry 3: missing: the entry is not in the file\(reset)",
            ])
        }
    }

    @Test("diff colours removals red and additions green on a terminal, not with NO_COLOR")
    func diffColour() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            let arguments = ["diff", "demo.actionlog", "--session", "city search", "3", "4"]
            let coloured = try runCLIOnTerminal(arguments, in: directory)
            let plain = try runCLI(arguments, in: directory)
            #expect(coloured.status == 0)
            let colouredLines = lines(coloured.terminal)
            let plainLines = lines(plain.stdout)
            try #require(colouredLines.count == plainLines.count)
            for (shown, text) in zip(colouredLines, plainLines) {
                if text.hasPrefix("  − ") {
                    #expect(shown == red + text + reset)
                } else if text.hasPrefix("  + ") {
                    #expect(shown == green + text + reset)
                } else {
                    #expect(shown == text)
                }
            }
            #expect(plainLines.contains { $0.hasPrefix("  − ") })
            let noColour = try runCLIOnTerminal(arguments, in: directory, environment: ["NO_COLOR": "1"])
            #expect(lines(noColour.terminal) == plainLines)
        }
    }

    @Test("log dims the time offsets on a terminal; the columns stay aligned")
    func logColour() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            let coloured = try runCLIOnTerminal(["log", "demo.actionlog", "--session", "2", "--limit", "2"], in: directory)
            #expect(coloured.status == 0)
            let plain = try runCLI(["log", "demo.actionlog", "--session", "2", "--limit", "2"], in: directory)
            let shown = lines(coloured.terminal)
            #expect(shown.count == 3)
            // The same text once the colour is taken out: the padding is outside the colour.
            let uncoloured = shown.map { $0.replacingOccurrences(of: dim, with: "").replacingOccurrences(of: reset, with: "") }
            #expect(uncoloured.map { LogRow($0)?.rest } == lines(plain.stdout).map { LogRow($0)?.rest })
            #expect(uncoloured.first == lines(plain.stdout).first)
            #expect(shown.dropFirst().allSatisfy { matches($0, #"\d+ +\#(NSRegularExpression.escapedPattern(for: dim))\+\#(secondsPattern)\#(NSRegularExpression.escapedPattern(for: reset)) .*"#) },
                    "\(shown)")
        }
    }

    @Test("log cuts coloured lines to the terminal's width by what shows, and ends a colour it cuts")
    func logColourCut() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            let result = try runCLIOnTerminal(["log", "demo.actionlog", "--session", "2", "--limit", "2"], in: directory, environment: ["COLUMNS": "12"])
            #expect(result.status == 0)
            let shown = lines(result.terminal)
            try #require(shown.count == 3, "\(result.terminal.debugDescription)")
            // 11 characters that show, then the ellipsis; the cut ends the dim offset.
            #expect(shown[0] == "SEQ  OFFSET…")
            #expect(shown[1] == "0    \(dim)+0.000\(reset)…")
            let escaped = { NSRegularExpression.escapedPattern(for: $0) }
            #expect(matches(shown[2], "1    \(escaped(dim))\\+\\d\\.\\d{3}\(escaped(reset))…"), "\(shown[2].debugDescription)")
        }
    }

    @Test("log lines up and cuts wide characters by the columns they take, and never cuts an escape in two")
    func wideCharacters() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            try runSQLite("""
                UPDATE entries SET checksum = NULL, label = '東京東京', action = '{"q":"東京東京東京東京東京東京東京東京"}' WHERE session_id = 2 AND seq = 1;
                UPDATE entries SET checksum = NULL, label = 'a' || char(27) || char(27) || char(27) || char(27) WHERE session_id = 2 AND seq = 2
                """, on: "demo.actionlog", in: directory)
            let result = try runCLIOnTerminal(
                ["log", "demo.actionlog", "--session", "2", "--limit", "3"], in: directory, environment: ["COLUMNS": "60", "NO_COLOR": "1"])
            #expect(result.status == 0)
            let shown = lines(result.terminal)
            try #require(shown.count == 4, "\(result.terminal.debugDescription)")
            // The label column is as wide as its widest cell in columns: "東京東京" takes 8, and a\u{1B}×4 25.
            // The offset is the time the demo took to record entry 1: any, on a busy machine.
            #expect(matches(shown[2], #"1    \+\d+\.\d{3}s  東京東京.*"#), "\(shown[2].debugDescription)")
            // 14 columns of seq and offset, 25 + 2 of label, 6 of JSON, then six wide characters (12
            // columns) and the ellipsis: 60.
            #expect(shown[2].hasSuffix(#"s  東京東京                   {"q":"東京東京東京…"#))
            // Each line takes at most 60 columns: 59 and the ellipsis.
            for line in shown {
                #expect(line.reduce(0) { $0 + ($1.unicodeScalars.first!.value >= 0x3000 ? 2 : 1) } <= 60, "\(line)")
            }
            #expect(shown[2].hasSuffix("…"))
            // At 30 columns the cut falls in the third escape of the label: it goes whole.
            let narrow = try runCLIOnTerminal(
                ["log", "demo.actionlog", "--session", "2", "--limit", "3"], in: directory, environment: ["COLUMNS": "30", "NO_COLOR": "1"])
            let row = try #require(lines(narrow.terminal).last)
            #expect(row.hasSuffix(#"  a\u{1B}\u{1B}…"#), "\(row)")
        }
    }

    @Test("JSON and piped output never carry colour, even on a terminal", arguments: [
        ["sessions", "demo.actionlog", "--json"], ["log", "demo.actionlog", "--session", "2", "--json"],
        ["verify", "demo.actionlog", "--json"], ["diff", "demo.actionlog", "--session", "2", "0", "3", "--json"],
        ["state", "demo.actionlog", "--session", "2"], ["stats", "demo.actionlog", "--json"],
    ])
    func noColourInJSON(arguments: [String]) throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            let result = try runCLIOnTerminal(arguments, in: directory)
            #expect(result.status == 0)
            #expect(!result.terminal.contains("\u{1B}"), "\(result.terminal)")
        }
    }

    @Test("piped output has no escape sequences", arguments: [
        ["verify", "demo.actionlog"], ["log", "demo.actionlog", "--session", "2"], ["diff", "demo.actionlog", "--session", "2", "0", "3"],
        ["sessions", "demo.actionlog"], ["stats", "demo.actionlog"],
    ])
    func noColourWhenPiped(arguments: [String]) throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            let result = try runCLI(arguments, in: directory)
            #expect(result.status == 0)
            #expect(!result.stdout.contains("\u{1B}"))
        }
    }

    @Test("verify draws its progress on a terminal's standard error and clears it; its output is unchanged")
    func progressOnTerminal() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            // The line shows once the command has run a while; here at once, so a small journal shows it.
            let result = try runCLIOnTerminal(
                ["verify", "demo.actionlog"], in: directory, environment: ["REPLAY_CLI_PROGRESS_DELAY": "0"], standardErrorOnTerminal: true)
            #expect(result.status == 0)
            #expect(result.piped == "demo.actionlog: 4 sessions, 50 entries: OK\n")
            let drawn = "\rverify: 1 / 50 entries\r"
            #expect(result.terminal.hasPrefix(drawn), "\(result.terminal.debugDescription)")
            #expect(result.terminal.hasSuffix("\r" + String(repeating: " ", count: drawn.count - 2) + "\r"), "cleared at the end: \(result.terminal.debugDescription)")
        }
    }

    @Test("export draws progress when it writes a file, not when its text goes to the terminal too")
    func exportProgress() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            let delay = ["REPLAY_CLI_PROGRESS_DELAY": "0"]
            let toFile = try runCLIOnTerminal(
                ["export", "demo.actionlog", "--session", "2", "--output", "out.jsonl"], in: directory, environment: delay,
                standardErrorOnTerminal: true)
            #expect(toFile.status == 0)
            #expect(toFile.terminal.contains("\rexport: 15 / 15 entries"), "\(toFile.terminal.debugDescription)")
            let toTerminal = try runCLIOnTerminal(["export", "demo.actionlog", "--session", "2"], in: directory, environment: delay, bothOnTerminal: true)
            #expect(toTerminal.status == 0)
            #expect(!toTerminal.terminal.contains("export:"))
            #expect(toTerminal.terminal == (try String(contentsOf: directory.appendingPathComponent("out.jsonl"), encoding: .utf8)))
        }
    }

    @Test("report draws its progress on a terminal's standard error and clears it")
    func reportProgress() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            let result = try runCLIOnTerminal(
                ["report", "demo.actionlog", "--session", "2", "--output", "checkout.html"], in: directory,
                environment: ["REPLAY_CLI_PROGRESS_DELAY": "0"], standardErrorOnTerminal: true)
            #expect(result.status == 0)
            #expect(result.piped == "Wrote checkout.html: session 2 (15 entries).\n")
            #expect(result.terminal.hasPrefix("\rreport: 1 / 15 entries\r"), "\(result.terminal.debugDescription)")
            // Cleared at the end with as many spaces as the last line drawn had characters.
            #expect(result.terminal.wholeMatch(of: /\rreport: [\s\S]*\r {22,23}\r/) != nil, "cleared at the end: \(result.terminal.debugDescription)")
        }
    }

    @Test("no progress when standard error is piped, however long the command", arguments: [
        ["verify", "demo.actionlog"], ["export", "demo.actionlog", "--session", "2", "--output", "out.jsonl"],
        ["report", "demo.actionlog", "--session", "2", "--output", "checkout.html"],
        ["import", "fixture.jsonl", "--into", "new.actionlog"], ["prune", "demo.actionlog", "--keep", "1"],
    ])
    func noProgressWhenPiped(arguments: [String]) throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            let export = try runCLI(["export", "demo.actionlog", "--session", "1", "--output", "fixture.jsonl"], in: directory)
            #expect(export.status == 0)
            let result = try runProcess(try replayCLIBinary(), arguments, in: directory, environment: ["REPLAY_CLI_PROGRESS_DELAY": "0"])
            #expect(result.status == 0)
            #expect(result.stderr == "")
        }
    }
}
