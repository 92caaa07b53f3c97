/// Why a text is not JSON, with the byte offset where reading stopped.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong, as a short phrase: `unexpected character "}"`.
    public let reason: String
    /// The UTF-8 byte offset where the problem was found.
    public let offset: Int

    public var description: String { "invalid JSON at byte \(offset): \(reason)" }
}

extension JSONValue {
    /// The deepest nesting the parser accepts. Files are untrusted: deeper input is refused, not recursed into.
    public static let maximumDepth = 512

    /// Parses JSON text (RFC 8259). Numbers keep their text; a repeated object key keeps its last value.
    ///
    /// ```swift
    /// let state = try JSONValue(parsing: #"{"count":3}"#)
    /// ```
    ///
    /// - Parameter text: the JSON document.
    /// - Throws: ``JSONParseError`` naming the byte offset of the first problem.
    public init(parsing text: String) throws(JSONParseError) {
        var text = text
        let result = text.withUTF8 { buffer in
            Result { () throws(JSONParseError) in try Self.parse(buffer) }
        }
        self = try result.get()
    }

    /// Parses JSON from UTF-8 bytes. See ``init(parsing:)-swift.init``.
    ///
    /// - Throws: ``JSONParseError`` naming the byte offset of the first problem.
    public init(parsing bytes: [UInt8]) throws(JSONParseError) {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONParseError) in try Self.parse(buffer) }
        }
        self = try result.get()
    }

    static func parse(_ buffer: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes: buffer)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.index == buffer.count else { throw parser.error("unexpected text after the document") }
        return value
    }
}

private struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    func error(_ reason: String) -> JSONParseError {
        JSONParseError(reason: reason, offset: index)
    }

    func unexpected() -> JSONParseError {
        guard index < bytes.count else { return error("unexpected end of text") }
        let byte = bytes[index]
        if byte >= 0x20 && byte < 0x7F {
            return error("unexpected character \"\(Character(Unicode.Scalar(byte)))\"")
        }
        return error("unexpected byte 0x\(String(byte, radix: 16))")
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    mutating func expect(_ literal: StaticString, _ value: JSONValue) throws(JSONParseError) -> JSONValue {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw error("unexpected end of text") }
        for offset in 0..<count where bytes[index + offset] != literal.utf8Start[offset] {
            index += offset
            throw unexpected()
        }
        index += count
        return value
    }

    mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth < JSONValue.maximumDepth else { throw error("nesting deeper than \(JSONValue.maximumDepth) levels") }
        guard index < bytes.count else { throw error("unexpected end of text") }
        switch bytes[index] {
        case UInt8(ascii: "n"): return try expect("null", .null)
        case UInt8(ascii: "t"): return try expect("true", .bool(true))
        case UInt8(ascii: "f"): return try expect("false", .bool(false))
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        case UInt8(ascii: "["):
            index += 1
            var elements: [JSONValue] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            while true {
                skipWhitespace()
                elements.append(try parseValue(depth: depth + 1))
                skipWhitespace()
                guard index < bytes.count else { throw error("unexpected end of text") }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
                throw unexpected()
            }
        case UInt8(ascii: "{"):
            index += 1
            var members: [String: JSONValue] = [:]
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw unexpected() }
                let key = try parseString()
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw unexpected() }
                index += 1
                skipWhitespace()
                members[key] = try parseValue(depth: depth + 1)
                skipWhitespace()
                guard index < bytes.count else { throw error("unexpected end of text") }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
                throw unexpected()
            }
        default:
            throw unexpected()
        }
    }

    mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = index
        func digits(_ parser: inout JSONParser) -> Int {
            let first = parser.index
            while parser.index < parser.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(parser.bytes[parser.index]) {
                parser.index += 1
            }
            return parser.index - first
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { throw error("unexpected end of text") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if digits(&self) == 0 {
            throw unexpected()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits(&self) > 0 else { throw unexpected() }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits(&self) > 0 else { throw unexpected() }
        }
        return .number(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
    }

    mutating func parseString() throws(JSONParseError) -> String {
        index += 1  // opening quote
        var scalars = String.UnicodeScalarView()
        var runStart = index
        func flushRun(_ parser: JSONParser, upTo end: Int, into scalars: inout String.UnicodeScalarView) throws(JSONParseError) {
            guard end > runStart else { return }
            let run = UnsafeBufferPointer(rebasing: parser.bytes[runStart..<end])
            guard let string = String(validating: run, as: UTF8.self) else {
                throw JSONParseError(reason: "invalid UTF-8 in a string", offset: runStart)
            }
            scalars.append(contentsOf: string.unicodeScalars)
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                try flushRun(self, upTo: index, into: &scalars)
                index += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                try flushRun(self, upTo: index, into: &scalars)
                index += 1
                guard index < bytes.count else { throw error("unexpected end of text") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    let unit = try parseHex4()
                    if (0xD800..<0xDC00).contains(unit) {
                        // A high surrogate must be followed by an escaped low surrogate.
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw error("unpaired surrogate \\u\(String(unit, radix: 16))")
                        }
                        index += 2
                        let low = try parseHex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate \\u\(String(unit, radix: 16))") }
                        let value = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                        scalars.append(Unicode.Scalar(value)!)
                    } else if let scalar = Unicode.Scalar(UInt32(unit)) {
                        scalars.append(scalar)
                    } else {
                        throw error("unpaired surrogate \\u\(String(unit, radix: 16))")
                    }
                default:
                    index -= 1
                    throw error("invalid escape")
                }
                runStart = index
            case 0x00..<0x20:
                throw error("unescaped control character in a string")
            default:
                index += 1
            }
        }
        throw error("unterminated string")
    }

    mutating func parseHex4() throws(JSONParseError) -> UInt16 {
        guard index + 4 <= bytes.count else { throw error("unexpected end of text") }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw unexpected()
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }
}
