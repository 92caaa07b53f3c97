import Foundation
import Testing

/// The committed golden journals. Tests copy them into a temporary directory and never write here.
private let fixtures = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("fixtures")

/// Copies `fixtures/<name>` into `directory`.
private func copyFixture(_ name: String, to directory: URL) throws {
    try FileManager.default.copyItem(at: fixtures.appendingPathComponent(name), to: directory.appendingPathComponent(name))
}

/// The bytes of `name` in `directory`, as text.
private func contents(_ name: String, in directory: URL) throws -> String {
    String(decoding: try Data(contentsOf: directory.appendingPathComponent(name)), as: UTF8.self)
}

/// Exit status for usage errors (`EX_USAGE`).
private let usageError: Int32 = 64

@Suite("replay-cli export, import and diff")
struct ExportImportDiffTests {
    @Test("export → import → export is byte-identical on the golden fixtures", arguments: [
        ("checkout.actionlog", "checkout", 15, "330ab09b-b622-8094-9367-3dd7fef192fd"),
        ("city-search.actionlog", "city search", 17, "218aaa0c-b5ed-8527-872c-96cb23f52cd3"),
    ])
    func roundTrip(fixture: String, name: String, entries: Int, uuid: String) throws {
        try withTemporaryDirectory { directory in
            try copyFixture(fixture, to: directory)
            let export = try runCLI(["export", fixture, "--session", "1", "--format", "jsonl", "--output", "first.jsonl"], in: directory)
            #expect(export.status == 0, "\(export.stderr)")
            #expect(export.stdout == "" && export.stderr == "")
            let first = try contents("first.jsonl", in: directory)
            #expect(lines(first).count == entries + 1, "a header and one line per entry")
            // The fixtures were recorded before sessions had ids: their text has none, and the copy
            // derives the same one from the same header.
            #expect(first.hasPrefix(#"{"actionlog":"session","format":1,"name":"\#(name)","status":"closed","startedAt":"#))

            let imported = try runCLI(["import", "first.jsonl", "--into", "copy.actionlog"], in: directory)
            #expect(imported.status == 0, "\(imported.stderr)")
            #expect(imported.stdout == "Imported session \"\(name)\" as session 1 of copy.actionlog (\(entries) entries).\n")
            #expect(imported.stderr == "")
            let sessions = try runCLI(["sessions", "copy.actionlog", "--json"], in: directory)
            #expect(sessions.stdout.contains(#""uuid": "\#(uuid)""#), "\(sessions.stdout)")

            let second = try runCLI(["export", "copy.actionlog", "--session", name], in: directory)
            #expect(second.status == 0)
            #expect(second.stdout == first, "export → import → export must give the same bytes")

            // A .jsonl file exports as itself: the text form is its own normal form.
            let again = try runCLI(["export", "first.jsonl"], in: directory)
            #expect(again.status == 0)
            #expect(again.stdout == first)

            // The imported session replays the same states, and the fixture was left alone.
            let verify = try runCLI(["verify", "copy.actionlog"], in: directory)
            #expect(verify.stdout == "copy.actionlog: 1 session, \(entries) entries: OK\n")
            #expect(try Data(contentsOf: directory.appendingPathComponent(fixture)) == Data(contentsOf: fixtures.appendingPathComponent(fixture)))
        }
    }

    @Test("import into an existing journal adds a session; export without --session needs a single session")
    func importIntoExistingJournal() throws {
        try withTemporaryDirectory { directory in
            try copyFixture("checkout.actionlog", to: directory)
            try copyFixture("city-search.actionlog", to: directory)
            _ = try runCLI(["export", "city-search.actionlog", "-o", "city.jsonl"], in: directory)
            let imported = try runCLI(["import", "city.jsonl", "--into", "checkout.actionlog"], in: directory)
            #expect(imported.stdout == "Imported session \"city search\" as session 2 of checkout.actionlog (17 entries).\n")

            let ambiguous = try runCLI(["export", "checkout.actionlog"], in: directory)
            #expect(ambiguous.status == usageError)
            #expect(ambiguous.stdout == "")
            #expect(ambiguous.stderr == "error: checkout.actionlog: 2 sessions; choose one with --session\n")

            let byName = try runCLI(["export", "checkout.actionlog", "--session", "city search"], in: directory)
            #expect(byName.stdout == (try contents("city.jsonl", in: directory)))
        }
    }

    @Test("log, state, report and export take the only session of a file without --session; of several, they say how many")
    func sessionLeftOut() throws {
        try withTemporaryDirectory { directory in
            try copyFixture("checkout.actionlog", to: directory)
            for arguments in [["log"], ["state", "--at", "2"], ["export"]] {
                let without = try runCLI([arguments[0], "checkout.actionlog"] + arguments.dropFirst(), in: directory)
                let with = try runCLI([arguments[0], "checkout.actionlog", "--session", "1"] + arguments.dropFirst(), in: directory)
                #expect(without.status == 0, "\(arguments): \(without.stderr)")
                #expect(without.stdout == with.stdout, "\(arguments)")
            }
            let report = try runCLI(["report", "checkout.actionlog", "-o", "checkout.html"], in: directory)
            #expect(report.status == 0, "\(report.stderr)")

            _ = try runDemo(in: directory)
            for arguments in [["log"], ["state"], ["report", "-o", "demo.html"], ["export"]] {
                let ambiguous = try runCLI([arguments[0], "demo.actionlog"] + arguments.dropFirst(), in: directory)
                #expect(ambiguous.status == usageError)
                #expect(ambiguous.stdout == "")
                #expect(ambiguous.stderr == "error: demo.actionlog: 4 sessions; choose one with --session\n", "\(arguments)")
            }
        }
    }

    @Test("diff prints the changed fields between two steps, the same for a journal and its text form")
    func diffText() throws {
        try withTemporaryDirectory { directory in
            try copyFixture("city-search.actionlog", to: directory)
            let result = try runCLI(["diff", "city-search.actionlog", "--session", "1", "12", "13"], in: directory)
            #expect(result.status == 0, "differences are the answer, not a finding")
            #expect(result.stderr == "")
            #expect(result.stdout == #"""
                Entry 12 → entry 13 of session 1 "city search":
                  − errorMessage: (absent)
                  + errorMessage: "The city service rejected \"b3\": digits are not allowed"
                  − isLoading: true
                  + isLoading: false
                  − results[0]: {"country":"DE","name":"Berlin","population":3878100}
                  + results[0]: (absent)
                  − results[1]: {"country":"NO","name":"Bergen","population":291940}
                  + results[1]: (absent)
                  − results[2]: {"country":"CH","name":"Bern","population":134591}
                  + results[2]: (absent)
                (entry 12: −, entry 13: +)

                """#)

            _ = try runCLI(["export", "city-search.actionlog", "-o", "city.jsonl"], in: directory)
            let text = try runCLI(["diff", "city.jsonl", "12", "13"], in: directory)
            #expect(text.status == 0)
            #expect(text.stdout == result.stdout.replacingOccurrences(of: #"session 1 "city search""#, with: #"session "city search""#))

            let same = try runCLI(["diff", "city-search.actionlog", "4", "4"], in: directory)
            #expect(same.status == 0)
            #expect(same.stdout == "Entry 4 → entry 4 of session 1 \"city search\":\nNo difference.\n")
        }
    }

    @Test("diff --json prints the entries and an array of path, from, to; an absent side is left out")
    func diffJSON() throws {
        try withTemporaryDirectory { directory in
            try copyFixture("city-search.actionlog", to: directory)
            let result = try runCLI(["diff", "city-search.actionlog", "--session", "1", "3", "4", "--json"], in: directory)
            #expect(result.status == 0)
            #expect(result.stdout == """
                {
                  "differences": [
                    {
                      "from": false,
                      "path": "isLoading",
                      "to": true
                    },
                    {
                      "from": "p",
                      "path": "query",
                      "to": "pa"
                    },
                    {
                      "from": 1,
                      "path": "requestID",
                      "to": 2
                    }
                  ],
                  "file": "city-search.actionlog",
                  "fromSeq": 3,
                  "handlers": [],
                  "session": 1,
                  "sessionName": "city search",
                  "toSeq": 4
                }

                """)

            let appeared = try runCLI(["diff", "city-search.actionlog", "12", "13", "--json"], in: directory)
            let objects = try diffObjects(appeared.stdout)
            #expect(objects.first?["path"] as? String == "errorMessage")
            #expect(objects.first?["from"] == nil)
            #expect(objects.first?["to"] as? String == #"The city service rejected "b3": digits are not allowed"#)

            let none = try runCLI(["diff", "city-search.actionlog", "4", "4", "--json"], in: directory)
            #expect(try diffObjects(none.stdout).isEmpty)
            #expect(none.stdout.contains(#""differences": []"#))
        }
    }

    // MARK: - Errors

    @Test("a missing session, entry or file is a usage error", arguments: [
        (["export", "checkout.actionlog", "--session", "7"], "error: checkout.actionlog, session 7: no such session"),
        (["export", "checkout.actionlog", "--session", "Checkout"], "error: checkout.actionlog: no session named \"Checkout\" (the journal holds \"checkout\")"),
        (["diff", "checkout.actionlog", "--session", "7", "0", "1"], "error: checkout.actionlog, session 7: no such session"),
        (["diff", "checkout.actionlog", "0", "15"], "error: checkout.actionlog, session 1, entry 15: no such entry"),
        (["export", "nope.actionlog", "--session", "1"], "error: nope.actionlog: no such file (looked for nope.actionlog)"),
        (["import", "nope.jsonl", "--into", "new.actionlog"], "error: nope.jsonl: no such file (looked for nope.jsonl)"),
    ])
    func usageErrors(arguments: [String], message: String) throws {
        try withTemporaryDirectory { directory in
            try copyFixture("checkout.actionlog", to: directory)
            let result = try runCLI(arguments, in: directory)
            #expect(result.status == usageError)
            #expect(result.stdout == "")
            #expect(result.stderr == message + "\n")
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("new.actionlog").path))
        }
    }

    @Test("--format accepts only jsonl, and says so")
    func badFormat() throws {
        try withTemporaryDirectory { directory in
            try copyFixture("checkout.actionlog", to: directory)
            let result = try runCLI(["export", "checkout.actionlog", "--session", "1", "--format", "csv"], in: directory)
            #expect(result.status == usageError)
            #expect(result.stdout == "")
            #expect(lines(result.stderr).first == "Error: The value 'csv' is invalid for '--format <format>'. Please provide one of 'jsonl'.")
        }
    }

    @Test("export --output refuses to replace a file unless --force")
    func outputExists() throws {
        try withTemporaryDirectory { directory in
            try copyFixture("checkout.actionlog", to: directory)
            try Data("keep me\n".utf8).write(to: directory.appendingPathComponent("out.jsonl"))
            let refused = try runCLI(["export", "checkout.actionlog", "-o", "out.jsonl"], in: directory)
            #expect(refused.status == usageError)
            #expect(refused.stderr == "error: out.jsonl: the file exists; pass --force to replace it\n")
            #expect(try contents("out.jsonl", in: directory) == "keep me\n")

            let forced = try runCLI(["export", "checkout.actionlog", "-o", "out.jsonl", "--force"], in: directory)
            #expect(forced.status == 0)
            #expect(try contents("out.jsonl", in: directory) == (try runCLI(["export", "checkout.actionlog"], in: directory)).stdout)
        }
    }

    @Test("importing a damaged text file fails with exit 1, names the entry and line, and creates nothing")
    func damagedImport() throws {
        try withTemporaryDirectory { directory in
            try copyFixture("city-search.actionlog", to: directory)
            let text = try runCLI(["export", "city-search.actionlog"], in: directory).stdout
            var damaged = lines(text)
            damaged[4] = damaged[4].replacingOccurrences(of: #""patch":[{"op":"replace","path":"/query""#, with: #""patch":[{"op":"replace","path":"/nothing""#)
            try Data((damaged.joined(separator: "\n") + "\n").utf8).write(to: directory.appendingPathComponent("damaged.jsonl"))

            let result = try runCLI(["import", "damaged.jsonl", "--into", "new.actionlog"], in: directory)
            #expect(result.status == 1)
            #expect(result.stdout == "")
            #expect(result.stderr == "error: damaged.jsonl, entry 3: line 5: the delta does not apply: operation 0 (replace /nothing): no member \"nothing\"\n")
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("new.actionlog").path))

            var missingPatch = lines(text)
            missingPatch[4] = missingPatch[4].replacingOccurrences(of: #","patch":"#, with: #","oops":"#)
            try Data((missingPatch.joined(separator: "\n") + "\n").utf8).write(to: directory.appendingPathComponent("checkout.jsonl"))
            let parse = try runCLI(["import", "checkout.jsonl", "--into", "new.actionlog"], in: directory)
            #expect(parse.status == 1)
            #expect(parse.stderr == "error: checkout.jsonl, entry 3: line 5: a delta without a patch\n")
        }
    }
}

@Suite("replay-cli import: a file of another kind")
struct ImportAnotherKindTests {
    @Test("importing a file that is not a text form at all is a usage error (64), as a non-journal is for the readers")
    func notATextForm() throws {
        try withTemporaryDirectory { directory in
            try Data("root:x:0:0:root:/root:/bin/bash\n".utf8).write(to: directory.appendingPathComponent("passwd"))
            let result = try runCLI(["import", "passwd", "--into", "new.actionlog"], in: directory)
            #expect(result.status == 64)
            #expect(result.stderr == #"error: passwd: line 1: not an ActionLog session header: invalid JSON at byte 0: unexpected character "r""# + "\n")
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("new.actionlog").path))
            // verify reads a .jsonl as a text form: the same refusal, not a finding of a damaged one.
            try FileManager.default.copyItem(at: directory.appendingPathComponent("passwd"), to: directory.appendingPathComponent("passwd.jsonl"))
            let verify = try runCLI(["verify", "passwd.jsonl"], in: directory)
            #expect(verify.status == 64)
            #expect(verify.stderr == #"error: passwd.jsonl: line 1: not an ActionLog session header: invalid JSON at byte 0: unexpected character "r""# + "\n")
        }
    }

    @Test("import refuses a text form that is not a regular file (standard input, a FIFO): it reads it twice (64)")
    func notARegularFile() throws {
        try withTemporaryDirectory { directory in
            #expect(mkfifo(directory.appendingPathComponent("pipe.jsonl").path, 0o600) == 0)
            let cases = [
                ("/dev/stdin", "stdin: not a regular file (/dev/stdin)"),  // here /dev/null
                ("pipe.jsonl", "pipe.jsonl: not a regular file (pipe.jsonl)"),  // no writer: refused before it is opened
                ("/dev/zero", "zero: not a regular file (/dev/zero)"),
            ]
            for (file, start) in cases {
                // The limit is a safeguard: before, a FIFO without a writer blocked the import in its open.
                let result = try runProcess(try replayCLIBinary(), ["import", file, "--into", "new.actionlog"], in: directory, timeout: .seconds(60))
                #expect(result.status == 64)
                #expect(result.stdout == "")
                #expect(result.stderr == """
                    error: \(start); import reads the text form twice (to check it, then to store it): save it to a \
                    file first

                    """)
                #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("new.actionlog").path))
            }
        }
    }

    #if os(Linux)
    @Test("import of /dev/stdin redirected from a regular file still imports it: Linux opens the file itself again")
    func standardInputFromAFile() throws {
        try withTemporaryDirectory { directory in
            try copyFixture("checkout.actionlog", to: directory)
            let text = directory.appendingPathComponent("checkout.jsonl")
            #expect(try runCLI(["export", "checkout.actionlog", "--output", "checkout.jsonl"], in: directory).status == 0)
            let input = try FileHandle(forReadingFrom: text)
            defer { try? input.close() }
            let result = try runProcess(try replayCLIBinary(), ["import", "/dev/stdin", "--into", "new.actionlog"], in: directory, standardInput: input)
            #expect(result.stderr == "")
            #expect(result.status == 0)
            #expect(result.stdout.hasPrefix("Imported session \"checkout\" as session 1 of new.actionlog ("))
        }
    }
    #endif
}

@Suite("replay-cli export, import and diff: help")
struct ExportImportDiffHelpTests {
    @Test("each command shows its usage, and the root help lists it", arguments: [
        ("export", "USAGE: replay-cli export <file> [--session <id>] [--format <format>] [--output <path>] [--force]"),
        ("import", "USAGE: replay-cli import <file> --into <journal> [--json]"),
        ("diff", "USAGE: replay-cli diff <file> [--session <id>] <from> <to> [--json]"),
    ])
    func usage(subcommand: String, usage: String) throws {
        try withTemporaryDirectory { directory in
            let help = try runCLI([subcommand, "--help"], in: directory)
            #expect(help.status == 0)
            #expect(lines(help.stdout).contains(usage), "\(help.stdout)")
            let root = try runCLI(["--help"], in: directory)
            #expect(lines(root.stdout).contains { $0.hasPrefix("  \(subcommand) ") }, "\(root.stdout)")
        }
    }
}
