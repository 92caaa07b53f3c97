import ArgumentParser
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension AsyncParsableCommand {
    /// ArgumentParser's `main`, with two changes: `SIGPIPE` has its default action whatever the
    /// parent left (a closed pipe ends the process quietly, as it ends git), and help and version
    /// text is written with a checked write, so `replay-cli --help > /dev/full` fails instead of
    /// exiting 0 with nothing written. The root command's `main` calls it.
    package static func checkedMain() async {
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
