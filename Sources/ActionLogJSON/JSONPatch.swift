/// An RFC 6902 JSON Patch: a list of operations that turns one JSON document into another.
///
/// Read a patch from its JSON form, apply it, or compute one with ``diff(from:to:)``:
///
/// ```swift
/// let patch = try JSONPatch(JSONValue(parsing: #"""
///     [{"op": "replace", "path": "/count", "value": 2},
///      {"op": "add", "path": "/items/-", "value": "pear"}]
///     """#))
/// let state: JSONValue = ["count": 1, "items": ["apple"]]
/// try patch.apply(to: state)  // {"count":2,"items":["apple","pear"]}
/// ```
public struct JSONPatch: Hashable, Sendable, CustomStringConvertible {
    /// One step of a patch. Paths are JSON Pointers; see ``JSONPointer``.
    public enum Operation: Hashable, Sendable {
        /// Adds `value` at `path`: sets an object member (replacing any value there), inserts into an
        /// array before the index (`-` appends), or replaces the whole document for the root pointer.
        case add(path: JSONPointer, value: JSONValue)
        /// Removes the member or array element at `path`, which must exist.
        case remove(path: JSONPointer)
        /// Replaces the value at `path`, which must exist, with `value`.
        case replace(path: JSONPointer, value: JSONValue)
        /// Removes the value at `from` and adds it at `path`. `from` must not contain `path`.
        case move(from: JSONPointer, path: JSONPointer)
        /// Adds a copy of the value at `from` at `path`.
        case copy(from: JSONPointer, path: JSONPointer)
        /// Checks that the value at `path` is equivalent to `value` (see ``JSONValue/isEquivalent(to:)``), or fails the patch.
        case test(path: JSONPointer, value: JSONValue)

        /// The operation's `op` member: `add`, `remove`, `replace`, `move`, `copy` or `test`.
        public var name: String {
            switch self {
            case .add: "add"
            case .remove: "remove"
            case .replace: "replace"
            case .move: "move"
            case .copy: "copy"
            case .test: "test"
            }
        }

        /// The location the operation changes or tests (its `path` member).
        public var path: JSONPointer {
            switch self {
            case .add(let path, _), .remove(let path), .replace(let path, _), .move(_, let path),
                .copy(_, let path), .test(let path, _):
                path
            }
        }

        /// The operation's `from` member, for `move` and `copy`; otherwise `nil`.
        public var from: JSONPointer? {
            switch self {
            case .move(let from, _), .copy(let from, _): from
            default: nil
            }
        }

        /// The operation as a JSON object: `{"op":"add","path":"/a","value":1}`.
        public var jsonValue: JSONValue {
            var members: [String: JSONValue] = ["op": .string(name), "path": .string(path.description)]
            switch self {
            case .add(_, let value), .replace(_, let value), .test(_, let value):
                members["value"] = value
            case .move(let from, _), .copy(let from, _):
                members["from"] = .string(from.description)
            case .remove:
                break
            }
            return .object(members)
        }
    }

    /// The operations, applied in order.
    public var operations: [Operation]

    /// Makes a patch from operations.
    ///
    /// ```swift
    /// let patch = JSONPatch(operations: [.remove(path: JSONPointer("/draft")!)])
    /// ```
    ///
    /// - Parameter operations: the operations, in the order they apply.
    public init(operations: [Operation] = []) {
        self.operations = operations
    }

    /// Reads a patch from its JSON form: an array of operation objects.
    ///
    /// Members other than `op`, `path`, `from` and `value` are ignored, as RFC 6902 asks.
    ///
    /// ```swift
    /// let patch = try JSONPatch(JSONValue(parsing: #"[{"op":"remove","path":"/tags/0"}]"#))
    /// ```
    ///
    /// - Parameter json: the patch document.
    /// - Throws: ``ActionLogError`` of code ``ActionLogError/Code/invalidPatch`` naming the first
    ///   operation that is malformed: not an object, an unknown `op`, a missing or non-string `path`
    ///   or `from`, a malformed JSON Pointer, or a missing `value`.
    public init(_ json: JSONValue) throws(ActionLogError) {
        guard case .array(let items) = json else {
            throw ActionLogError.patch( .invalidPatch, reason: "the patch is \(Self.describeType(json)), not an array of operations")
        }
        var operations: [Operation] = []
        operations.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            operations.append(try Self.decodeOperation(item, index: index))
        }
        self.operations = operations
    }

    /// The patch as JSON: an array of operation objects, ready to be written with ``JSONValue/canonicalText``.
    public var jsonValue: JSONValue {
        .array(operations.map(\.jsonValue))
    }

    /// The patch's canonical JSON text.
    public var description: String { canonicalText }

    /// Applies the operations in order to `document` and returns the result; `document` itself is not changed.
    ///
    /// The patch applies whole or not at all: if an operation fails, nothing is returned.
    ///
    /// ```swift
    /// let patch = JSONPatch(operations: [.add(path: JSONPointer("/tags/0")!, value: "new")])
    /// try patch.apply(to: ["tags": ["old"]])  // {"tags":["new","old"]}
    /// ```
    ///
    /// - Parameter document: the document to patch.
    /// - Returns: the patched document.
    /// - Throws: ``ActionLogError`` naming the first operation that failed, its pointers and why:
    ///   a location that does not exist, a `test` that found a different value, removing the whole
    ///   document, or moving a value into one of its own children.
    public func apply(to document: JSONValue) throws(ActionLogError) -> JSONValue {
        var result = document
        try apply(to: &result)
        return result
    }

    /// Applies the operations in order to `document`, changing it in place.
    ///
    /// Where `document` holds the only reference to its containers, an operation costs the depth of
    /// its path, not the size of the containers on it: replacing one field of one element of a
    /// 1,000-element array copies neither the array nor the element's siblings. Keep no other copy
    /// of `document` alive meanwhile, or the first change copies what the copies share.
    ///
    /// ```swift
    /// var state: JSONValue = ["items": [["quantity": 1], ["quantity": 2]]]
    /// try JSONPatch(operations: [.replace(path: JSONPointer("/items/1/quantity")!, value: 5)]).apply(to: &state)
    /// state.canonicalText  // {"items":[{"quantity":1},{"quantity":5}]}
    /// ```
    ///
    /// Unlike ``apply(to:)-(JSONValue)``, this is not all or nothing: when an operation fails, the
    /// operations before it stay applied. Use it where a failure discards the document anyway.
    ///
    /// - Parameter document: the document to patch, in place.
    /// - Throws: ``ActionLogError`` naming the first operation that failed, as ``apply(to:)-(JSONValue)`` does.
    public func apply(to document: inout JSONValue) throws(ActionLogError) {
        for (index, operation) in operations.enumerated() {
            do {
                try operation.perform(on: &document)
            } catch {
                throw error.located(at: index, operation)
            }
        }
    }
}

// MARK: - Applying

/// Why one operation failed, before the patch adds the operation's index and pointers.
package struct OperationFailure: Error {
    package var code: ActionLogError.Code
    package var reason: String

    /// The patch's error: this failure, at operation `index`.
    package func located(at index: Int, _ operation: JSONPatch.Operation) -> ActionLogError {
        ActionLogError.patch(code, operationIndex: index, operation: operation.name,
            path: operation.path.description, from: operation.from?.description, reason: reason)
    }
}

extension JSONPatch.Operation {
    package func perform(on document: inout JSONValue) throws(OperationFailure) {
        switch self {
        case .add(let path, let value):
            try Self.put(value, at: path, inserting: true, in: &document)
        case .remove(let path):
            _ = try Self.remove(at: path, role: .path, in: &document)
        case .replace(let path, let value):
            try Self.put(value, at: path, inserting: false, in: &document)
        case .move(let from, let path):
            if from == path {
                _ = try Self.value(at: from, role: .from, in: document)
                return
            }
            guard !path.isProperDescendant(of: from) else {
                throw OperationFailure(
                    code: .notAllowed, reason: "cannot move \(Self.show(from)) into its own child \(path)")
            }
            let value = try Self.remove(at: from, role: .from, in: &document)
            try Self.put(value, at: path, inserting: true, in: &document)
        case .copy(let from, let path):
            let value = try Self.value(at: from, role: .from, in: document)
            try Self.put(value, at: path, inserting: true, in: &document)
        case .test(let path, let expected):
            let actual = try Self.value(at: path, role: .path, in: document)
            guard actual.isEquivalent(to: expected) else {
                throw OperationFailure(
                    code: .testFailed,
                    reason: "the value is \(JSONPatch.summary(of: actual)), not \(JSONPatch.summary(of: expected))")
            }
        }
    }

    /// Which of the operation's pointers is being resolved. Failures on `from` always say where they
    /// happened, since a `move` or `copy` error names two pointers.
    private enum Role {
        case path, from
    }

    /// Where a token leads inside a container.
    private enum Slot {
        /// A member the object has, at its place in the object: valid until the object changes, and
        /// read or written through it, the key is hashed once.
        case member(Dictionary<String, JSONValue>.Index)
        /// A member the object does not have yet: only where `add` puts a value (`inserting`).
        case newMember(String)
        case element(Int)
    }

    /// What ``slot(for:in:pointer:depth:role:inserting:)`` never returns without `inserting`.
    private static var unexpectedNewMember: Never {
        preconditionFailure("a slot resolved without inserting is a member the object has")
    }

    private static func show(_ pointer: JSONPointer) -> String {
        pointer.isRoot ? "the whole document" : pointer.description
    }

    // MARK: Operations on the parent of the target

    /// Sets `value` at `path`: inserting into an array (`add`) or overwriting an element that must
    /// exist (`replace`). Object members are set either way; for `replace` the member must exist.
    private static func put(_ value: JSONValue, at path: JSONPointer, inserting: Bool, in document: inout JSONValue) throws(OperationFailure) {
        guard let last = path.tokens.last else {
            document = value
            return
        }
        try modifyParent(of: path, role: .path, in: &document) { (parent: inout JSONValue) throws(OperationFailure) in
            let slot = try slot(for: last, in: parent, pointer: path, depth: path.tokens.count - 1, role: .path, inserting: inserting)
            switch slot {
            case .member(let place):
                var members = parent.takeObject()
                members.values[place] = value
                parent = .object(members)
            case .newMember(let key):
                var members = parent.takeObject()
                members[key] = value
                parent = .object(members)
            case .element(let index):
                var elements = parent.takeArray()
                if inserting {
                    elements.insert(value, at: index)
                } else {
                    elements[index] = value
                }
                parent = .array(elements)
            }
        }
    }

    private static func remove(at path: JSONPointer, role: Role, in document: inout JSONValue) throws(OperationFailure) -> JSONValue {
        guard let last = path.tokens.last else {
            throw OperationFailure(code: .notAllowed, reason: "cannot remove the whole document")
        }
        return try modifyParent(of: path, role: role, in: &document) { (parent: inout JSONValue) throws(OperationFailure) -> JSONValue in
            let slot = try slot(for: last, in: parent, pointer: path, depth: path.tokens.count - 1, role: role, inserting: false)
            switch slot {
            case .member(let place):
                var members = parent.takeObject()
                let removed = members.remove(at: place).value
                parent = .object(members)
                return removed
            case .newMember:
                unexpectedNewMember
            case .element(let index):
                var elements = parent.takeArray()
                let removed = elements.remove(at: index)
                parent = .array(elements)
                return removed
            }
        }
    }

    // MARK: Navigation

    /// The value at `pointer`.
    private static func value(at pointer: JSONPointer, role: Role, in document: JSONValue) throws(OperationFailure) -> JSONValue {
        var current = document
        for depth in pointer.tokens.indices {
            switch try slot(for: pointer.tokens[depth], in: current, pointer: pointer, depth: depth, role: role, inserting: false) {
            case .member(let place): current = current.takeObject().values[place]
            case .newMember: unexpectedNewMember
            case .element(let index): current = current[index]!
            }
        }
        return current
    }

    /// Walks down to the container that holds the last token of `pointer` (which must not be the
    /// root) and lets `body` change it in place.
    private static func modifyParent<Result>(
        of pointer: JSONPointer, role: Role, depth: Int = 0, in value: inout JSONValue,
        _ body: (inout JSONValue) throws(OperationFailure) -> Result
    ) throws(OperationFailure) -> Result {
        if depth == pointer.tokens.count - 1 { return try body(&value) }
        let slot = try slot(for: pointer.tokens[depth], in: value, pointer: pointer, depth: depth, role: role, inserting: false)
        switch slot {
        case .member(let place):
            var members = value.takeObject()
            defer { value = .object(members) }
            return try modifyParent(of: pointer, role: role, depth: depth + 1, in: &members.values[place], body)
        case .newMember:
            unexpectedNewMember
        case .element(let index):
            var elements = value.takeArray()
            defer { value = .array(elements) }
            return try modifyParent(of: pointer, role: role, depth: depth + 1, in: &elements[index], body)
        }
    }

    /// Resolves `pointer.tokens[depth]` in `container` (the value at the pointer's first `depth` tokens).
    ///
    /// With `inserting`, an array token may also be the index just past the end or `-`, and an
    /// object member need not exist yet: that is where `add` puts a value.
    private static func slot(
        for token: String, in container: JSONValue, pointer: JSONPointer, depth: Int, role: Role, inserting: Bool
    ) throws(OperationFailure) -> Slot {
        // Computed only for a failure's message: resolving a valid token allocates nothing.
        var parent: JSONPointer { JSONPointer(tokens: Array(pointer.tokens[..<depth])) }
        // Failures at the pointer's own last token need no location: the error message names the path.
        let locate = role == .from || depth < pointer.tokens.count - 1
        func notFound(_ reason: String) -> OperationFailure {
            OperationFailure(code: .locationNotFound, reason: reason)
        }

        switch container {
        case .object(let members):
            if let place = members.index(forKey: token) { return .member(place) }
            if inserting { return .newMember(token) }
            let location = parent.isRoot ? " in the root object" : " in the object at \(parent)"
            throw notFound("no member \(JSONPatch.quoted(token))" + (locate ? location : ""))

        case .array(let elements):
            var arrayName: String { parent.isRoot ? "the root array" : "the array at \(parent)" }
            if token == "-" {
                if inserting { return .element(elements.count) }
                throw notFound("\"-\" names the end of \(locate ? arrayName : "the array"), not an element")
            }
            // The digits' value in one pass, `Int.max` past it (no array is that long).
            var index = 0
            var isDigits = !token.isEmpty
            for byte in token.utf8 {
                let digit = byte &- UInt8(ascii: "0")
                guard digit < 10 else {
                    isDigits = false
                    break
                }
                let (tens, overflowed) = index.multipliedReportingOverflow(by: 10)
                let (sum, carried) = tens.addingReportingOverflow(Int(digit))
                index = overflowed || carried ? Int.max : sum
            }
            guard isDigits else {
                throw notFound("\(JSONPatch.quoted(token)) is not \(locate ? "an index of \(arrayName)" : "an array index")")
            }
            guard token == "0" || token.utf8.first != UInt8(ascii: "0") else {
                throw notFound(
                    "\(JSONPatch.quoted(token)) is not \(locate ? "an index of \(arrayName)" : "an array index")"
                        + " (leading zeros are not allowed)")
            }
            var size: String { elements.isEmpty ? "is empty" : "has \(elements.count)" }
            if inserting {
                guard index <= elements.count else {
                    throw notFound("cannot insert at index \(token) (the array \(size))")
                }
            } else {
                guard index < elements.count else {
                    throw notFound(
                        locate
                            ? "no element at index \(token) in \(arrayName) (it \(size))"
                            : "no element at index \(token) (the array \(size))")
                }
            }
            return .element(index)

        default:
            let subject = parent.isRoot ? "the document" : parent.description
            throw notFound("\(subject) is \(JSONPatch.describeType(container)), not an object or array")
        }
    }
}

extension JSONValue {
    /// The members of this object, moved out so that changing them copies nothing; `self` becomes `null`
    /// until the caller puts the object back. Only for values known to be objects.
    fileprivate mutating func takeObject() -> [String: JSONValue] {
        guard case .object(let members) = self else { preconditionFailure("a slot always matches its container") }
        self = .null
        return members
    }

    /// The elements of this array, moved out like ``takeObject()``. Only for values known to be arrays.
    fileprivate mutating func takeArray() -> [JSONValue] {
        guard case .array(let elements) = self else { preconditionFailure("a slot always matches its container") }
        self = .null
        return elements
    }
}
