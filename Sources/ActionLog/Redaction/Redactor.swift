/// Replaces the values at a session's ``RedactedPath``s with placeholders: in a whole state (a
/// keyframe) and in a patch (a delta), at a cost proportional to what is written, never to the state
/// a patch applies to.
///
/// The recorder redacts what it writes; the replay redacts what it replays before comparing it with
/// what was recorded, with the same rules, so placeholders compare equal and a redacted value that
/// changes at every step costs no more than any other change.
///
/// ```swift
/// let redactor = try Redactor(paths: ["/user/token"], file: "app.actionlog")
/// redactor.keyframe(["user": ["token": "s3cret", "name": "Ada"]])   // {"user":{"name":"Ada","token":"<redacted>"}}
/// ```
///
/// The rules that keep a patch exact (applied to the redacted previous state, the redacted patch
/// gives the redacted new state):
/// - a value added, replaced or tested at or below a redacted path becomes its placeholder; one whose
///   place is above a redacted path has the values below it redacted;
/// - `remove` keeps no value and stays as it is;
/// - a `move` or `copy` that touches a redacted path, and an insertion or removal in an array where a
///   path names an element by its index (the elements after it move), cannot be redacted exactly:
///   ``delta(_:)`` returns `nil` and the writer stores a keyframe instead.
package struct Redactor: Sendable {
    /// The paths, as configured or read from the session's metadata.
    package let paths: [RedactedPath]
    /// The tokens of ``paths``.
    private let patterns: [[RedactedPath.Token]]

    /// No path: everything is written as it is.
    package static let none = Redactor(checked: [])

    /// A path may be at most this many tokens deep: no state that a journal accepts nests deeper.
    package static let maximumDepth = 512

    /// What a redacted string becomes.
    package static let placeholderText = "<redacted>"

    /// A redactor for paths already checked (see ``problem(with:)``), of one scope.
    init(checked paths: [RedactedPath]) {
        self.paths = paths
        self.patterns = paths.map { $0.tokens ?? [] }
    }

    /// A redactor for paths given by the app, each taken as a pointer of the values it redacts
    /// whatever its scope; refuses a path that is not one.
    ///
    /// - Parameters:
    ///   - paths: the configured paths.
    ///   - file: the journal's file name, for the error.
    /// - Throws: ``ActionLogError`` with code ``ActionLogError/Code/invalidArgument`` naming the first path
    ///   that does not parse or is deeper than ``maximumDepth``.
    package init(paths: [RedactedPath], file: String) throws(ActionLogError) {
        for path in paths {
            if let reason = Self.problem(with: path) {
                throw ActionLogError(.invalidArgument, file: file, reason: "the redacted path \(JSONPatch.quoted(path.description)) \(reason)")
            }
        }
        self.init(checked: paths)
    }

    /// Why `path` cannot be used (a phrase that follows it), or `nil`.
    static func problem(with path: RedactedPath) -> String? {
        if let syntax = path.syntaxError { return syntax }
        if let tokens = path.tokens, tokens.count > maximumDepth { return "is deeper than \(maximumDepth) levels" }
        return nil
    }

    /// Whether there is no path to redact.
    package var isEmpty: Bool { patterns.isEmpty }

    // MARK: - Redacting

    /// The whole state with every redacted place replaced by its placeholder.
    ///
    /// - Parameter state: the state's JSON.
    /// - Returns: the state to write; `state` itself when there is no path.
    package func keyframe(_ state: JSONValue) -> JSONValue {
        guard !isEmpty else { return state }
        var result = state
        for pattern in patterns { Self.apply(pattern[...], to: &result) }
        return result
    }

    /// The patch to write: `patch` with the values that land at or contain a redacted place replaced;
    /// `nil` when that cannot be done exactly (see ``Redactor``), and the whole state must be written.
    ///
    /// It reads the operations and their values only.
    ///
    /// - Parameter patch: the patch from the previous state to the new one, unredacted.
    package func delta(_ patch: JSONPatch) -> JSONPatch? {
        guard !isEmpty else { return patch }
        var operations: [JSONPatch.Operation]?
        for (index, operation) in patch.operations.enumerated() {
            var replacement: JSONPatch.Operation?
            switch operation {
            case .add(let path, let value):
                if movesElements(path) { return nil }
                replacement = redacted(value, at: path).map { .add(path: path, value: $0) }
            case .replace(let path, let value):
                replacement = redacted(value, at: path).map { .replace(path: path, value: $0) }
            case .test(let path, let value):
                replacement = redacted(value, at: path).map { .test(path: path, value: $0) }
            case .remove(let path):
                if movesElements(path) { return nil }
            case .move(let from, let path), .copy(let from, let path):
                if relates(from) || relates(path) || movesElements(from) || movesElements(path) { return nil }
            }
            if let replacement {
                if operations == nil { operations = patch.operations }
                operations?[index] = replacement
            }
        }
        return operations.map { JSONPatch(operations: $0) } ?? patch
    }

    /// `value`, found at `pointer` in a state, with its redacted places replaced.
    ///
    /// - Parameters:
    ///   - value: a value of the state.
    ///   - pointer: where it is.
    package func value(_ value: JSONValue, at pointer: JSONPointer) -> JSONValue {
        redacted(value, at: pointer) ?? value
    }

    /// Whether `path`, or a place above it, is redacted: a field that replay does not compare.
    ///
    /// - Parameter path: a field of the state.
    package func covers(_ path: FieldPath) -> Bool {
        covering(path) != nil
    }

    /// The first path that redacts `path` or a place above it, or `nil`: for a message that says
    /// which path made a placeholder.
    ///
    /// - Parameter path: a field of the value.
    package func covering(_ path: FieldPath) -> RedactedPath? {
        zip(paths, patterns).first { _, pattern in
            guard pattern.count <= path.components.count else { return false }
            return zip(pattern, path.components).allSatisfy { token, component in
                switch (token, component) {
                case (.any, _): true
                case (.name(let name), .key(let key)): name == key
                case (.name(let name), .index(let index)): name == String(index)
                }
            }
        }?.0
    }

    /// `value` at `pointer` redacted, or `nil` when no path reaches it.
    private func redacted(_ value: JSONValue, at pointer: JSONPointer) -> JSONValue? {
        var result: JSONValue?
        for pattern in patterns where Self.prefixMatches(pattern, pointer) {
            if pattern.count <= pointer.tokens.count { return Self.placeholder(for: value) }
            var current = result ?? value
            Self.apply(pattern[pointer.tokens.count...], to: &current)
            result = current
        }
        return result
    }

    /// Whether `pattern` and `pointer` agree on the levels they share: the pointer is at, below or
    /// above a place the pattern names.
    private static func prefixMatches(_ pattern: [RedactedPath.Token], _ pointer: JSONPointer) -> Bool {
        zip(pattern, pointer.tokens).allSatisfy { $0.matches($1) }
    }

    /// Whether a path is at, below or above `pointer`.
    private func relates(_ pointer: JSONPointer) -> Bool {
        patterns.contains { Self.prefixMatches($0, pointer) }
    }

    /// Whether inserting or removing at `pointer` could move an element that a path names by index.
    private func movesElements(_ pointer: JSONPointer) -> Bool {
        guard let last = pointer.tokens.last, last == "-" || JSONPointer.arrayIndex(last) != nil else { return false }
        let depth = pointer.tokens.count - 1
        let parent = JSONPointer(tokens: Array(pointer.tokens.dropLast()))
        return patterns.contains { pattern in
            pattern.count > depth && pattern[depth].isPosition && Self.prefixMatches(pattern, parent)
        }
    }

    /// Redacts the places that `tokens` name below `value`. Recurses once per token (at most
    /// ``maximumDepth``), not per level of the value.
    private static func apply(_ tokens: ArraySlice<RedactedPath.Token>, to value: inout JSONValue) {
        guard let token = tokens.first else {
            value = placeholder(for: value)
            return
        }
        let rest = tokens.dropFirst()
        switch value {
        case .object(var members):
            value = .null  // `members` is now the only reference: changed in place.
            switch token {
            case .any:
                for index in members.values.indices { apply(rest, to: &members.values[index]) }
            case .name(let name):
                if let index = members.index(forKey: name) { apply(rest, to: &members.values[index]) }
            }
            value = .object(members)
        case .array(var elements):
            value = .null
            switch token {
            case .any:
                for index in elements.indices { apply(rest, to: &elements[index]) }
            case .name(let name):
                if let index = JSONPointer.arrayIndex(name), elements.indices.contains(index) { apply(rest, to: &elements[index]) }
            }
            value = .array(elements)
        default:
            break
        }
    }
}

