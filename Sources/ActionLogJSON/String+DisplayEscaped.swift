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

    /// `text` with every character to escape written as `\u{1B}` (or, with `json`, as the JSON escape
    /// `\u001b`, leaving the C0 controls and backslashes to JSON), or `text` itself when it has none.
    ///
    /// One pass over the UTF-8 bytes, copying runs that need nothing: the characters to escape are
    /// one byte long (C0, DEL), two (C1 after `0xC2`, U+061C after `0xD8`) or three (U+2xxx after
    /// `0xE2`); a continuation byte (`0x80`–`0xBF`) never starts one, so no character is split.
    static func escape(_ text: String, json: Bool) -> String {
        func run(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
            var output: [UInt8] = []
            var start = 0
            // Most text has nothing to escape: go from one byte that may start something to the
            // next, eight bytes at a time.
            var next = firstCandidate(in: bytes, from: 0, json: json)
            while let index = next {
                let lead = bytes[index]
                var value: UInt32?
                var length = 1
                switch lead {
                case 0x00...0x1F:
                    // JSON text holds C0 controls only as its own whitespace, outside strings.
                    if !json { value = UInt32(lead) }
                case 0x7F:
                    value = 0x7F
                case 0x5C:
                    // A backslash that would begin `\u{` (display form only: JSON has its own escapes).
                    if !json, index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "u"), bytes[index + 2] == UInt8(ascii: "{") {
                        value = 0x5C
                    }
                case 0xC2, 0xD8:
                    if index + 1 < bytes.count {
                        value = UInt32(lead & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F)
                        length = 2
                    }
                case 0xE2:
                    if index + 2 < bytes.count {
                        value = 0x2000 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F)
                        length = 3
                    }
                default:
                    break
                }
                guard let found = value, found == 0x5C || Unicode.Scalar(found).map(isUnsafe) == true else {
                    next = firstCandidate(in: bytes, from: index + 1, json: json)
                    continue
                }
                if output.isEmpty { output.reserveCapacity(bytes.count + 16) }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                let hex = String(found, radix: 16, uppercase: !json)
                if json {
                    output.append(contentsOf: "\\u".utf8)
                    output.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: max(0, 4 - hex.count)))
                    output.append(contentsOf: hex.utf8)
                } else {
                    output.append(contentsOf: "\\u{".utf8)
                    output.append(contentsOf: hex.utf8)
                    output.append(UInt8(ascii: "}"))
                }
                start = index + length
                next = firstCandidate(in: bytes, from: start, json: json)
            }
            guard start > 0 else { return nil }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
            return String(decoding: output, as: UTF8.self)
        }
        if let escaped = text.utf8.withContiguousStorageIfAvailable(run) { return escaped ?? text }
        return Array(text.utf8).withUnsafeBufferPointer(run) ?? text
    }

    /// The index of the first byte from `start` that may begin a character to escape: a byte ≥ `0x7F` and, for
    /// the display form, a C0 control or a backslash; `nil` when there is none. Eight bytes are
    /// tested at once with the bit tricks of "Bit Twiddling Hacks" (a byte less than `n`, a byte equal
    /// to `n`), which are exact about whether a word holds such a byte; the word that does is then
    /// read byte by byte.
    static func firstCandidate(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, json: Bool) -> Int? {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func hasZero(_ word: UInt64) -> Bool { (word &- ones) & ~word & highs != 0 }
        @inline(__always) func mayHold(_ word: UInt64) -> Bool {
            if word & highs != 0 || hasZero(word ^ (ones &* 0x7F)) { return true }
            if json { return false }
            return (word &- ones &* 0x20) & ~word & highs != 0 || hasZero(word ^ (ones &* 0x5C))
        }
        @inline(__always) func isCandidate(_ byte: UInt8) -> Bool {
            byte >= 0x7F || (!json && (byte < 0x20 || byte == 0x5C))
        }
        guard let base = bytes.baseAddress else { return nil }
        var index = start
        while index + 8 <= bytes.count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            if mayHold(word) { break }
            index += 8
        }
        while index < bytes.count {
            if isCandidate(bytes[index]) { return index }
            index += 1
        }
        return nil
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
        DisplayEscaping.escape(self, json: false)
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
        DisplayEscaping.escape(self, json: true)
    }
}
