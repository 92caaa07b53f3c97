/// A label pattern, as `replay-cli log --label` and the viewer's filter read it: `*` stands for any
/// run of characters, `?` for one character, anything else for itself (compared by Unicode scalar,
/// case-sensitive).
///
/// A pattern has at most ``maximumLength`` Unicode scalars. Matching costs time proportional to the
/// label's length (times one machine word per 64 scalars of the longest run between two `*`),
/// without recursion or backtracking: the pattern is cut at each `*` into segments of literal
/// scalars and `?`; the first segment must match at the label's start, the last at its end, and each
/// one between is found at its leftmost place after the one before (a bit-parallel Shift-And scan),
/// which is exact for such patterns.
///
/// ```swift
/// try LabelPattern("add*").matches("addToCart")   // true
/// ```
package struct LabelPattern: Sendable {
    /// The most Unicode scalars a pattern may have: 1000.
    package static let maximumLength = 1000

    /// A pattern longer than ``LabelPattern/maximumLength``.
    package struct TooLong: Error, Sendable, Equatable, CustomStringConvertible {
        /// The pattern's length, in Unicode scalars.
        package let length: Int

        /// The sentence the viewer (status 400) and `replay-cli log --label` (a usage error) answer.
        package var description: String {
            "The label pattern must be at most \(LabelPattern.maximumLength) characters (Unicode scalars) long, not \(length)."
        }
    }

    /// The segment before the first `*`, matched at the label's start; the whole pattern when it
    /// has no `*`.
    private let head: Segment
    /// Whether the pattern has no `*`: the label must be ``head``.
    private let isExact: Bool
    /// With a `*`: the segment after the last `*`, matched at the label's end.
    private let tail: Segment
    /// With a `*`: the non-empty segments between two `*`, found in order, each leftmost.
    private let middle: [Segment]

    /// A pattern matched against the whole label.
    ///
    /// - Parameter pattern: the pattern's text.
    /// - Throws: ``TooLong`` when it has more than ``maximumLength`` Unicode scalars.
    package init(_ pattern: String) throws(TooLong) {
        let scalars = Array(pattern.unicodeScalars)
        guard scalars.count <= Self.maximumLength else { throw TooLong(length: scalars.count) }
        self.init(checked: scalars)
    }

    /// The viewer's filter: a pattern without `*` or `?` matches labels that contain it, a pattern
    /// with one matches whole labels, as ``init(_:)``.
    ///
    /// - Parameter filter: what the user typed.
    /// - Throws: ``TooLong`` when it has more than ``maximumLength`` Unicode scalars.
    package init(filter: String) throws(TooLong) {
        let scalars = Array(filter.unicodeScalars)
        guard scalars.count <= Self.maximumLength else { throw TooLong(length: scalars.count) }
        if scalars.contains(where: { $0 == "*" || $0 == "?" }) {
            self.init(checked: scalars)
        } else {
            self.init(checked: ["*"] + scalars + ["*"])
        }
    }

    private init(checked pattern: [Unicode.Scalar]) {
        let parts = pattern.split(separator: "*", omittingEmptySubsequences: false).map { Segment(Array($0)) }
        // Split on a separator that occurs gives at least two parts; with none, the head is all.
        isExact = parts.count == 1
        head = parts[0]
        tail = parts[parts.count - 1]
        middle = parts.dropFirst().dropLast().filter { !$0.scalars.isEmpty }
    }

    /// Whether `label` matches the pattern.
    package func matches(_ label: String) -> Bool {
        let text = label.unicodeScalars
        // The head at the start: of the whole label, for a pattern without `*`.
        var low = text.startIndex
        for wanted in head.scalars {
            guard low < text.endIndex, Segment.accepts(wanted, text[low]) else { return false }
            text.formIndex(after: &low)
        }
        if isExact { return low == text.endIndex }
        // The tail at the end, after the head (they may not overlap).
        var high = text.endIndex
        for wanted in tail.scalars.reversed() {
            guard high > low else { return false }
            text.formIndex(before: &high)
            guard Segment.accepts(wanted, text[high]) else { return false }
        }
        // Each middle segment at its leftmost place after the one before: the earliest end leaves
        // the most room for the rest, so no other place can succeed where this one fails.
        for segment in middle {
            guard let end = segment.firstMatchEnd(in: text, from: low, to: high) else { return false }
            low = end
        }
        return true
    }
}

/// A run of a pattern between two `*`: literal scalars and `?`, with its Shift-And tables.
private struct Segment: Sendable {
    let scalars: [Unicode.Scalar]
    /// Machine words per state: one per 64 scalars.
    private let words: Int
    /// Row of ``masks`` for each ASCII scalar (row 0: a scalar the segment does not name).
    private let asciiRows: [UInt16]
    /// Row of ``masks`` for the other scalars the segment names.
    private let otherRows: [UInt32: Int]
    /// For each row, `words` words: bit `i` is set when the segment's scalar `i` accepts the row's scalar.
    private let masks: [UInt64]

    init(_ scalars: [Unicode.Scalar]) {
        self.scalars = scalars
        // At most LabelPattern.maximumLength + 2 scalars: no overflow.
        let words = max(1, (scalars.count + 63) / 64)
        self.words = words
        var any = [UInt64](repeating: 0, count: words)
        for (position, scalar) in scalars.enumerated() where scalar == "?" {
            any[position / 64] |= 1 << UInt64(position % 64)
        }
        var masks = any
        var asciiRows = [UInt16](repeating: 0, count: 128)
        var otherRows: [UInt32: Int] = [:]
        for (position, scalar) in scalars.enumerated() where scalar != "?" {
            let row: Int
            if scalar.value < 128, asciiRows[Int(scalar.value)] != 0 {
                row = Int(asciiRows[Int(scalar.value)])
            } else if scalar.value >= 128, let known = otherRows[scalar.value] {
                row = known
            } else {
                row = masks.count / words
                masks += any
                // At most one row per scalar of the segment, fewer than UInt16.max.
                if scalar.value < 128 { asciiRows[Int(scalar.value)] = UInt16(row) } else { otherRows[scalar.value] = row }
            }
            masks[row * words + position / 64] |= 1 << UInt64(position % 64)
        }
        self.asciiRows = asciiRows
        self.otherRows = otherRows
        self.masks = masks
    }

    /// Whether the pattern scalar `wanted` accepts the label scalar `scalar`.
    static func accepts(_ wanted: Unicode.Scalar, _ scalar: Unicode.Scalar) -> Bool {
        wanted == "?" || wanted == scalar
    }

    /// The index after the leftmost occurrence of the segment in `text[from..<to]`, if any.
    ///
    /// Shift-And: after each scalar of the text, bit `i` of the state says that the segment's first
    /// `i + 1` scalars end there. One pass, `words` words per scalar.
    func firstMatchEnd(in text: String.UnicodeScalarView, from: String.Index, to: String.Index) -> String.Index? {
        let last = scalars.count - 1
        let lastWord = last / 64
        let lastBit: UInt64 = 1 << UInt64(last % 64)
        var state = [UInt64](repeating: 0, count: words)
        return state.withUnsafeMutableBufferPointer { state in
            masks.withUnsafeBufferPointer { masks in
                asciiRows.withUnsafeBufferPointer { asciiRows in
                    var index = from
                    while index < to {
                        let value = text[index].value
                        let row = value < 128 ? Int(asciiRows[Int(value)]) : otherRows[value] ?? 0
                        let base = row * words
                        // A match may start at this scalar: the carry into bit 0.
                        var carry: UInt64 = 1
                        for word in 0..<words {
                            let current = state[word]
                            state[word] = ((current << 1) | carry) & masks[base + word]
                            carry = current >> 63
                        }
                        text.formIndex(after: &index)
                        if state[lastWord] & lastBit != 0 { return index }
                    }
                    return nil
                }
            }
        }
    }
}
