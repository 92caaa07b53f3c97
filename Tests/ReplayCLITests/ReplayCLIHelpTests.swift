import Foundation
import Testing

/// Every subcommand of `replay-cli`.
private let subcommands = ["sessions", "log", "state", "stats", "verify", "export", "import", "diff", "copy", "prune", "vacuum", "serve", "report", "why"]

@Suite("replay-cli help: examples and value names")
struct HelpExamplesTests {
    @Test("state --help, whole")
    func stateHelp() throws {
        try withTemporaryDirectory { directory in
            let result = try runCLI(["state", "--help"], in: directory)
            #expect(result.status == 0)
            #expect(result.stdout == """
                OVERVIEW: Print the recorded state after an entry, as pretty JSON.

                Without --at, the state after the session's last entry. --action K names the
                step by its action instead: the state after the K-th action dispatched,
                counting the actions the writer dropped, whose entry numbers fall behind at
                every gap. With --json, one object: session, sessionName, seq and state, so a
                script learns which entry it got. FILE may be a session's text form (.jsonl),
                which prints what its journal prints (session is null: a text form has no id).

                Examples:
                  replay-cli state app.actionlog --session checkout --at 5
                  replay-cli state app.actionlog --session 3 --action 20000
                  replay-cli state app.actionlog --session 3 --json | jq '.seq'

                USAGE: replay-cli state <file> [--session <id>] [--at <seq>] [--action <k>] [--json]

                ARGUMENTS:
                  <file>                  A journal (.actionlog), a session in text form
                                          (.jsonl), or a team store (postgres://...).

                OPTIONS:
                  -s, --session <id>      The session: its id, its uuid, or its name (the
                                          newest session of that name). Not needed when the
                                          file holds one session.
                  --at <seq>              The entry (sequence number); 0 is the initial state.
                                          Default: the last entry.
                  --action <k>            The action (its number, counting dropped actions; 0
                                          is the initial state), instead of --at.
                  --json                  Print JSON for scripts: the session, the entry and
                                          the state in one object.
                  --version               Show the version.
                  -h, --help              Show help information.


                """)
        }
    }

    @Test("every subcommand's help has 2 or 3 examples of itself, each on one line, and names every value", arguments: subcommands)
    func examples(subcommand: String) throws {
        try withTemporaryDirectory { directory in
            let result = try runCLI([subcommand, "--help"], in: directory)
            #expect(result.status == 0)
            let output = lines(result.stdout)
            let start = try #require(output.firstIndex(of: "Examples:"), "no Examples: in \(subcommand) --help")
            let examples = output[(start + 1)...].prefix { !$0.isEmpty }
            #expect((2...3).contains(examples.count), "\(examples)")
            // A line the help wrapped would not start with the command.
            #expect(examples.allSatisfy { $0.hasPrefix("  replay-cli ") && $0.contains(" \(subcommand)") }, "\(examples)")
            #expect(!result.stdout.contains("<value>"))
            // Options that take a path or a number say which: --session <id>, --from <seq>, --output <path>.
            for (option, name) in [("--session", "<id>"), ("--from", "<seq>"), ("--at", "<seq>"), ("--limit", "<n>"), ("--output", "<path>"), ("--keep", "<n>")] {
                for line in output where line.contains(" \(option) <") {
                    #expect(line.contains("\(option) \(name)"), "\(subcommand): \(line)")
                }
            }
        }
    }

    @Test("shell completion offers journals and text forms for FILE arguments")
    func completion() throws {
        try withTemporaryDirectory { directory in
            let result = try runCLI(["--generate-completion-script", "zsh"], in: directory)
            #expect(result.status == 0)
            let journals = lines(result.stdout).filter { $0.contains(":file:_files -g '\\''*.actionlog'\\''") }
            // copy, prune, vacuum and push take a journal only.
            #expect(journals.count == 4, "\(result.stdout)")
            let either = lines(result.stdout).filter { $0.contains(":file:_files -g '\\''*.actionlog *.jsonl'\\''") }
            // sessions, log, state, stats, verify, export, diff, serve, report and why take a journal or a text form.
            #expect(either.count == 10, "\(result.stdout)")
        }
    }
}
