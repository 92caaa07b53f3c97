import ArgumentParser
import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

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
        subcommands: [Demo.self, Sessions.self, Log.self, StateCommand.self, Stats.self, Verify.self, Export.self, Import.self, Diff.self, Copy.self, Prune.self, Vacuum.self, Serve.self, Report.self]
    )

    /// ArgumentParser's `main`, with two changes: `SIGPIPE` has its default action whatever the
    /// parent left (a closed pipe ends the process quietly, as it ends git), and help and version
    /// text is written with a checked write, so `replay-cli --help > /dev/full` fails instead of
    /// exiting 0 with nothing written.
    static func main() async {
        signal(SIGPIPE, SIG_DFL)
        do {
            var command = try await asyncParseAsRoot(nil)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            end(with: error)
        }
    }

    /// What `exit(withError:)` does, with the help text written through a checked write.
    private static func end(with error: Error) -> Never {
        let code = exitCode(for: error)
        let text = fullMessage(for: error)
        if !text.isEmpty {
            if code == .success {
                do {
                    try BufferedOutput.print(text)
                } catch {
                    Terminal.exitProcess(ExitCode.failure.rawValue)
                }
            } else {
                _ = OutputTarget.writeAll(Array("\(text)\n".utf8), to: STDERR_FILENO)
            }
        }
        Terminal.exitProcess(code.rawValue)
    }
}
