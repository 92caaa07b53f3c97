/// Why a JSON Patch could not be read or applied, naming the operation and the pointer involved.
///
/// The ``description`` is one sentence for people:
///
/// ```swift
/// do {
///     _ = try patch.apply(to: state)
/// } catch {
///     print(error)  // operation 2 (replace /cart/items/7): no element at index 7 (the array has 3)
/// }
/// ```
public struct JSONPatchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The broad reason a patch failed, for code that reacts differently to each.
    public enum Kind: Hashable, Sendable {
        /// The patch document is not a valid JSON Patch: not an array, a member missing or of the
        /// wrong type, an unknown `op`, or a malformed JSON Pointer.
        case invalidPatch
        /// A location that must exist does not: a missing member, an index out of range, a token that
        /// is not an array index, or a step into a value that is neither an object nor an array.
        case locationNotFound
        /// A `test` operation found a different value.
        case testFailed
        /// The operation is well formed but not allowed: removing the whole document, or moving a
        /// value into one of its own children.
        case notAllowed
        /// Applying it would nest the document deeper than ``JSONValue/maximumDepth`` levels.
        case tooDeep
        /// Applying it would make the document heavier than a rebuilt state may be (see the
        /// bounds in `Journal.state(at:in:)`): the mark of a patch bomb.
        case tooLarge
    }

    /// The broad reason for the failure.
    public var kind: Kind
    /// The position of the failing operation in the patch (from 0), or `nil` when the patch as a whole is malformed.
    public var operationIndex: Int?
    /// The failing operation's `op` (`"add"`, `"move"`, …), when it is known.
    public var operation: String?
    /// The operation's `path`, as written, when it is known.
    public var path: String?
    /// The operation's `from` (for `move` and `copy`), as written, when it is known.
    public var from: String?
    /// What went wrong, as a short phrase: `no member "baz"`.
    public var reason: String

    /// Makes an error. Most code only reads errors thrown by ``JSONPatch``.
    ///
    /// ```swift
    /// let error = JSONPatchError(kind: .testFailed, operationIndex: 0, operation: "test",
    ///                            path: "/a", reason: "the value is 1, not 2")
    /// error.description  // operation 0 (test /a): the value is 1, not 2
    /// ```
    ///
    /// - Parameters:
    ///   - kind: the broad reason.
    ///   - operationIndex: the failing operation's position, or `nil` for the whole patch.
    ///   - operation: the operation's `op`, if known.
    ///   - path: the operation's `path` as written, if known.
    ///   - from: the operation's `from` as written, if known.
    ///   - reason: what went wrong, as a short phrase.
    public init(
        kind: Kind, operationIndex: Int? = nil, operation: String? = nil, path: String? = nil, from: String? = nil,
        reason: String
    ) {
        self.kind = kind
        self.operationIndex = operationIndex
        self.operation = operation
        self.path = path
        self.from = from
        self.reason = reason
    }

    /// `operation 2 (replace /cart/items/7): no element at index 7 (the array has 3)`;
    /// a `move` or `copy` reads `(move /from to /path)`, and the empty pointer (the whole document) is written `""`.
    public var description: String {
        var text = operationIndex.map { "operation \($0)" } ?? "invalid JSON Patch"
        if let operation {
            var subject = operation
            if let from { subject += " \(Self.show(from)) to" }
            if let path { subject += " \(Self.show(path))" }
            text += " (\(subject))"
        }
        return text + ": " + reason
    }

    private static func show(_ pointer: String) -> String {
        pointer.isEmpty ? "\"\"" : pointer
    }
}
