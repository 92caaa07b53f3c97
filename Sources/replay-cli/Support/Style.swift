import CommandLineSupport
import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Colours for text printed to a terminal (SGR escape sequences), decided once per process.
///
/// Colour is used only when standard output is a terminal, `NO_COLOR` is not set to a non-empty
/// value (no-color.org: "when present and not an empty string, regardless of its value") and `TERM`
/// is not `dumb`. JSON and the text form are never coloured, whatever the terminal. Text from a file
/// is escaped (``Swift/String/displayEscaped``) before it is coloured, so the only escape sequences in
/// a line are the ones added here.
enum Style {
    /// Whether this process colours what it prints on standard output.
    static let isEnabled: Bool = decide(
        isTerminal: isatty(STDOUT_FILENO) == 1, environment: ProcessInfo.processInfo.environment)

    /// The rule, apart from where it reads its inputs.
    static func decide(isTerminal: Bool, environment: [String: String]) -> Bool {
        guard isTerminal else { return false }
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
        return environment["TERM"] != "dumb"
    }

    enum Colour: String {
        case red = "31"
        case green = "32"
        case yellow = "33"
        case bold = "1"
        case dim = "2"
    }

    /// `text` in `colour` when colour is on; `text` unchanged otherwise.
    static func apply(_ colour: Colour?, _ text: String) -> String {
        guard isEnabled, let colour, !text.isEmpty else { return text }
        return "\u{1B}[\(colour.rawValue)m\(text)\u{1B}[0m"
    }
}

extension Terminal {
    /// How many characters of `line` show on a terminal: the characters outside the SGR sequences
    /// (`ESC [ … m`) that ``Style`` adds.
    static func visibleCount(_ line: String) -> Int {
        var count = 0
        var inEscape = false
        for character in line {
            if inEscape {
                if character == "m" { inEscape = false }
            } else if character == "\u{1B}" {
                inEscape = true
            } else {
                count += DisplayWidth.columns(character)
            }
        }
        return count
    }

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
