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
    fileprivate mutating func parsePatch() throws(JSONParseError) -> JSONPatch {
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
                operations.append(try parseOperation())
                skipWhitespace()
                guard index < bytes.count else { throw error("unexpected end of text") }
                let next = bytes[index]
                index += 1
                if next == UInt8(ascii: ",") { continue }
                if next == UInt8(ascii: "]") { break }
                throw unexpected()
            }
        }
        skipWhitespace()
        guard index == bytes.count else { throw error("unexpected text after the document") }
        return JSONPatch(operations: operations)
    }

    private mutating func parseOperation() throws(JSONParseError) -> JSONPatch.Operation {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { throw unexpected() }
        index += 1
        var op: String?
        var path: String?
        var from: String?
        var value: JSONValue?
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            throw error("an operation without members")
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw unexpected() }
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw unexpected() }
            index += 1
            skipWhitespace()
            switch key {
            case "op", "path", "from":
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("not a string") }
                let text = try parseString()
                if key == "op" { op = text } else if key == "path" { path = text } else { from = text }
            case "value":
                value = try parseValue(depth: 2)
            default:
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
        func pointer(_ text: String?) throws(JSONParseError) -> JSONPointer {
            guard let text, case .success(let pointer) = JSONPointer.parse(text) else { throw error("not a pointer") }
            return pointer
        }
        func required(_ value: JSONValue?) throws(JSONParseError) -> JSONValue {
            guard let value else { throw error("no value") }
            return value
        }
        switch op {
        case "add": return .add(path: try pointer(path), value: try required(value))
        case "remove": return .remove(path: try pointer(path))
        case "replace": return .replace(path: try pointer(path), value: try required(value))
        case "move": return .move(from: try pointer(from), path: try pointer(path))
        case "copy": return .copy(from: try pointer(from), path: try pointer(path))
        case "test": return .test(path: try pointer(path), value: try required(value))
        default: throw error("unknown op")
        }
    }
}
