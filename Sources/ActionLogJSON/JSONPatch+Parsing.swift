import Foundation

extension JSONPatch {
    /// A patch read straight from its UTF-8 text into operations, without an object per operation:
    /// the form every delta of a journal is stored in. `nil` when the text is anything but a valid
    /// patch (not JSON, not an array of operation objects, an unknown op, a missing member, a
    /// pointer that does not parse): the general path, ``JSONValue/init(parsing:)-swift.init`` and
    /// ``init(_:)``, then names the problem. Members are read as the general path reads them:
    /// unknown ones ignored, a repeated one keeping its last value; values nest up to
    /// ``JSONValue/maximumDepth`` levels counting the patch's own two.
    package static func parsing(_ bytes: [UInt8]) -> JSONPatch? {
        bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(bytes: buffer, maximumDepth: JSONValue.maximumDepth)
            return try? parser.parsePatch()
        }
    }
}

extension JSONParser {
    /// The patch the text holds, or an error (any error: the caller goes the general way to name it).
    fileprivate mutating func parsePatch() throws(ActionLogError) -> JSONPatch {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else { throw unexpected() }
        index += 1
        var operations: [JSONPatch.Operation] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
        } else {
            while true {
                skipWhitespace()
                let operation = try parseOperation()
                skipWhitespace()
                guard index < bytes.count else { throw error("unexpected end of text") }
                let next = bytes[index]
                index += 1
                // Most deltas change one place: their list is made at its exact size.
                if operations.isEmpty, next == UInt8(ascii: "]") {
                    operations = [operation]
                    break
                }
                operations.append(operation)
                if next == UInt8(ascii: ",") { continue }
                if next == UInt8(ascii: "]") { break }
                throw unexpected()
            }
        }
        skipWhitespace()
        guard index == bytes.count else { throw error("unexpected text after the document") }
        return JSONPatch(operations: operations)
    }

    private mutating func parseOperation() throws(ActionLogError) -> JSONPatch.Operation {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { throw unexpected() }
        index += 1
        var op: OperationName?
        var path: Result<JSONPointer, JSONPointer.PointerSyntaxError>?
        var from: Result<JSONPointer, JSONPointer.PointerSyntaxError>?
        var value: JSONValue?
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            throw error("an operation without members")
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw unexpected() }
            let key = try withStringBytes(MemberName.init)
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw unexpected() }
            index += 1
            skipWhitespace()
            switch key {
            case .op:
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("not a string") }
                op = try withStringBytes(OperationName.init)
            case .path, .from:
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("not a string") }
                let pointer = try withStringBytes(JSONPointer.parse(utf8:))
                if key == .path { path = pointer } else { from = pointer }
            case .value:
                value = try parseValue(depth: 2)
            case .other:
                _ = try parseValue(depth: 2)
            }
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of text") }
            let next = bytes[index]
            index += 1
            if next == UInt8(ascii: ",") { continue }
            if next == UInt8(ascii: "}") { break }
            throw unexpected()
        }
        func pointer(_ parsed: Result<JSONPointer, JSONPointer.PointerSyntaxError>?) throws(ActionLogError) -> JSONPointer {
            guard case .success(let pointer) = parsed else { throw error("not a pointer") }
            return pointer
        }
        func required(_ value: JSONValue?) throws(ActionLogError) -> JSONValue {
            guard let value else { throw error("no value") }
            return value
        }
        switch op {
        case .add: return .add(path: try pointer(path), value: try required(value))
        case .remove: return .remove(path: try pointer(path))
        case .replace: return .replace(path: try pointer(path), value: try required(value))
        case .move: return .move(from: try pointer(from), path: try pointer(path))
        case .copy: return .copy(from: try pointer(from), path: try pointer(path))
        case .test: return .test(path: try pointer(path), value: try required(value))
        case nil: throw error("unknown op")
        }
    }

    /// Reads the string `index` is at (its opening quote) and gives `body` its UTF-8 bytes: the
    /// text's own bytes when the string has no escapes, so that no `String` is made for a member
    /// name, an `op` or a pointer; the decoded string's otherwise.
    private mutating func withStringBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) throws(ActionLogError) -> Result {
        if let run = parseUnescapedString() { return body(run) }
        var decoded = try parseString()
        return decoded.withUTF8(body)
    }

    /// The members of an operation object that a patch reads; any other is skipped.
    private enum MemberName {
        case op, path, from, value, other

        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            self =
                if bytes.holds("op") { .op }
                else if bytes.holds("path") { .path }
                else if bytes.holds("from") { .from }
                else if bytes.holds("value") { .value }
                else { .other }
        }
    }

    /// The value of an operation's `op` member; `nil` for an unknown one.
    private enum OperationName {
        case add, remove, replace, move, copy, test

        init?(_ bytes: UnsafeBufferPointer<UInt8>) {
            if bytes.holds("replace") { self = .replace }
            else if bytes.holds("add") { self = .add }
            else if bytes.holds("remove") { self = .remove }
            else if bytes.holds("move") { self = .move }
            else if bytes.holds("copy") { self = .copy }
            else if bytes.holds("test") { self = .test }
            else { return nil }
        }
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// Whether these are exactly the bytes of `literal`.
    @inline(__always) fileprivate func holds(_ literal: StaticString) -> Bool {
        guard count == literal.utf8CodeUnitCount else { return false }
        guard let baseAddress else { return count == 0 }
        return JSONParser.sameBytes(baseAddress, literal.utf8Start, count: count)
    }
}

// MARK: - Reading the JSON form

extension JSONPatch {
    /// The operation at `index` of a patch's JSON form, or why it is not one.
    package static func decodeOperation(_ json: JSONValue, index: Int) throws(ActionLogError) -> Operation {
        var operationName: String?
        var pathText: String?
        var fromText: String?
        func fail(_ reason: String) -> ActionLogError {
            .patch(.invalidPatch, operationIndex: index, operation: operationName, path: pathText, from: fromText, reason: reason)
        }
        guard case .object(let members) = json else {
            throw fail("an operation must be an object, not \(describeType(json))")
        }
        guard let op = members["op"] else {
            throw fail("the \"op\" member is missing")
        }
        guard case .string(let name) = op else {
            throw fail("\"op\" must be a string, not \(describeType(op))")
        }
        guard ["add", "remove", "replace", "move", "copy", "test"].contains(name) else {
            throw fail("unknown op \(quoted(name)) (expected add, remove, replace, move, copy or test)")
        }
        operationName = name

        func pointer(_ member: String) throws(ActionLogError) -> JSONPointer {
            guard let value = members[member] else {
                throw fail("the \"\(member)\" member is missing")
            }
            guard case .string(let text) = value else {
                throw fail("\"\(member)\" must be a string, not \(describeType(value))")
            }
            if member == "path" { pathText = text } else { fromText = text }
            switch JSONPointer.parse(text) {
            case .success(let pointer):
                return pointer
            case .failure(let syntax):
                throw fail("\(quoted(text)) is not a JSON Pointer: \(syntax.reason)")
            }
        }

        func value() throws(ActionLogError) -> JSONValue {
            guard let value = members["value"] else {
                throw fail("the \"value\" member is missing")
            }
            return value
        }

        let path = try pointer("path")
        switch name {
        case "add": return .add(path: path, value: try value())
        case "remove": return .remove(path: path)
        case "replace": return .replace(path: path, value: try value())
        case "move": return .move(from: try pointer("from"), path: path)
        case "copy": return .copy(from: try pointer("from"), path: path)
        default: return .test(path: path, value: try value())
        }
    }

    /// `an object`, `a string`, `null`: the value's JSON type with an article, for messages.
    package static func describeType(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .array, .object: "an \(value.typeName)"
        default: "a \(value.typeName)"
        }
    }

    /// `text` as a JSON string literal, for messages.
    package static func quoted(_ text: String) -> String {
        var bytes: [UInt8] = []
        JSONValue.writeString(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The value's canonical text, shortened to about 60 characters, for messages.
    package static func summary(of value: JSONValue) -> String {
        let text = value.canonicalText
        guard text.count > 60 else { return text }
        return String(text.prefix(57)) + "…"
    }
}
