import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What the command-line tools need to know about where they print.
package enum Terminal {
    /// Whether standard output is a terminal.
    package static var isInteractive: Bool { isatty(STDOUT_FILENO) == 1 }

    /// The terminal's width in columns when standard output is a terminal; `nil` otherwise.
    package static var width: Int? {
        guard isInteractive else { return nil }
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), columns > 0 { return columns }
        return 80
    }

    /// Prints `error: message` on standard error. `message` must already be safe to print: a
    /// library error's description is; text from a file or a path is escaped with
    /// `displayEscaped` where it is put in. A failure to write standard error is not told: there is
    /// nowhere left to tell it.
    package static func printError(_ message: String) {
        ProgressLine.clearActive()
        _ = OutputTarget.writeAll(Array("error: \(message)\n".utf8), to: STDERR_FILENO)
    }

    /// Writes `warning: message` to standard error: something the user should know of a command
    /// that still did what it was asked.
    package static func printWarning(_ message: String) {
        ProgressLine.clearActive()
        _ = OutputTarget.writeAll(Array("warning: \(message)\n".utf8), to: STDERR_FILENO)
    }

    /// Ends the process the way a closed pipe ends git and the other Unix tools: by `SIGPIPE`, with
    /// nothing printed (status 141 in a shell). Used when a write failed with `EPIPE`, which happens
    /// only when the signal was blocked; `checkedMain()` restores its default action at start.
    package static func endForClosedPipe() -> Never {
        signal(SIGPIPE, SIG_DFL)
        raise(SIGPIPE)
        exit(128 + SIGPIPE)
    }

    /// `exit(3)`, for code inside commands, where `exit` names ArgumentParser's `exit(withError:)`.
    package static func exitProcess(_ status: Int32) -> Never {
        exit(status)
    }

    /// Whether standard error is a terminal (where ``ProgressLine`` draws).
    package static var isErrorInteractive: Bool { isatty(STDERR_FILENO) == 1 }
}
