import ActionLog

/// The fields a replay does not compare: the patterns of ``ReplayOptions/ignoring``, and the places
/// the session's recorder redacted (listed in its metadata), which hold placeholders in the file.
struct IgnoredFields {
    let patterns: [FieldPattern]
    let redactor: Redactor

    /// Whether `path` is not compared.
    func matches(_ path: FieldPath) -> Bool {
        patterns.matches(path) || redactor.covers(path)
    }

    /// Whether nothing is left out.
    var isEmpty: Bool { patterns.isEmpty && redactor.isEmpty }

    /// The differences of `replayed` from `recorded` outside these fields; a value missing on one
    /// side is one difference at the root.
    func differences(_ recorded: JSONValue?, _ replayed: JSONValue?) -> [FieldDifference] {
        let all: [FieldDifference] =
            switch (recorded, replayed) {
            case (nil, nil): []
            case (let recorded?, let replayed?): recorded.differences(to: replayed)
            default: [FieldDifference(path: FieldPath(), recorded: recorded, replayed: replayed)]
            }
        return all.filter { !matches($0.path) }
    }
}
