import ActionLog
import CommandLineSupport
import Foundation

/// The one naming of `--json` output across commands (the replay-cli article's "JSON output" lists it):
///
/// - keys are camelCase;
/// - `session` is a session's numeric id, `sessionName` its name, `seq` an entry's sequence number;
/// - `file` is a path as given on the command line;
/// - times (`time`, `startedAt`, `endedAt`) are ISO 8601 strings in UTC with microseconds, as journals write dates;
/// - durations are whole nanoseconds, in keys that end in `Nanoseconds`; sizes are bytes, in keys
///   that say `bytes`;
/// - a stream of entries (`log`) is JSON Lines, one object per line; everything else is one JSON
///   document (an array for a list of sessions, an object for a command's result).
enum JSONOutput {
    /// `session` and `sessionName` of a session read from `file`: `session` is `null` for a text
    /// form, whose session has no id.
    static func sessionMembers(_ session: JournalSession, in file: OpenedFile) -> [String: JSONValue] {
        ["session": file.shownID(session).map(number) ?? .null, "sessionName": .string(session.name)]
    }

    static func number(_ value: some BinaryInteger) -> JSONValue {
        .number(String(value))
    }

    /// A time as journals write dates: `2026-11-21T06:30:12.345678Z` (see `Format.timestamp`).
    static func time(_ date: Date) -> JSONValue {
        .string(Format.timestamp(date))
    }

    /// A duration as whole nanoseconds (saturating, for the extreme values a damaged file may hold).
    static func nanoseconds(_ duration: Duration) -> JSONValue {
        number(duration.saturatingNanoseconds)
    }

    /// A time interval as whole nanoseconds; `null` when it is not finite or does not fit in 64 bits
    /// (times come from the file).
    static func nanoseconds(_ interval: TimeInterval) -> JSONValue {
        let value = (interval * 1e9).rounded()
        guard value.isFinite, abs(value) < 9e18 else { return .null }
        return number(Int64(value))
    }

    /// Prints `value` as one JSON document, pretty, escaped for a terminal as `--json` output is.
    static func print(_ value: JSONValue) throws {
        try BufferedOutput.print(value.prettyText.jsonDisplayEscaped)
    }
}

/// A JSON array printed an element at a time, as `prettyText` prints the whole array, escaped for a
/// terminal: for a list as long as the file makes it (`sessions --json`, `stats --json`), whose
/// memory then stays that of one element.
struct PrettyJSONArray {
    private var count = 0

    /// Writes `element` after those before it.
    mutating func append(_ element: JSONValue, to output: inout BufferedOutput) throws {
        try output.write(count == 0 ? "[" : ",", terminator: "")
        try output.write("\n  " + element.prettyText(nestedAt: 1).jsonDisplayEscaped, terminator: "")
        count += 1
    }

    /// Closes the array: `[]` when it has no element.
    mutating func finish(to output: inout BufferedOutput) throws {
        try output.write(count == 0 ? "[]" : "\n]")
    }
}
