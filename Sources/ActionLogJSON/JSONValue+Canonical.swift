import Foundation

extension JSONValue {
    /// The canonical JSON text: no whitespace, object keys sorted by Unicode code point
    /// (which is the byte order of their UTF-8), strings escaped minimally. Equal values give equal text.
    public var canonicalText: String {
        String(decoding: canonicalBytes, as: UTF8.self)
    }

    /// The canonical JSON as UTF-8 bytes. See ``canonicalText``.
    public var canonicalBytes: [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        writeCanonical(to: &output)
        return output
    }

    /// Pretty JSON for people: two-space indentation, keys in canonical order.
    public var prettyText: String { prettyText(nestedAt: 0) }

    /// ``prettyText`` as written `level` levels deep in a pretty document: its lines after the first
    /// indented by two spaces a level. A stream that writes `[`, then each element on a line of its
    /// own after two spaces and this text, then `]`, writes what the array's ``prettyText`` is.
    ///
    /// - Parameter level: the depth at which the value stands.
    package func prettyText(nestedAt level: Int) -> String {
        var output: [UInt8] = []
        writePretty(to: &output, indent: Swift.max(0, level))
        return String(decoding: output, as: UTF8.self)
    }

    package func writeCanonical(to output: inout [UInt8]) {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let text): Self.appendUTF8(text, to: &output)
        case .string(let string): Self.writeString(string, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                element.writeCanonical(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            if members.count == 1, let member = members.first {
                Self.writeString(member.key, to: &output)
                output.append(UInt8(ascii: ":"))
                member.value.writeCanonical(to: &output)
            } else {
                // Sorted as pairs, so that no value is looked up again by its key.
                for (index, member) in members.sorted(by: { Self.precedes($0.key, $1.key) }).enumerated() {
                    if index > 0 { output.append(UInt8(ascii: ",")) }
                    Self.writeString(member.key, to: &output)
                    output.append(UInt8(ascii: ":"))
                    member.value.writeCanonical(to: &output)
                }
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    private func writePretty(to output: inout [UInt8], indent: Int) {
        func newline(_ level: Int) {
            output.append(UInt8(ascii: "\n"))
            output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: level * 2))
        }
        switch self {
        case .array(let elements) where !elements.isEmpty:
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                element.writePretty(to: &output, indent: indent + 1)
            }
            newline(indent)
            output.append(UInt8(ascii: "]"))
        case .object(let members) where !members.isEmpty:
            output.append(UInt8(ascii: "{"))
            for (index, key) in Self.sortedKeys(members).enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                Self.writeString(key, to: &output)
                output.append(contentsOf: ": ".utf8)
                members[key]!.writePretty(to: &output, indent: indent + 1)
            }
            newline(indent)
            output.append(UInt8(ascii: "}"))
        default:
            writeCanonical(to: &output)
        }
    }

    /// Keys in code-point order. UTF-8 preserves code-point order byte by byte, so comparing
    /// the UTF-8 views gives the same order on every platform (unlike `String.<` or `.sortedKeys`).
    package static func sortedKeys(_ members: [String: JSONValue]) -> [String] {
        members.keys.sorted(by: precedes)
    }

    /// Whether `left` comes before `right` in code-point order: their UTF-8 bytes compared.
    package static func precedes(_ left: String, _ right: String) -> Bool {
        let ordered = left.utf8.withContiguousStorageIfAvailable { left in
            right.utf8.withContiguousStorageIfAvailable { right in
                let common = min(left.count, right.count)
                let order = common == 0 ? 0 : memcmp(left.baseAddress!, right.baseAddress!, common)
                return order < 0 || (order == 0 && left.count < right.count)
            }
        }
        return (ordered ?? nil) ?? left.utf8.lexicographicallyPrecedes(right.utf8)
    }

    @inline(__always)
    package static func appendUTF8(_ text: String, to output: inout [UInt8]) {
        if text.utf8.withContiguousStorageIfAvailable({ output.append(contentsOf: $0) }) == nil {
            output.append(contentsOf: text.utf8)
        }
    }

    /// Appends `string` as a JSON string: in quotes, with quotation marks, backslashes and control
    /// characters escaped (the short escapes where JSON has one, `\u00XX` otherwise) and everything
    /// else as it is.
    package static func writeString(_ string: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        let done: Void? = string.utf8.withContiguousStorageIfAvailable { bytes in
            // Runs of bytes that need no escape are copied at once.
            var start = 0
            for index in bytes.indices where needsEscape(bytes[index]) {
                if start < index { output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index])) }
                writeEscape(bytes[index], to: &output)
                start = index + 1
            }
            if start < bytes.count { output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...])) }
        }
        if done == nil {
            for byte in string.utf8 {
                if needsEscape(byte) { writeEscape(byte, to: &output) } else { output.append(byte) }
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    @inline(__always)
    package static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    package static func writeEscape(_ byte: UInt8, to output: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): output.append(contentsOf: #"\""#.utf8)
        case UInt8(ascii: "\\"): output.append(contentsOf: #"\\"#.utf8)
        case 0x0A: output.append(contentsOf: #"\n"#.utf8)
        case 0x0D: output.append(contentsOf: #"\r"#.utf8)
        case 0x09: output.append(contentsOf: #"\t"#.utf8)
        case 0x08: output.append(contentsOf: #"\b"#.utf8)
        case 0x0C: output.append(contentsOf: #"\f"#.utf8)
        default:
            let hex: StaticString = "0123456789abcdef"
            output.append(contentsOf: #"\u00"#.utf8)
            output.append(hex.utf8Start[Int(byte >> 4)])
            output.append(hex.utf8Start[Int(byte & 0x0F)])
        }
    }
}

// MARK: - Patches

extension JSONPatch {
    /// The canonical text of ``jsonValue``, written straight from the operations without building
    /// their JSON objects; ``description`` gives it.
    package var canonicalText: String { String(decoding: canonicalBytes, as: UTF8.self) }

    /// ``canonicalText`` as UTF-8 bytes.
    package var canonicalBytes: [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(64 * operations.count + 2)
        writeCanonical(to: &output)
        return output
    }

    /// Appends ``canonicalText``.
    package func writeCanonical(to output: inout [UInt8]) {
        output.append(UInt8(ascii: "["))
        for (index, operation) in operations.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            operation.writeCanonical(to: &output)
        }
        output.append(UInt8(ascii: "]"))
    }
}

extension JSONPatch.Operation {
    /// Appends the canonical text of ``jsonValue``: its members in code-point order, `from`, `op`,
    /// `path`, `value`.
    package func writeCanonical(to output: inout [UInt8]) {
        output.append(UInt8(ascii: "{"))
        if let from {
            output.append(contentsOf: #""from":"#.utf8)
            from.writeCanonical(to: &output)
            output.append(UInt8(ascii: ","))
        }
        output.append(contentsOf: #""op":""#.utf8)
        output.append(contentsOf: name.utf8)
        output.append(contentsOf: #"","path":"#.utf8)
        path.writeCanonical(to: &output)
        switch self {
        case .add(_, let value), .replace(_, let value), .test(_, let value):
            output.append(contentsOf: #","value":"#.utf8)
            value.writeCanonical(to: &output)
        case .remove, .move, .copy:
            break
        }
        output.append(UInt8(ascii: "}"))
    }
}

extension JSONPointer {
    /// Appends the pointer's text (``description``) as a JSON string, without making the text first.
    package func writeCanonical(to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for token in tokens {
            output.append(UInt8(ascii: "/"))
            let done: Void? = token.utf8.withContiguousStorageIfAvailable { bytes in
                // Runs of bytes that need neither `~` escaping nor JSON escaping are copied at once.
                var start = 0
                for index in bytes.indices where Self.isSpecial(bytes[index]) {
                    if start < index { output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index])) }
                    Self.writeSpecial(bytes[index], to: &output)
                    start = index + 1
                }
                if start < bytes.count { output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...])) }
            }
            if done == nil {
                for byte in token.utf8 {
                    if Self.isSpecial(byte) { Self.writeSpecial(byte, to: &output) } else { output.append(byte) }
                }
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    @inline(__always)
    private static func isSpecial(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "~") || byte == UInt8(ascii: "/") || JSONValue.needsEscape(byte)
    }

    private static func writeSpecial(_ byte: UInt8, to output: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "~"): output.append(contentsOf: "~0".utf8)
        case UInt8(ascii: "/"): output.append(contentsOf: "~1".utf8)
        default: JSONValue.writeEscape(byte, to: &output)
        }
    }
}

extension JSONValue: CustomStringConvertible {
    public var description: String { canonicalText }
}
