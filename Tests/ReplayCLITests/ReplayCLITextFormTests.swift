import ActionLogViewer
import Foundation
import Testing

/// The committed golden journals and their text forms.
private let fixtures = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("fixtures")

@Suite("replay-cli readers on a session's text form (.jsonl)")
struct TextFormReaderTests {
    /// The readers' arguments after the file, with `--session` given for the journal only.
    private static let readers: [[String]] = [
        ["log"], ["log", "--json"], ["log", "--label", "*Tapped"], ["log", "--kind", "delta", "--json"], ["log", "--from", "3", "--limit", "2"],
        ["state"], ["state", "--at", "3"], ["state", "--at", "3", "--json"],
        ["stats"], ["stats", "--json"],
        ["diff", "3", "5"], ["diff", "0", "4", "--json"],
        ["sessions"], ["sessions", "--json"],
    ]

    /// What a command prints for a journal's session, with the session's id written as a text
    /// form's session is (none: `session "checkout"`, `"session": null`, ID `-`), and the file named as given.
    private static func withoutID(_ text: String, id: Int, journal: String, textForm: String, table: Bool) -> String {
        var text = text
        for (from, to) in [
            ("session \(id) \"", "session \""), ("\"session\": \(id),", "\"session\": null,"), ("\"session\":\(id),", "\"session\":null,"),
            ("\"file\": \"\(journal)\"", "\"file\": \"\(textForm)\""),
        ] {
            text = text.replacingOccurrences(of: from, with: to)
        }
        // The sessions table's ID column: the id, then the name, as `-` then the name.
        guard table else { return text }
        return lines(text).map { line in line.hasPrefix("\(id) ") ? "-" + line.dropFirst("\(id)".count) : line }
            .joined(separator: "\n") + (text.hasSuffix("\n") ? "\n" : "")
    }

    @Test(
        "log, state, stats, diff and sessions print for a .jsonl what they print for the journal it was exported from",
        arguments: ["checkout", "product-card", "city-search"])
    func sameOutput(fixture: String) throws {
        try withTemporaryDirectory { directory in
            try FileManager.default.copyItem(
                at: fixtures.appendingPathComponent("\(fixture).actionlog"), to: directory.appendingPathComponent("\(fixture).actionlog"))
            let exported = try runCLI(["export", "\(fixture).actionlog", "--output", "\(fixture).jsonl"], in: directory)
            try #require(exported.status == 0, "\(exported.stderr)")
            // The text form holds times to the microsecond: the journal compared with is the text
            // form imported, whose offsets are those of the same times.
            try FileManager.default.removeItem(at: directory.appendingPathComponent("\(fixture).actionlog"))
            let imported = try runCLI(["import", "\(fixture).jsonl", "--into", "\(fixture).actionlog"], in: directory)
            try #require(imported.status == 0, "\(imported.stderr)")
            // Nothing is left in the temporary directory the text form is read into.
            let temporary = directory.appendingPathComponent("tmp")
            try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: false)
            for arguments in Self.readers {
                let journal = try runCLI([arguments[0], "\(fixture).actionlog"] + arguments.dropFirst(), in: directory)
                let text = try runProcess(
                    try replayCLIBinary(), [arguments[0], "\(fixture).jsonl"] + arguments.dropFirst(), in: directory,
                    environment: ["TMPDIR": temporary.path])
                #expect(journal.status == 0, "\(arguments): \(journal.stderr)")
                #expect(text.status == 0, "\(arguments): \(text.stderr)")
                #expect(text.stderr == "", "\(arguments)")
                #expect(!text.stdout.isEmpty, "\(arguments)")
                #expect(
                    text.stdout == Self.withoutID(
                        journal.stdout, id: 1, journal: "\(fixture).actionlog", textForm: "\(fixture).jsonl",
                        table: arguments == ["sessions"]),
                    "\(arguments)")
                #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path) == [], "\(arguments)")
            }
        }
    }

    @Test("--session names a text form's session by its name; another name says which session the file holds")
    func sessionByName() throws {
        try withTemporaryDirectory { directory in
            try FileManager.default.copyItem(at: fixtures.appendingPathComponent("checkout.jsonl"), to: directory.appendingPathComponent("checkout.jsonl"))
            let named = try runCLI(["state", "checkout.jsonl", "--session", "checkout", "--at", "2"], in: directory)
            let unnamed = try runCLI(["state", "checkout.jsonl", "--at", "2"], in: directory)
            #expect(named.status == 0)
            #expect(named.stdout == unnamed.stdout)
            for command in [["log"], ["state"], ["stats"], ["diff", "1", "2"]] {
                let other = try runCLI([command[0], "checkout.jsonl", "--session", "1"] + command.dropFirst(), in: directory)
                #expect(other.status == 64, "\(command)")
                #expect(other.stdout == "")
                #expect(other.stderr == "error: checkout.jsonl: no session named \"1\" (the file holds session \"checkout\")\n", "\(command)")
            }
        }
    }

    @Test("a damaged text form is refused by every reader as import refuses it, naming the entry and the line")
    func damaged() throws {
        try withTemporaryDirectory { directory in
            var text = lines(try String(contentsOf: fixtures.appendingPathComponent("checkout.jsonl"), encoding: .utf8))
            text[4] = #"{"seq":3}"#
            try Data((text.joined(separator: "\n") + "\n").utf8).write(to: directory.appendingPathComponent("bad.jsonl"))
            for command in [["log"], ["state"], ["stats"], ["sessions"], ["diff", "1", "2"]] {
                let result = try runCLI([command[0], "bad.jsonl"] + command.dropFirst(), in: directory)
                #expect(result.status == 1, "\(command)")
                #expect(result.stdout == "", "\(command)")
                #expect(result.stderr == "error: bad.jsonl, entry 3: line 5: the entry has no \"kind\"\n", "\(command)")
            }
        }
    }

    @Test("report writes a page of a text form's session, and serve serves it")
    func reportAndServe() throws {
        try withTemporaryDirectory { directory in
            try FileManager.default.copyItem(at: fixtures.appendingPathComponent("checkout.jsonl"), to: directory.appendingPathComponent("checkout.jsonl"))
            let report = try runCLI(["report", "checkout.jsonl", "--output", "checkout.html"], in: directory)
            #expect(report.status == 0, "\(report.stderr)")
            #expect(report.stdout == "Wrote checkout.html: session \"checkout\" (15 entries).\n")
            let page = try String(contentsOf: directory.appendingPathComponent("checkout.html"), encoding: .utf8)
            #expect(page.contains("cartValidated"))

            let itself = try runCLI(["report", "checkout.jsonl", "--output", "checkout.jsonl", "--force"], in: directory)
            #expect(itself.status == 64)
            #expect(itself.stderr == "error: checkout.jsonl: the file being read; --output needs another file\n")

            let temporary = directory.appendingPathComponent("tmp")
            try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: false)
            let server = try LiveCLI(["serve", "checkout.jsonl"], in: directory, environment: ["TMPDIR": temporary.path])
            #expect(server.waitFor { lines($0).count >= 2 }, "\(server.stdout)")
            let port = try #require(lines(server.stdout).first.flatMap { URL(string: $0)?.port })
            let answer = try LoopbackClient.get(port: port, "/api/sessions", host: "127.0.0.1:\(port)")
            #expect(answer.status == 200)
            #expect(answer.body.contains(#""name":"checkout""#), "\(answer.body)")
            server.send(SIGTERM)
            let result = server.finish()
            #expect(result.status == 0)
            #expect(lines(result.stdout).last == "Serving checkout.jsonl read-only; press Ctrl-C to stop.")
            // The temporary journal went with the server.
            #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path) == [])
        }
    }

    @Test("commands that change or copy a journal, and log --follow, refuse a text form, saying why", arguments: [
        (["log", "checkout.jsonl", "--follow"], """
            Error: --follow follows a journal that an app records into; checkout.jsonl is a session in text form (.jsonl), which nothing records into
            """),
        (["prune", "checkout.jsonl", "--keep", "1"], """
            error: checkout.jsonl: a session in text form (.jsonl), not a journal; prune removes sessions from a journal, and a text form holds one session: remove the file itself
            """),
        (["vacuum", "checkout.jsonl"], """
            error: checkout.jsonl: a session in text form (.jsonl), not a journal; vacuum gives back the free space of a journal, and a text form has none
            """),
        (["copy", "checkout.jsonl", "copy.actionlog"], """
            error: checkout.jsonl: a session in text form (.jsonl), not a journal; copy makes a self-contained copy of a journal; copy a text form as any file (cp)
            """),
        (["import", "checkout.jsonl", "--into", "other.jsonl"], """
            error: other.jsonl: a session in text form (.jsonl), not a journal; --into takes the journal (.actionlog) to insert the session into
            """),
    ])
    func refused(arguments: [String], message: String) throws {
        try withTemporaryDirectory { directory in
            try FileManager.default.copyItem(at: fixtures.appendingPathComponent("checkout.jsonl"), to: directory.appendingPathComponent("checkout.jsonl"))
            let before = try Data(contentsOf: directory.appendingPathComponent("checkout.jsonl"))
            let result = try runCLI(arguments, in: directory)
            #expect(result.status == 64)
            #expect(result.stdout == "")
            #expect(lines(result.stderr).first == message)
            #expect(try Data(contentsOf: directory.appendingPathComponent("checkout.jsonl")) == before)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["checkout.jsonl"])
        }
    }
}
