import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What the CLI needs to know about where it prints.
enum Terminal {
    /// Whether standard output is a terminal.
    static var isInteractive: Bool { isatty(STDOUT_FILENO) == 1 }

    /// The terminal's width in columns when standard output is a terminal; `nil` otherwise.
    static var width: Int? {
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
    static func printError(_ message: String) {
        ProgressLine.clearActive()
        _ = OutputTarget.writeAll(Array("error: \(message)\n".utf8), to: STDERR_FILENO)
    }

    /// Writes `warning: message` to standard error: something the user should know of a command
    /// that still did what it was asked.
    static func printWarning(_ message: String) {
        ProgressLine.clearActive()
        _ = OutputTarget.writeAll(Array("warning: \(message)\n".utf8), to: STDERR_FILENO)
    }

    /// Ends the process the way a closed pipe ends git and the other Unix tools: by `SIGPIPE`, with
    /// nothing printed (status 141 in a shell). Used when a write failed with `EPIPE`, which happens
    /// only when the signal was blocked; `ReplayCLI.main` restores its default action at start.
    static func endForClosedPipe() -> Never {
        signal(SIGPIPE, SIG_DFL)
        raise(SIGPIPE)
        exit(128 + SIGPIPE)
    }

    /// `exit(3)`, for code inside commands, where `exit` names ArgumentParser's `exit(withError:)`.
    static func exitProcess(_ status: Int32) -> Never {
        exit(status)
    }

    /// Whether standard error is a terminal (where ``ProgressLine`` draws).
    static var isErrorInteractive: Bool { isatty(STDERR_FILENO) == 1 }

    /// Cuts `line` to `width` characters, marking the cut with an ellipsis. Colour sequences added by
    /// ``Style`` take no room; a cut inside a coloured run ends the colour.
    static func fit(_ line: String, width: Int?) -> String {
        guard let width, width > 1, visibleCount(line) > width else { return line }
        var result = ""
        var shown = 0
        var inEscape = false
        var coloured = false
        for character in line {
            if inEscape {
                result.append(character)
                if character == "m" { inEscape = false }
            } else if character == "\u{1B}" {
                inEscape = true
                coloured = true
                result.append(character)
            } else {
                let columns = DisplayWidth.columns(character)
                guard shown + columns <= width - 1 else { break }
                result.append(character)
                shown += columns
            }
        }
        // An escape (`\u{1B}`, see displayEscaped) cut in the middle would read as other text: it goes
        // whole, from its backslash (`\`, `\u`, `\u{`, `\u{1` are all cut escapes).
        if let slash = result.lastIndex(of: "\\") {
            let tail = result[result.index(after: slash)...]
            if tail.isEmpty || (tail.first == "u" && tail.dropFirst().allSatisfy { $0 == "{" || $0.isHexDigit }) {
                result.removeSubrange(slash...)
            }
        }
        return result + (coloured ? "\u{1B}[0m…" : "…")
    }
}

/// Formats values for people.
enum Format {
    /// `2026-11-21T06:30:12.345Z` (UTC)
    static func timestamp(_ date: Date) -> String {
        timestampStyle.format(date)
    }

    /// A value made once: making a formatter per line was most of what `log --json` cost.
    private static let timestampStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// `1.234s`, `+0.012s`
    static func seconds(_ interval: TimeInterval, sign: Bool = false) -> String {
        // Times come from files: an interval no clock measures (infinite, or past 31 years) is shown
        // as such, not as `infs` or three hundred digits.
        guard interval.isFinite else { return interval > 0 ? "∞" : "-∞" }
        let format = abs(interval) < 1e9 ? "%.3fs" : "%.3es"
        return (sign && interval >= 0 ? "+" : "") + String(format: format, interval)
    }

    /// Columns padded to their widest cell; the last column is not padded. Cells are escaped for a
    /// terminal (`displayEscaped`), so a newline in a name never breaks a row.
    static func table(_ rows: [[String]]) -> [String] {
        let rows = rows.map { $0.map(\.displayEscaped) }
        guard let columns = rows.map(\.count).max() else { return [] }
        var widths = [Int](repeating: 0, count: columns)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], DisplayWidth.columns(cell)) }
        }
        return rows.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : DisplayWidth.padded(cell, to: widths[index])
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }
    }
}

/// `1 session`, `2 sessions`.
func counted(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
    "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var result = self
        while result.last == " " { result.removeLast() }
        return result
    }
}
