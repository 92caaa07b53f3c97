extension ActionLogError {
    /// Why a JSON Patch could not be read or applied, naming the operation and the pointers involved:
    /// `operation 2 (replace /cart/items/7): no element at index 7 (the array has 3)`; a `move` or
    /// `copy` reads `(move /from to /path)`, the empty pointer (the whole document) is written `""`,
    /// and a patch malformed as a whole reads `invalid JSON Patch: …`.
    ///
    /// - Parameters:
    ///   - code: ``Code/invalidPatch``, ``Code/locationNotFound``, ``Code/testFailed``,
    ///     ``Code/notAllowed``, ``Code/tooDeep`` or ``Code/tooLarge``.
    ///   - operationIndex: the failing operation's position (from 0), or `nil` for the whole patch.
    ///   - operation: the operation's `op`, if known.
    ///   - path: the operation's `path` as written, if known.
    ///   - from: the operation's `from` as written, if known.
    ///   - reason: what went wrong, as a short phrase: `no member "baz"`.
    package static func patch(
        _ code: Code, operationIndex: Int? = nil, operation: String? = nil, path: String? = nil, from: String? = nil,
        reason: String
    ) -> ActionLogError {
        func show(_ pointer: String) -> String { pointer.isEmpty ? "\"\"" : pointer }
        var text = operationIndex.map { "operation \($0)" } ?? "invalid JSON Patch"
        if let operation {
            var subject = operation
            if let from { subject += " \(show(from)) to" }
            if let path { subject += " \(show(path))" }
            text += " (\(subject))"
        }
        return ActionLogError(code, reason: text + ": " + reason)
    }
}
