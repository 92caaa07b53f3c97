import ArgumentParser
import CommandLineSupport

/// `replay-cli`: inspect ActionLog journals from a terminal.
@main
struct ReplayCLI: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay-cli",
        abstract: "Inspect, verify and replay ActionLog journals.",
        discussion: """
            Exit status: 0 on success, 1 for findings and data errors (a failed verify, a divergence, a \
            damaged entry, a session without entries, output that cannot be written), 64 for usage \
            errors (bad arguments, a file that is not a journal or not a text form, an unknown session or \
            entry).
            """,
        version: "0.1.0",
        subcommands: [Sessions.self, Log.self, StateCommand.self, Stats.self, Verify.self, Export.self, Import.self, Diff.self, Copy.self, Prune.self, Vacuum.self, Serve.self, Report.self, Why.self, Push.self]
    )

    /// ArgumentParser's `main` with checked help output and `SIGPIPE`'s default action.
    static func main() async {
        await checkedMain()
    }
}
