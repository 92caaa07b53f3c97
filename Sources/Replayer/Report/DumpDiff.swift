import ActionLog
import CustomDump

/// swift-custom-dump diffs of a recorded value (decoded from its JSON) against a replayed one, for
/// types that are `Decodable & Equatable`; `nil` for other types.
///
/// The replayed value is shown as the journal would hold it: decoded from its JSON with the redacted
/// places redacted, as the recorded one is. A field of a ``RedactedInJournal`` type (`@Redacted var
/// token`) or at a redacted path then holds the same placeholder on both sides, so the diff says
/// nothing of it, neither a secret the replay made nor a "not equal but no difference detected" for
/// two values that print alike. A replayed value that does not decode back is shown as it is.
enum DumpDiff {
    /// − for recorded, + for replayed, as in the legend; spaces for unchanged lines.
    static let format = DiffFormat(first: "\u{2212}", second: "+", both: " ")

    /// The diff of the recorded state against the replayed one. Ignored fields show their replayed
    /// value on both sides, and redacted ones their placeholder, so they do not appear.
    static func diff<State>(recorded: JSONValue, replayed: State, ignored: IgnoredFields, replayedJSON: JSONValue) -> String? {
        guard let replayed = replayed as? any Equatable else { return nil }
        let shown = ignored.redactor.keyframe(replayedJSON)
        return diffOpened(recorded: aligned(recorded, to: shown, ignoring: ignored), replayed: replayed, shown: shown)
    }

    /// The diff of the recorded effect against the replayed one, either of which may be missing.
    static func effectDiff<Effect>(recorded: JSONValue?, replayed: Effect?, ignored: IgnoredFields, replayedJSON: JSONValue?) -> String? {
        guard let type = Effect.self as? any (Decodable & Equatable).Type else { return nil }
        return effectDiffOpened(type, recorded: recorded, replayed: replayed, ignored: ignored, replayedJSON: replayedJSON.map(ignored.redactor.keyframe))
    }

    private static func effectDiffOpened<T: Decodable & Equatable, Effect>(
        _ type: T.Type, recorded: JSONValue?, replayed: Effect?, ignored: IgnoredFields, replayedJSON: JSONValue?
    ) -> String? {
        var replayedValue = replayed.map { $0 as? T } ?? nil
        if replayed != nil, replayedValue == nil { return nil }
        if replayedValue != nil, let json = replayedJSON, let shown = try? json.decode(T.self) { replayedValue = shown }
        var recordedValue: T?
        if let recorded {
            let json = replayedJSON.map { aligned(recorded, to: $0, ignoring: ignored) } ?? recorded
            guard let decoded = try? json.decode(T.self) else { return nil }
            recordedValue = decoded
        }
        return CustomDump.diff(recordedValue, replayedValue, format: format)
    }

    private static func diffOpened<T: Equatable>(recorded: JSONValue, replayed: T, shown: JSONValue) -> String? {
        guard let type = T.self as? any Decodable.Type, let decoded = decode(recorded, as: type) as? T else { return nil }
        return CustomDump.diff(decoded, decode(shown, as: type) as? T ?? replayed, format: format)
    }

    private static func decode<T: Decodable>(_ json: JSONValue, as type: T.Type) -> Any? {
        try? json.decode(T.self)
    }

    /// `recorded` with the values of ignored fields taken from `replayed`.
    static func aligned(_ recorded: JSONValue, to replayed: JSONValue, ignoring patterns: IgnoredFields) -> JSONValue {
        guard !patterns.isEmpty else { return recorded }
        let ignored = recorded.differences(to: replayed).filter { patterns.matches($0.path) }
        guard !ignored.isEmpty else { return recorded }
        var result = recorded
        for difference in ignored {
            let pointer = JSONPointer(difference.path)
            let operation: JSONPatch.Operation
            switch (difference.recorded, difference.replayed) {
            case (_?, let value?): operation = .replace(path: pointer, value: value)
            case (nil, let value?): operation = .add(path: pointer, value: value)
            case (_?, nil): operation = .remove(path: pointer)
            case (nil, nil): continue
            }
            if let patched = try? JSONPatch(operations: [operation]).apply(to: result) { result = patched }
        }
        return result
    }
}
