/// How many terminal columns text takes: two for the wide and fullwidth characters of East Asian
/// scripts and for emoji shown as pictures, one for the rest (a combining mark belongs to the
/// character before it). What lines up tables and cuts lines to the terminal's width, where a count
/// of characters would let a row of CJK text wrap.
enum DisplayWidth {
    /// The columns of `character`.
    static func columns(_ character: Character) -> Int {
        guard let scalar = character.unicodeScalars.first else { return 0 }
        return isWide(scalar) || (character.unicodeScalars.count == 1 && scalar.properties.isEmojiPresentation) ? 2 : 1
    }

    /// The columns of `text`.
    static func columns(_ text: some StringProtocol) -> Int {
        var total = 0
        for character in text { total += columns(character) }
        return total
    }

    /// `text` followed by spaces up to `width` columns.
    static func padded(_ text: String, to width: Int) -> String {
        let shown = columns(text)
        return shown >= width ? text : text + String(repeating: " ", count: width - shown)
    }

    /// The blocks of wide and fullwidth characters (Unicode's East Asian Width W and F), as terminals
    /// draw them: Hangul Jamo, CJK punctuation to Yi, Hangul syllables, compatibility ideographs,
    /// vertical and small forms, fullwidth forms, and the supplementary ideographic planes.
    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
             0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
             0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            true
        default:
            false
        }
    }
}
