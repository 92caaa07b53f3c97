extension JSONValue {
    /// The canonical JSON text: no whitespace, object keys sorted by Unicode code point
    /// (which is the byte order of their UTF-8), strings escaped minimally. Equal values give equal text.
    public var canonicalText: String {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        writeCanonical(to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// The canonical JSON as UTF-8 bytes. See ``canonicalText``.
    public var canonicalBytes: [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        writeCanonical(to: &output)
        return output
    }

    /// Pretty JSON for people: two-space indentation, keys in canonical order.
    public var prettyText: String {
        var output: [UInt8] = []
        writePretty(to: &output, indent: 0)
        return String(decoding: output, as: UTF8.self)
    }

    func writeCanonical(to output: inout [UInt8]) {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let text): output.append(contentsOf: text.utf8)
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
            for (index, key) in Self.sortedKeys(members).enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                Self.writeString(key, to: &output)
                output.append(UInt8(ascii: ":"))
                members[key]!.writeCanonical(to: &output)
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
    static func sortedKeys(_ members: [String: JSONValue]) -> [String] {
        members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    static func writeString(_ string: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): output.append(contentsOf: #"\\"#.utf8)
            case 0x0A: output.append(contentsOf: #"\n"#.utf8)
            case 0x0D: output.append(contentsOf: #"\r"#.utf8)
            case 0x09: output.append(contentsOf: #"\t"#.utf8)
            case 0x08: output.append(contentsOf: #"\b"#.utf8)
            case 0x0C: output.append(contentsOf: #"\f"#.utf8)
            case 0x00..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                output.append(contentsOf: #"\u00"#.utf8)
                output.append(hex[Int(byte >> 4)])
                output.append(hex[Int(byte & 0x0F)])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}

extension JSONValue: CustomStringConvertible {
    public var description: String { canonicalText }
}
