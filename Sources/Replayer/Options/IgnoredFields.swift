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
}
