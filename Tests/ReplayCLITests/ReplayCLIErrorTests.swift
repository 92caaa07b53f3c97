import Foundation
import Testing

/// Exit status for usage errors (`EX_USAGE`).
private let usageError: Int32 = 64

/// Every inspecting command, with the arguments it needs besides the file.
private let inspectingCommands: [[String]] = [
    ["sessions"], ["sessions", "--json"],
    ["log", "--session", "1"], ["log", "--session", "1", "--json"],
    ["state", "--session", "1"], ["state", "--session", "1", "--at", "0"],
    ["verify"],
]

/// `command` with `file` as its journal argument.
private func arguments(_ command: [String], file: String) -> [String] {
    [command[0], file] + command.dropFirst()
}

@Suite("replay-cli errors")
struct ErrorTests {
    @Test("a missing file is a usage error that names it", arguments: inspectingCommands)
    func missingFile(command: [String]) throws {
        try withTemporaryDirectory { directory in
            let result = try runCLI(arguments(command, file: "nope.actionlog"), in: directory)
            #expect(result.status == usageError)
            #expect(result.stdout == "")
            #expect(result.stderr == "error: nope.actionlog: no such file (looked for nope.actionlog)\n")
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("nope.actionlog").path), "readers never create the file")
        }
    }

    @Test("a missing file in a subdirectory: the message shows the path looked for")
    func missingFileWithPath() throws {
        try withTemporaryDirectory { directory in
            let result = try runCLI(["sessions", "logs/nope.actionlog"], in: directory)
            #expect(result.status == usageError)
            #expect(result.stderr == "error: nope.actionlog: no such file (looked for logs/nope.actionlog)\n")
        }
    }

    @Test("a directory is refused as a usage error that says it is a directory")
    func directoryIsNotAJournal() throws {
        try withTemporaryDirectory { directory in
            try FileManager.default.createDirectory(at: directory.appendingPathComponent("logs.actionlog"), withIntermediateDirectories: false)
            let result = try runCLI(["sessions", "logs.actionlog"], in: directory)
            #expect(result.status == usageError)
            #expect(result.stderr == "error: logs.actionlog: a directory, not an ActionLog journal (logs.actionlog)\n")
        }
    }

    @Test("a text file is not an SQLite database", arguments: inspectingCommands)
    func textFile(command: [String]) throws {
        try withTemporaryDirectory { directory in
            let text = String(repeating: "This is a text file, not a journal.\n", count: 200)
            try text.write(to: directory.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
            let result = try runCLI(arguments(command, file: "notes.txt"), in: directory)
            #expect(result.status == usageError)
            #expect(result.stdout == "")
            #expect(result.stderr == "error: notes.txt: not an SQLite database, so not an ActionLog journal\n")
            #expect(try String(contentsOf: directory.appendingPathComponent("notes.txt"), encoding: .utf8) == text, "readers never change the file")
        }
    }

    @Test("an SQLite database of another application is not a journal", arguments: inspectingCommands)
    func otherDatabase(command: [String]) throws {
        try withTemporaryDirectory { directory in
            try runSQLite("create table t(x)", on: "other.db", in: directory)
            let result = try runCLI(arguments(command, file: "other.db"), in: directory)
            #expect(result.status == usageError)
            #expect(result.stdout == "")
            #expect(result.stderr == "error: other.db: an SQLite database, but not an ActionLog journal (application_id 0, tables: t)\n")
        }
    }

    @Test("an empty file is an empty SQLite database, not a journal, for the commands that write too, which leave it empty",
          arguments: [["sessions"], ["prune", "--keep", "1"], ["vacuum"]])
    func emptyFile(command: [String]) throws {
        try withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("zero.actionlog").path
            #expect(FileManager.default.createFile(atPath: path, contents: Data()))
            let result = try runCLI([command[0], "zero.actionlog"] + command.dropFirst(), in: directory)
            #expect(result.status == usageError)
            #expect(result.stdout == "")
            #expect(result.stderr == "error: zero.actionlog: an empty SQLite database, not an ActionLog journal\n")
            #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int == 0)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["zero.actionlog"])
        }
    }

    @Test("an unknown session id is a usage error", arguments: [["log"], ["log", "--json"], ["state"], ["state", "--at", "0"]])
    func unknownSessionID(command: [String]) throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            let result = try runCLI([command[0], "demo.actionlog", "--session", "7"] + command.dropFirst(), in: directory)
            #expect(result.status == usageError)
            #expect(result.stdout == "")
            #expect(result.stderr == "error: demo.actionlog, session 7: no such session\n")
        }
    }

    @Test("a number names a session by id first, and by name when no session has that id")
    func numericSessionName() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            try runSQLite("UPDATE sessions SET name = '2024' WHERE id = 3; UPDATE sessions SET name = '1' WHERE id = 4;", on: "demo.actionlog", in: directory)
            let byName = try runCLI(["state", "demo.actionlog", "--session", "2024", "--json"], in: directory)
            #expect(byName.status == 0, "\(byName.stderr)")
            #expect(byName.stdout.contains(#""session": 3,"#), "\(byName.stdout)")
            let byID = try runCLI(["state", "demo.actionlog", "--session", "1", "--json"], in: directory)
            #expect(byID.stdout.contains(#""session": 1,"#), "the id wins: \(byID.stdout)")
            let neither = try runCLI(["state", "demo.actionlog", "--session", "7"], in: directory)
            #expect(neither.status == usageError)
            #expect(neither.stderr == "error: demo.actionlog, session 7: no such session\n")
        }
    }

    @Test("an unknown session name is a usage error", arguments: ["log", "state"])
    func unknownSessionName(command: String) throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            let result = try runCLI([command, "demo.actionlog", "--session", "Checkout"], in: directory)
            #expect(result.status == usageError)
            #expect(result.stdout == "")
            #expect(result.stderr == "error: demo.actionlog: no session named \"Checkout\" (the journal holds \"city search\", \"checkout\", \"product card\", \"sign in\")\n")
        }
    }

    @Test("state --at beyond the last entry is a usage error that names the entry")
    func stateBeyondTheEnd() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            let result = try runCLI(["state", "demo.actionlog", "--session", "2", "--at", "99"], in: directory)
            #expect(result.status == usageError)
            #expect(result.stdout == "")
            #expect(result.stderr == "error: demo.actionlog, session 2, entry 99: no such entry\n")

            let justPast = try runCLI(["state", "demo.actionlog", "--session", "2", "--at", "15"], in: directory)
            #expect(justPast.status == usageError)
            #expect(justPast.stderr == "error: demo.actionlog, session 2, entry 15: no such entry\n")
            let last = try runCLI(["state", "demo.actionlog", "--session", "2", "--at", "14"], in: directory)
            #expect(last.status == 0)
        }
    }

    @Test("state --at with a negative number is a usage error")
    func stateNegative() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            // `-1` after `--at` is its value, not an option, written apart or joined.
            for arguments in [["--at", "-1"], ["--at=-1"]] {
                let result = try runCLI(["state", "demo.actionlog", "--session", "2"] + arguments, in: directory)
                #expect(result.status == usageError)
                #expect(result.stdout == "")
                #expect(lines(result.stderr).first == "Error: --at must be 0 or more, not -1")
                #expect(result.stderr.contains("Usage: replay-cli state <file> [--session <id>] [--at <seq>] [--action <k>] [--json]"))
            }

            let notANumber = try runCLI(["state", "demo.actionlog", "--session", "2", "--at", "two"], in: directory)
            #expect(notANumber.status == usageError)
            #expect(notANumber.stderr.contains("'two'"))
        }
    }

    @Test("a negative number or an empty path is told as what it is, not as a missing value or the working directory", arguments: [
        (["prune", "demo.actionlog", "--keep", "-1"], "Error: --keep must be 0 or more, not -1."),
        (["report", "demo.actionlog", "--session", "2", "--output", "r.html", "--max-bytes", "-1"], "Error: The value '-1' is invalid for '--max-bytes <size>'"),
        (["prune", "demo.actionlog", "--max-bytes", "-1"], "Error: The value '-1' is invalid for '--max-bytes <size>'"),
        (["report", "demo.actionlog", "--session", "2", "--output", "r.html", "--max-bytes", "0kB"], "Error: --max-bytes must be 1 or more, not 0kB"),
        (["serve", "demo.actionlog", "--port", "-5"], "Error: --port must be from 0 to 65535, not -5"),
        (["prune", "demo.actionlog", "--older-than", "-3d"], "Error: The value '-3d' is invalid for '--older-than <duration>'"),
        (["sessions", ""], "Error: <file> is an empty path; give the path of a file."),
        (["export", "demo.actionlog", "--session", "2", "--output", ""], "Error: --output is an empty path; give the path of a file."),
        (["import", "", "--into", "new.actionlog"], "Error: <file> is an empty path; give the path of a file."),
        (["copy", "demo.actionlog", ""], "Error: <dest> is an empty path; give the path of a file."),
    ])
    func negativeOrEmpty(arguments: [String], message: String) throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            let result = try runCLI(arguments, in: directory)
            #expect(result.status == usageError)
            #expect(result.stdout == "")
            #expect(lines(result.stderr).first == message, "\(result.stderr)")
        }
    }

    @Test("an unknown subcommand is a usage error")
    func unknownSubcommand() throws {
        try withTemporaryDirectory { directory in
            let alone = try runCLI(["frobnicate"], in: directory)
            #expect(alone.status == usageError)
            #expect(alone.stdout == "")
            #expect(lines(alone.stderr).first == "Error: Unexpected argument 'frobnicate'")
            #expect(alone.stderr.contains("Usage: replay-cli <subcommand>"))

            let withFile = try runCLI(["frobnicate", "demo.actionlog"], in: directory)
            #expect(withFile.status == usageError)
            #expect(withFile.stdout == "")
            #expect(lines(withFile.stderr).first == "Error: 2 unexpected arguments: 'frobnicate', 'demo.actionlog'")
        }
    }

    @Test("missing arguments are usage errors", arguments: [
        (["sessions"], "Error: Missing expected argument '<file>'"),
        (["verify"], "Error: Missing expected argument '<file>'"),
        (["log"], "Error: Missing expected argument '<file>'"),
        (["log", "demo.actionlog", "--session"], "Error: Missing value for '--session <id>'"),
        (["sessions", "demo.actionlog", "--jsn"], "Error: Unknown option '--jsn'. Did you mean '--json'?"),
    ])
    func missingArguments(arguments: [String], message: String) throws {
        try withTemporaryDirectory { directory in
            let result = try runCLI(arguments, in: directory)
            #expect(result.status == usageError)
            #expect(result.stdout == "")
            #expect(lines(result.stderr).first == message, "\(result.stderr)")
            #expect(result.stderr.contains("Usage: replay-cli \(arguments[0])"))
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty, "nothing written on a usage error")
        }
    }
}

@Suite("replay-cli help")
struct HelpTests {
    @Test("--help describes the tool and lists every subcommand")
    func rootHelp() throws {
        try withTemporaryDirectory { directory in
            let result = try runCLI(["--help"], in: directory)
            #expect(result.status == 0)
            #expect(result.stderr == "")
            let output = lines(result.stdout)
            #expect(output.first == "OVERVIEW: Inspect, verify and replay ActionLog journals.")
            #expect(output.contains("USAGE: replay-cli <subcommand>"))
            #expect(output.contains("SUBCOMMANDS:"))
            for (name, abstract) in [
                ("sessions", "List the sessions of a journal."),
                ("log", "Print the timeline of a session: one line per entry."),
                ("state", "Print the recorded state after an entry"),
                ("verify", "Check a journal's integrity"),
            ] {
                #expect(output.contains { matches($0, "  \(name) +\(NSRegularExpression.escapedPattern(for: abstract)).*") }, "\(name) missing from:\n\(result.stdout)")
            }
            #expect(result.stdout.contains("64 for usage errors"))
            #expect(!output.contains { $0.hasPrefix("  demo ") }, "the demo is actionlog-demo, an executable of its own")
        }
    }

    @Test("help for a subcommand shows its usage", arguments: [
        ("sessions", "USAGE: replay-cli sessions <file> [--app-version <version>] [--since <time>] [--until <time>] [--name <pattern>] [--label <pattern>] [--has-gaps] [--json]"),
        ("log", "USAGE: replay-cli log <file> [--session <id>] [--from <seq>] [--limit <n>] [--label <pattern>] [--kind <kind>] [--follow] [--wait-timeout <seconds>] [--json]"),
        ("state", "USAGE: replay-cli state <file> [--session <id>] [--at <seq>] [--action <k>] [--json]"),
        ("verify", "USAGE: replay-cli verify <file> [--json]"),
    ])
    func subcommandHelp(subcommand: String, usage: String) throws {
        try withTemporaryDirectory { directory in
            let flag = try runCLI([subcommand, "--help"], in: directory)
            #expect(flag.status == 0)
            #expect(lines(flag.stdout).contains(usage), "\(flag.stdout)")
            let help = try runCLI(["help", subcommand], in: directory)
            #expect(help.status == 0)
            #expect(help.stdout == flag.stdout)
        }
    }

    @Test("--version prints the version")
    func version() throws {
        try withTemporaryDirectory { directory in
            let result = try runCLI(["--version"], in: directory)
            #expect(result.status == 0)
            #expect(result.stdout == "0.1.0\n")
        }
    }
}
