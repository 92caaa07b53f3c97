import ArgumentParser

/// `replay-cli`: inspect ActionLog journals from a terminal.
@main
struct ReplayCLI: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay-cli",
        abstract: "Inspect, verify and replay ActionLog journals.",
        discussion: """
            Exit status: 0 on success, 1 for findings (a failed verify, a divergence, a damaged entry), \
            64 for usage errors (bad arguments, a file that is not a journal, an unknown session or entry).
            """,
        version: "0.1.0",
        subcommands: [Demo.self, Sessions.self, Log.self, StateCommand.self, Verify.self, Export.self, Import.self, Diff.self, Copy.self]
    )
}
