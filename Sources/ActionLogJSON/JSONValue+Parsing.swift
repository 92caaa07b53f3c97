import Foundation

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
    /// - Throws: ``ActionLogError`` naming the byte offset of the first problem.
    public init(parsing text: String) throws(ActionLogError) {
        var text = text
        let result = text.withUTF8 { buffer in
            Result { () throws(ActionLogError) in try Self.parse(buffer) }
        }
        self = try result.get()
    }

    /// Parses JSON from UTF-8 bytes. See ``init(parsing:)-swift.init``.
    ///
    /// - Throws: ``ActionLogError`` naming the byte offset of the first problem.
    public init(parsing bytes: [UInt8]) throws(ActionLogError) {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(ActionLogError) in try Self.parse(buffer) }
        }
        self = try result.get()
    }

    /// Parses JSON from UTF-8 bytes that may nest up to `maximumDepth` levels: for a text that wraps
    /// values in a container of its own (a line of the text form wraps an entry's state in an object),
    /// so that the values inside may nest as deep as ``maximumDepth`` allows elsewhere.
    ///
    /// - Throws: ``ActionLogError`` naming the byte offset of the first problem.
    package init(parsing bytes: [UInt8], maximumDepth: Int) throws(ActionLogError) {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(ActionLogError) in try Self.parse(buffer, maximumDepth: maximumDepth) }
        }
        self = try result.get()
    }

    package static func parse(_ buffer: UnsafeBufferPointer<UInt8>, maximumDepth: Int = JSONValue.maximumDepth) throws(ActionLogError) -> JSONValue {
        var parser = JSONParser(bytes: buffer, maximumDepth: maximumDepth)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.index == buffer.count else { throw parser.error("unexpected text after the document") }
        return value
    }
}

private var quote: UInt8 { UInt8(ascii: "\"") }
private var backslash: UInt8 { UInt8(ascii: "\\") }

/// A recursive-descent reader over UTF-8 bytes.
///
/// Strings take a fast path: one scan to the closing quote (eight bytes at a time), one UTF-8
/// validation (none for ASCII), one `String`. Only a string with a backslash is decoded run by run
/// into `scratch`. Either way each run of unescaped bytes is validated on its own, once its end is
/// found, so errors name the same offsets whichever path is taken. Arrays and objects are sized
/// once they are known to hold more than one element. The objects of an array that have the keys of
/// the object before them are read against those keys (``ObjectShape``), hashing none.
package struct JSONParser {
    package let bytes: UnsafeBufferPointer<UInt8>
    /// Levels of nesting accepted: ``JSONValue/maximumDepth`` unless the caller says otherwise.
    package let maximumDepth: Int
    package var index = 0
    /// The decoded UTF-8 of a string with escapes, reused from one such string to the next.
    package var scratch: [UInt8] = []
    /// The keys of the last object read with `recordingKeys`, as pairs of offset (past the opening
    /// quote) and byte count; empty when that object cannot have a shape.
    package var keySpans: [Int] = []
    /// Objects begun so far; see ``parseKey(member:)``.
    package var objectsRead = 0
    /// The keys read lately by position, once ``objectsRead`` reaches ``KeyCache/threshold``.
    package var keyCache: KeyCache?

    package func error(_ reason: String) -> ActionLogError {
        ActionLogError(invalidJSON: reason, offset: index)
    }

    package func unexpected() -> ActionLogError {
        guard index < bytes.count else { return error("unexpected end of text") }
        let byte = bytes[index]
        if byte >= 0x20 && byte < 0x7F {
            return error("unexpected character \"\(Character(Unicode.Scalar(byte)))\"")
        }
        return error("unexpected byte 0x\(String(byte, radix: 16))")
    }

    package mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    /// Moves past `literal` (`null`, `true`, `false`), which `index` is at.
    package mutating func expect(_ literal: StaticString) throws(ActionLogError) {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw error("unexpected end of text") }
        for offset in 0..<count where bytes[index + offset] != literal.utf8Start[offset] {
            index += offset
            throw unexpected()
        }
        index += count
    }

    package mutating func parseValue(depth: Int) throws(ActionLogError) -> JSONValue {
        guard depth < maximumDepth else { throw error("nesting deeper than \(maximumDepth) levels") }
        guard index < bytes.count else { throw error("unexpected end of text") }
        switch bytes[index] {
        case quote: return .string(try parseString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "n"): try expect("null"); return .null
        case UInt8(ascii: "t"): try expect("true"); return .bool(true)
        case UInt8(ascii: "f"): try expect("false"); return .bool(false)
        default: throw unexpected()
        }
    }

    package mutating func parseArray(depth: Int) throws(ActionLogError) -> JSONValue {
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array([])
        }
        // The first three elements wait in locals: an array of up to three is made at its end, of its
        // exact size, and a longer one reserves room for several more before taking them.
        var first = JSONValue.null
        var second = JSONValue.null
        var count = 0
        var elements: [JSONValue] = []
        // The elements of an array are mostly objects with the same keys: once one has shown its
        // keys, the next are read against them (see ``ObjectShape``).
        var shaping = ShapingState.watching
        while true {
            skipWhitespace()
            let element: JSONValue
            if index < bytes.count, bytes[index] == UInt8(ascii: "{"), depth + 1 < maximumDepth {
                element = try parseElementObject(depth: depth + 1, shaping: &shaping)
            } else {
                if case .recorded = shaping { shaping = .watching }
                element = try parseValue(depth: depth + 1)
            }
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of text") }
            let next = bytes[index]
            let isLast = next == UInt8(ascii: "]")
            switch count {
            case 0:
                if isLast { index += 1; return .array([element]) }
                first = consume element
            case 1:
                if isLast { index += 1; return .array([consume first, element]) }
                second = consume element
            case 2:
                if isLast { index += 1; return .array([consume first, consume second, element]) }
                elements.reserveCapacity(Self.arrayCapacity)
                elements.append(consume first)
                elements.append(consume second)
                elements.append(consume element)
                first = .null
                second = .null
            default:
                elements.append(consume element)
                if isLast { index += 1; return .array(elements) }
            }
            count &+= 1
            if next == UInt8(ascii: ",") { index += 1; continue }
            throw unexpected()
        }
    }

    /// The room reserved for an array of more than three elements.
    package static var arrayCapacity: Int { 8 }

    package mutating func parseObject(depth: Int) throws(ActionLogError) -> JSONValue {
        try parseObject(depth: depth, recordingKeys: false)
    }

    /// Reads an object; `index` is at its `{`.
    ///
    /// - Parameter recordingKeys: leave the object's keys in ``keySpans`` when each was read without
    ///   escapes, all are different and there are at most ``ObjectShape/maximumKeys`` of them; empty
    ///   it otherwise.
    package mutating func parseObject(depth: Int, recordingKeys: Bool) throws(ActionLogError) -> JSONValue {
        index += 1
        if recordingKeys { keySpans.removeAll(keepingCapacity: true) }
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object([:])
        }
        var members: [String: JSONValue] = [:]
        var isFirstMember = true
        var memberIndex = 0
        var recording = recordingKeys
        objectsRead &+= 1
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == quote else { throw unexpected() }
            let keyStart = index + 1
            let key = try parseKey(member: memberIndex)
            if recording {
                let length = index - keyStart - 1
                // Escapes always decode to fewer bytes: as many bytes as the text had means none.
                recording = memberIndex < ObjectShape.maximumKeys && key.utf8.count == length
                keySpans.append(keyStart)
                keySpans.append(length)
            }
            memberIndex &+= 1
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw unexpected() }
            index += 1
            skipWhitespace()
            let value: JSONValue
            if recording, index < bytes.count, bytes[index] == UInt8(ascii: "[") || bytes[index] == UInt8(ascii: "{") {
                // An array inside records the keys of its own objects: this object's are put back after.
                let recorded = keySpans
                value = try parseValue(depth: depth + 1)
                keySpans = recorded
            } else {
                value = try parseValue(depth: depth + 1)
            }
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of text") }
            let next = bytes[index]
            if isFirstMember {
                // Size the dictionary once: exactly for a lone member, else room for a few without rehashing.
                if next == UInt8(ascii: "}") {
                    index += 1
                    if !recording { keySpans.removeAll(keepingCapacity: true) }
                    return .object([key: value])
                }
                members = Self.emptyObject
                isFirstMember = false
            }
            // Assignment, not insertion: a repeated key keeps its last value.
            members[key] = value
            if next == UInt8(ascii: ",") { index += 1; continue }
            if next == UInt8(ascii: "}") {
                index += 1
                // A repeated key leaves fewer members than keys: no shape can hold them.
                if recordingKeys, !recording || members.count != memberIndex { keySpans.removeAll(keepingCapacity: true) }
                return .object(members)
            }
            throw unexpected()
        }
    }

    /// The room reserved for an object of more than one member: states and patch operations
    /// mostly have a handful, and anything larger grows as usual.
    package static var objectCapacity: Int { 4 }

    /// An empty object with room for ``objectCapacity`` members, copied for each object of more than
    /// one member. The copy is made by specialized code; `Dictionary(minimumCapacity:)` is not
    /// specialized and looks the storage's generic metadata up every time (3.4% fewer instructions
    /// for a document of a thousand small objects).
    package static let emptyObject = [String: JSONValue](minimumCapacity: objectCapacity)

    /// Advances past ASCII digits; returns how many there were.
    package mutating func skipDigits() -> Int {
        let first = index
        while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 {
            index += 1
        }
        return index - first
    }

    package mutating func parseNumber() throws(ActionLogError) -> JSONValue {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { throw error("unexpected end of text") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if skipDigits() == 0 {
            throw unexpected()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard skipDigits() > 0 else { throw unexpected() }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard skipDigits() > 0 else { throw unexpected() }
        }
        // The literal is all ASCII: one slice, one String.
        return .number(makeString(UnsafeBufferPointer(rebasing: bytes[start..<index])))
    }

    /// Whether any of the eight bytes in `word` is a quote, a backslash or below 0x20. Each test is
    /// the classic "has a zero byte" bit trick, which never misses one.
    @inline(__always) package static func mayEndRun(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ value: UInt64) -> Bool { (value &- ones) & ~value & highs != 0 }
        let quotes = word ^ (ones &* UInt64(quote))
        let backslashes = word ^ (ones &* UInt64(backslash))
        let belowSpace = (word &- ones &* 0x20) & ~word & highs
        return hasZeroByte(quotes) || hasZeroByte(backslashes) || belowSpace != 0
    }

    /// Reads a string; `index` is at its opening quote.
    package mutating func parseString() throws(ActionLogError) -> String {
        index += 1  // opening quote
        let start = index
        let isASCII = scanRun()
        let position = index
        guard position < bytes.count else { throw error("unterminated string") }
        switch bytes[position] {
        case quote:
            // No escapes: the bytes are the string, once they are valid UTF-8 (ASCII always is).
            let run = UnsafeBufferPointer(rebasing: bytes[start..<position])
            guard isASCII || isWellFormedUTF8(run) else {
                throw ActionLogError(invalidJSON: "invalid UTF-8 in a string", offset: start)
            }
            index = position + 1
            return makeString(run)
        case backslash:
            return try parseEscapedString(runStart: start)
        default:
            throw error("unescaped control character in a string")
        }
    }

    /// Reads a string without escapes as its bytes, valid UTF-8; `index` is at its opening quote, and
    /// then past its closing quote. `nil`, with `index` where it was, for any other string:
    /// ``parseString()`` reads it or names what is wrong.
    package mutating func parseUnescapedString() -> UnsafeBufferPointer<UInt8>? {
        let opening = index
        index += 1
        let start = index
        let isASCII = scanRun()
        let end = index
        let run = UnsafeBufferPointer(rebasing: bytes[start..<end])
        guard end < bytes.count, bytes[end] == quote, isASCII || isWellFormedUTF8(run) else {
            index = opening
            return nil
        }
        index = end + 1
        return run
    }

    /// Moves `index` to the end of the run of bytes it is at (a quote, a backslash, a control
    /// character or the end of the text); returns whether all the run's bytes are ASCII. Eight bytes
    /// at a time while none of them ends the run; a byte loop then finds which one does.
    @inline(__always) package mutating func scanRun() -> Bool {
        let end = bytes.count
        var position = index
        var highBits: UInt8 = 0
        if let base = bytes.baseAddress {
            var wideHighBits: UInt64 = 0
            while position + 8 <= end {
                let word = UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)
                guard !Self.mayEndRun(word) else { break }
                wideHighBits |= word
                position += 8
            }
            if wideHighBits & 0x8080_8080_8080_8080 != 0 { highBits = 0x80 }
        }
        while position < end {
            let byte = bytes[position]
            if byte == quote || byte == backslash || byte < 0x20 { break }
            highBits |= byte
            position += 1
        }
        index = position
        return highBits < 0x80
    }

    /// The rest of a string whose first backslash is at `index`; the text before it starts at `runStart`.
    package mutating func parseEscapedString(runStart start: Int) throws(ActionLogError) -> String {
        scratch.removeAll(keepingCapacity: true)
        var runStart = start
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case quote:
                try appendRun(from: runStart)
                index += 1
                // Every run was validated and every escape encoded as UTF-8: decoding repairs nothing.
                return String(decoding: scratch, as: UTF8.self)
            case backslash:
                try appendRun(from: runStart)
                index += 1
                guard index < bytes.count else { throw error("unexpected end of text") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case quote: scratch.append(quote)
                case backslash: scratch.append(backslash)
                case UInt8(ascii: "/"): scratch.append(UInt8(ascii: "/"))
                case UInt8(ascii: "b"): scratch.append(0x08)
                case UInt8(ascii: "f"): scratch.append(0x0C)
                case UInt8(ascii: "n"): scratch.append(0x0A)
                case UInt8(ascii: "r"): scratch.append(0x0D)
                case UInt8(ascii: "t"): scratch.append(0x09)
                case UInt8(ascii: "u"):
                    let scalar = try parseUnicodeEscape()
                    UTF8.encode(scalar) { scratch.append($0) }
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

    /// Appends the unescaped bytes from `start` up to `index`, refusing invalid UTF-8 at `start`.
    package mutating func appendRun(from start: Int) throws(ActionLogError) {
        guard index > start else { return }
        let run = UnsafeBufferPointer(rebasing: bytes[start..<index])
        guard isWellFormedUTF8(run) else {
            throw ActionLogError(invalidJSON: "invalid UTF-8 in a string", offset: start)
        }
        scratch.append(contentsOf: run)
    }

    /// Reads the hex digits of a `\u` escape (`index` just past the `u`), and a second escape when the
    /// first is a high surrogate.
    package mutating func parseUnicodeEscape() throws(ActionLogError) -> Unicode.Scalar {
        let unit = try parseHex4()
        if (0xD800..<0xDC00).contains(unit) {
            // A high surrogate must be followed by an escaped low surrogate.
            guard index + 1 < bytes.count, bytes[index] == backslash, bytes[index + 1] == UInt8(ascii: "u") else {
                throw error("unpaired surrogate \\u\(String(unit, radix: 16))")
            }
            index += 2
            let low = try parseHex4()
            guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate \\u\(String(unit, radix: 16))") }
            let value = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            return Unicode.Scalar(value)!
        }
        guard let scalar = Unicode.Scalar(UInt32(unit)) else {
            throw error("unpaired surrogate \\u\(String(unit, radix: 16))")
        }
        return scalar
    }

    package mutating func parseHex4() throws(ActionLogError) -> UInt16 {
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
