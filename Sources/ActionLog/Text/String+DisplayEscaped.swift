// MARK: - Text from a file, made safe to print

/// Characters that can rewrite a terminal or break a line of output when printed raw: the C0
/// controls (ESC, BEL, CR, LF, TAB…), DEL, the C1 controls (U+0080–U+009F), the bidirectional
/// controls (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069) and the line and paragraph
/// separators (U+2028, U+2029). One list for every reader of journals, so the CLI, the library's
/// error messages and the replay reports escape the same characters the same way.
package enum DisplayEscaping {
    /// Whether `scalar` must not reach a terminal raw.
    @inline(__always)
    package static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// Whether a UTF-8 byte may begin a character that needs escaping (or is a backslash): the quick
    /// test that lets text without any pass through untouched. `0xC2` leads U+0080–U+00BF, `0xD8`
    /// U+0600–U+063F and `0xE2` U+2000–U+2FFF; a false alarm costs only the slow path.
    @inline(__always)
    static func mayNeedEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F || byte == 0x5C || byte == 0xC2 || byte == 0xD8 || byte == 0xE2
    }

    /// Whether any byte of `text` may need escaping.
    static func mayNeedEscape(_ text: String) -> Bool {
        if let found = text.utf8.withContiguousStorageIfAvailable({ $0.contains(where: mayNeedEscape) }) { return found }
        return text.utf8.contains(where: mayNeedEscape)
    }

    /// `\u{1B}`: the Swift string-literal form, upper-case hex, no padding.
    static func append(_ scalar: Unicode.Scalar, to result: inout String) {
        result += "\\u{"
        result += String(scalar.value, radix: 16, uppercase: true)
        result += "}"
    }
}

extension String {
    /// This text with every character that could rewrite a terminal or break a line written as
    /// `\u{…}`, the way Swift writes it in a string literal: ESC becomes `\u{1B}`, a newline
    /// `\u{A}`, RIGHT-TO-LEFT OVERRIDE `\u{202E}` (see ``DisplayEscaping`` for the list).
    ///
    /// So that the escaped text reads back one way, a backslash that would begin `\u{` is itself
    /// written `\u{5C}`; every other backslash, and every other character, is left as it is. To read
    /// the text back: each `\u{HEX}` is that character, anything else is itself.
    ///
    /// ```swift
    /// "\u{1B}]0;pwned\u{07}".displayEscaped   // \u{1B}]0;pwned\u{7}
    /// #"a\u{1B}"#.displayEscaped               // a\u{5C}u{1B}
    /// ```
    ///
    /// Escape text once, where it is printed or where a message is finished: escaping twice shows
    /// the escapes escaped.
    package var displayEscaped: String {
        guard DisplayEscaping.mayNeedEscape(self) else { return self }
        var result = ""
        result.reserveCapacity(utf8.count + 16)
        let scalars = unicodeScalars
        var index = scalars.startIndex
        while index != scalars.endIndex {
            let scalar = scalars[index]
            let next = scalars.index(after: index)
            if DisplayEscaping.isUnsafe(scalar) {
                DisplayEscaping.append(scalar, to: &result)
            } else if scalar == "\\", next != scalars.endIndex, scalars[next] == "u",
                scalars.index(after: next) != scalars.endIndex, scalars[scalars.index(after: next)] == "{"
            {
                DisplayEscaping.append(scalar, to: &result)
            } else {
                result.unicodeScalars.append(scalar)
            }
            index = next
        }
        return result
    }

    /// JSON text made safe to print without changing the value it holds: DEL, the C1 controls and
    /// the bidirectional controls and separators (``DisplayEscaping``), which JSON allows raw inside
    /// strings, are written as JSON escapes (`\u202e`). Valid JSON holds them only inside strings,
    /// and holds the C0 controls there only escaped, so the result parses to the same value; the
    /// line breaks and indentation of pretty-printed JSON stay.
    ///
    /// ```swift
    /// #"{"name":"\#u{202E}abc"}"#.jsonDisplayEscaped   // {"name":"\u202eabc"}
    /// ```
    package var jsonDisplayEscaped: String {
        guard DisplayEscaping.mayNeedEscape(self) else { return self }
        let bytes = Array(utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 16)
        var start = 0
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            // The characters to escape are one byte (DEL), two (C1, U+061C) or three (U+2xxx) long.
            var scalar: UInt32?
            var length = 1
            if lead == 0x7F {
                scalar = 0x7F
            } else if lead == 0xC2 || lead == 0xD8, index + 1 < bytes.count {
                scalar = UInt32(lead & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F)
                length = 2
            } else if lead == 0xE2, index + 2 < bytes.count {
                scalar = 0x2000 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F)
                length = 3
            }
            guard let value = scalar, let unicode = Unicode.Scalar(value), DisplayEscaping.isUnsafe(unicode) else {
                index += 1
                continue
            }
            output.append(contentsOf: bytes[start..<index])
            let hex = String(value, radix: 16)
            output.append(contentsOf: "\\u".utf8)
            output.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: max(0, 4 - hex.count)))
            output.append(contentsOf: hex.utf8)
            index += length
            start = index
        }
        guard start > 0 else { return self }
        output.append(contentsOf: bytes[start...])
        return String(decoding: output, as: UTF8.self)
    }
}
