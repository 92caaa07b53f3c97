import Foundation
import Testing
@testable import ActionLog

/// A session whose name, app version, labels, actions, states and gap note hold terminal escape
/// sequences (a title change ending in BEL, clear screen, CSI as one C1 byte), CR and LF, TAB, DEL,
/// and bidirectional controls (RLO U+202E, LRI U+2066).
private let hostileJSONL = #"""
    {"actionlog":"session","format":1,"name":"\u001b]0;pwned\u0007\r\n\u202eevil","status":"closed","startedAt":1000,"endedAt":1001,"libraryVersion":"0.1.0","appVersion":"\u001b[31mv1","stateType":"S","actionType":"A","dropped":1,"metadata":{}}
    {"seq":0,"kind":"keyframe","time":1000,"state":{"name":"a\u202eb"}}
    {"seq":1,"kind":"keyframe","label":"type\ntext\r","time":1000.25,"durationNs":5,"action":{"type\t\u007f":{"_0":"\u001b]0;pwned\u0007"}},"state":{"name":"\u001b[2J\u009bx"}}
    {"seq":2,"kind":"gap","time":1000.5,"dropped":1,"note":"lost\u001b[2K\u2066"}

    """#

/// The session's name, as the data holds it.
private let hostileName = "\u{1B}]0;pwned\u{07}\r\n\u{202E}evil"

/// Writes `hostile.jsonl` and imports it as session 1 of `hostile.actionlog`.
private func makeHostileJournal(in directory: URL) throws {
    let text = directory.appendingPathComponent("hostile.jsonl")
    try hostileJSONL.write(to: text, atomically: true, encoding: .utf8)
    try Journal.importJSONL(at: text, into: directory.appendingPathComponent("hostile.actionlog").path)
}

/// The characters of `text` that must never reach a terminal raw: controls (but the line feeds that
/// end lines) and bidirectional controls.
private func rawControls(_ text: String) -> [String] {
    text.unicodeScalars.filter { $0 != "\n" && DisplayEscaping.isUnsafe($0) }.map { "U+" + String($0.value, radix: 16, uppercase: true) }
}

@Suite("replay-cli escapes text from files")
struct EscapingTests {
    @Test("sessions prints one row per session, with the name's controls escaped")
    func sessions() throws {
        try withTemporaryDirectory { directory in
            try makeHostileJournal(in: directory)
            let result = try runCLI(["sessions", "hostile.actionlog"], in: directory)
            #expect(result.status == 0)
            #expect(result.stderr == "")
            #expect(rawControls(result.stdout) == [])
            #expect(result.stdout == #"""
                ID  NAME                                       STATUS  ENTRIES        STARTED                      DURATION
                1   \u{1B}]0;pwned\u{7}\u{D}\u{A}\u{202E}evil  closed  3 (1 dropped)  1970-01-01T00:16:40.000000Z  1.000s

                """#)
        }
    }

    @Test("log prints one row per entry: labels, actions and notes escaped, JSON escapes kept")
    func log() throws {
        try withTemporaryDirectory { directory in
            try makeHostileJournal(in: directory)
            let result = try runCLI(["log", "hostile.actionlog", "--session", "1"], in: directory)
            #expect(result.status == 0)
            #expect(result.stderr == "")
            #expect(rawControls(result.stdout) == [])
            #expect(result.stdout == #"""
                SEQ  OFFSET   ACTION              JSON
                0    +0.000s  (initial state)
                1    +0.250s  type\u{A}text\u{D}  {"type\t\u{7F}":{"_0":"\u001b]0;pwned\u0007"}}
                2    +0.500s  (gap)               lost\u{1B}[2K\u{2066}

                """#)
        }
    }

    @Test("log on a terminal: the gap is yellow, the offsets dim, and the only escape sequences are the colours")
    func logOnTerminal() throws {
        try withTemporaryDirectory { directory in
            try makeHostileJournal(in: directory)
            let result = try runCLIOnTerminal(["log", "hostile.actionlog", "--session", "1"], in: directory)
            #expect(result.status == 0)
            let (dim, yellow, reset) = ("\u{1B}[2m", "\u{1B}[33m", "\u{1B}[0m")
            #expect(lines(result.terminal) == [
                "SEQ  OFFSET   ACTION              JSON",
                "0    \(dim)+0.000s\(reset)  (initial state)",
                #"1    \#(dim)+0.250s\#(reset)  type\u{A}text\u{D}  {"type\t\u{7F}":{"_0":"\u001b]0;pwned\u0007"}}"#,
                #"2    \#(dim)+0.500s\#(reset)  \#(yellow)(gap)\#(reset)               \#(yellow)lost\u{1B}[2K\u{2066}\#(reset)"#,
            ], "\(result.terminal.debugDescription)")
        }
    }

    @Test("a session picked by a name holding controls is found; the error for a wrong one escapes them")
    func sessionByName() throws {
        try withTemporaryDirectory { directory in
            try makeHostileJournal(in: directory)
            let found = try runCLI(["log", "hostile.actionlog", "--session", hostileName], in: directory)
            #expect(found.status == 0)
            #expect(lines(found.stdout).count == 4)

            let result = try runCLI(["export", "hostile.jsonl", "--session", "other\u{1B}[8m"], in: directory)
            #expect(result.status == 64)
            #expect(result.stdout == "")
            #expect(rawControls(result.stderr) == [])
            #expect(result.stderr == #"""
                error: hostile.jsonl: no session named "other\u{1B}[8m" (the file holds session "\u{1B}]0;pwned\u{7}\u{D}\u{A}\u{202E}evil")

                """#)
        }
    }

    @Test("a path holding controls is escaped in errors and headings")
    func hostilePath() throws {
        try withTemporaryDirectory { directory in
            let result = try runCLI(["sessions", "evil\u{1B}[31m\u{202E}.actionlog"], in: directory)
            #expect(result.status == 64)
            #expect(result.stderr == #"""
                error: evil\u{1B}[31m\u{202E}.actionlog: no such file (looked for evil\u{1B}[31m\u{202E}.actionlog)

                """#)

            try makeHostileJournal(in: directory)
            let name = "run\r\u{1B}[1m.actionlog"
            try FileManager.default.copyItem(
                at: directory.appendingPathComponent("hostile.actionlog"), to: directory.appendingPathComponent(name))
            let verify = try runCLI(["verify", name], in: directory)
            #expect(verify.status == 0)
            #expect(verify.stdout == #"run\u{D}\u{1B}[1m.actionlog: 1 session, 3 entries: OK"# + "\n")
        }
    }

    @Test("state, diff and import escape what they print; state stays JSON")
    func stateDiffImport() throws {
        try withTemporaryDirectory { directory in
            try makeHostileJournal(in: directory)
            let state = try runCLI(["state", "hostile.actionlog", "--session", "1", "--at", "0"], in: directory)
            #expect(state.status == 0)
            #expect(rawControls(state.stdout) == [])
            #expect(state.stdout == #"{\#n  "name": "a\u202eb"\#n}\#n"#)
            let parsed = try JSONSerialization.jsonObject(with: Data(state.stdout.utf8)) as? [String: String]
            #expect(parsed == ["name": "a\u{202E}b"], "the same value as stored")

            let diff = try runCLI(["diff", "hostile.actionlog", "--session", "1", "0", "1"], in: directory)
            #expect(diff.status == 0)
            #expect(rawControls(diff.stdout) == [])
            #expect(diff.stdout == #"""
                Entry 0 → entry 1 of session 1 "\u{1B}]0;pwned\u{7}\u{D}\u{A}\u{202E}evil":
                  − name: "a\u{202E}b"
                  + name: "\u001b[2J\u{9B}x"
                (entry 0: −, entry 1: +)

                """#)

            let imported = try runCLI(["import", "hostile.jsonl", "--into", "again.actionlog"], in: directory)
            #expect(imported.status == 0)
            #expect(imported.stdout == #"""
                Imported session "\u{1B}]0;pwned\u{7}\u{D}\u{A}\u{202E}evil" as session 1 of again.actionlog (3 entries).

                """#)
        }
    }

    @Test("--json output is valid JSON holding the data unchanged, with no raw control on the terminal")
    func json() throws {
        try withTemporaryDirectory { directory in
            try makeHostileJournal(in: directory)
            let sessions = try runCLI(["sessions", "hostile.actionlog", "--json"], in: directory)
            #expect(sessions.status == 0)
            #expect(rawControls(sessions.stdout) == [])
            let objects = try jsonObjects(sessions.stdout)
            #expect(objects.first?["sessionName"] as? String == hostileName)
            #expect(objects.first?["appVersion"] as? String == "\u{1B}[31mv1")

            let log = try runCLI(["log", "hostile.actionlog", "--session", "1", "--json"], in: directory)
            #expect(log.status == 0)
            #expect(rawControls(log.stdout) == [])
            let entries = try jsonLines(log.stdout)
            #expect(entries.count == 3)
            #expect(entries[1]["label"] as? String == "type\ntext\r")
            #expect((entries[1]["action"] as? [String: Any])?.keys.first == "type\t\u{7F}")
            #expect(entries[2]["note"] as? String == "lost\u{1B}[2K\u{2066}")
            #expect(lines(log.stdout)[2] == #"{"action":null,"actionNumber":2,"dropped":1,"effect":null,"kind":"gap","label":null,"note":"lost\u001b[2K\u2066","offsetNanoseconds":500000000,"reducerNanoseconds":null,"seq":2,"session":1,"time":"1970-01-01T00:16:40.500000Z"}"#)

            let diff = try runCLI(["diff", "hostile.actionlog", "--session", "1", "0", "1", "--json"], in: directory)
            #expect(diff.status == 0)
            #expect(rawControls(diff.stdout) == [])
            #expect(try diffObjects(diff.stdout).first?["to"] as? String == "\u{1B}[2J\u{9B}x")
        }
    }

    @Test("export writes the text form exactly: it is a file format, not a report")
    func exportIsExact() throws {
        try withTemporaryDirectory { directory in
            try makeHostileJournal(in: directory)
            let result = try runCLI(["export", "hostile.actionlog"], in: directory)
            #expect(result.status == 0)
            let original = try String(contentsOf: directory.appendingPathComponent("hostile.jsonl"), encoding: .utf8)
            let reexported = try RecordedSession(jsonl: result.stdout, file: "out.jsonl")
            #expect(reexported.session.name == hostileName)
            #expect(reexported.entries == (try RecordedSession(jsonl: original, file: "in.jsonl")).entries)
        }
    }
}
