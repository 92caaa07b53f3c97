import Foundation

/// How a `Date` in a journaled value (state, action, effect, service call, output event) is written.
///
/// A session records its convention in its metadata under `"actionlog.dates"`: every recorder writes
/// `"iso8601"`. A session without the key was recorded before, with dates as seconds since 2001; its
/// replay, re-recording and verification encode the replayed values that way too, so that old goldens
/// and journals replay unchanged. Any other value of the key reads as the old convention.
package enum DateConvention: Sendable {
    /// `"2026-11-28T12:31:00.123456Z"`: ISO 8601 in UTC with microseconds (see ``JournalDate``). A date
    /// that is not finite throws, as a non-finite `Double` does; one whose year is outside 0001...9999
    /// is written as a number of seconds since 2001, which every reader takes too.
    case iso8601
    /// A number of seconds since 2001 (`timeIntervalSinceReferenceDate`), `JSONEncoder`'s default:
    /// sessions recorded before the metadata key.
    case referenceSeconds

    /// The session metadata key naming the convention.
    package static let metadataKey = "actionlog.dates"

    /// The convention of a session with `metadata`.
    package static func recorded(in metadata: JSONValue) -> DateConvention {
        guard case .string("iso8601")? = metadata[metadataKey] else { return .referenceSeconds }
        return .iso8601
    }

    /// `metadata` (an object) marked as written in this convention; `metadata` itself when it is
    /// not an object.
    package func marking(_ metadata: JSONValue) -> JSONValue {
        guard case .object(var members) = metadata else { return metadata }
        switch self {
        case .iso8601: members[Self.metadataKey] = .string("iso8601")
        case .referenceSeconds: members[Self.metadataKey] = nil
        }
        return .object(members)
    }
}
