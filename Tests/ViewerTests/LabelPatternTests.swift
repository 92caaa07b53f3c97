import ActionLogViewer
import Testing

@Suite("LabelPattern: * and ? by Unicode scalar, in time linear in the label")
struct LabelPatternTests {
    /// The reference: whether `pattern` matches all of `label`, by Unicode scalar, from the
    /// definition (a table of which pattern prefixes match which label prefixes).
    private static func reference(_ pattern: [Unicode.Scalar], _ label: [Unicode.Scalar]) -> Bool {
        // row[t]: the pattern's first p scalars match the label's first t.
        var row = [Bool](repeating: false, count: label.count + 1)
        row[0] = true
        for p in pattern {
            var next = [Bool](repeating: false, count: label.count + 1)
            for t in 0...label.count {
                if p == "*" {
                    next[t] = row[t] || (t > 0 && next[t - 1])
                } else if t > 0 {
                    next[t] = row[t - 1] && (p == "?" || p == label[t - 1])
                }
            }
            row = next
        }
        return row[label.count]
    }

    /// The viewer's filter, from its definition: without `*` or `?`, the label contains it.
    private static func referenceFilter(_ filter: [Unicode.Scalar], _ label: [Unicode.Scalar]) -> Bool {
        if filter.contains(where: { $0 == "*" || $0 == "?" }) { return reference(filter, label) }
        return reference(["*"] + filter + ["*"], label)
    }

    /// SplitMix64: the same cases on every run.
    private struct Seeded {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    }

    /// Labels: two letters, `*` and `?` as text, `é` (one scalar), `e` + U+0301 (two scalars, one
    /// Character) and an emoji (four UTF-8 bytes).
    private static let labelAlphabet: [String] = ["a", "a", "b", "*", "?", "é", "e\u{301}", "\u{301}", "😀"]
    private static let patternAlphabet: [String] = ["a", "a", "b", "*", "*", "?", "é", "e", "\u{301}", "😀"]

    private static func text(_ random: inout Seeded, from alphabet: [String], count: Int) -> String {
        (0..<count).map { _ in alphabet[random.below(alphabet.count)] }.joined()
    }

    @Test("random labels and patterns: the matcher agrees with the reference, for patterns and filters")
    func agreesWithReference() throws {
        var random = Seeded(state: 0xAC71_0A06)
        var matched = 0
        for _ in 0..<20_000 {
            let label = Self.text(&random, from: Self.labelAlphabet, count: random.below(14))
            let pattern = Self.text(&random, from: Self.patternAlphabet, count: random.below(8))
            let scalars = (pattern: Array(pattern.unicodeScalars), label: Array(label.unicodeScalars))
            let expected = Self.reference(scalars.pattern, scalars.label)
            if expected { matched += 1 }
            #expect(try LabelPattern(pattern).matches(label) == expected, "\(pattern.debugDescription) ~ \(label.debugDescription)")
            #expect(
                try LabelPattern(filter: pattern).matches(label) == Self.referenceFilter(scalars.pattern, scalars.label),
                "filter \(pattern.debugDescription) ~ \(label.debugDescription)")
        }
        // The cases are not all misses.
        #expect(matched > 1000)
    }

    @Test("random segments longer than a machine word (64 scalars): several words per state")
    func longSegments() throws {
        var random = Seeded(state: 0x5EED)
        for _ in 0..<300 {
            let label = Array(Self.text(&random, from: ["a", "b", "😀"], count: 100 + random.below(300)).unicodeScalars)
            // Pieces of the label, some with a scalar changed or made `?`, joined by `*`.
            var pattern: [Unicode.Scalar] = random.below(2) == 0 ? ["*"] : []
            for piece in 0..<(1 + random.below(3)) {
                if piece > 0 { pattern.append("*") }
                let length = 1 + random.below(140)
                let start = random.below(max(1, label.count - length))
                var segment = Array(label[start..<min(label.count, start + length)])
                for _ in 0..<random.below(3) where !segment.isEmpty {
                    segment[random.below(segment.count)] = random.below(2) == 0 ? "?" : "b"
                }
                pattern += segment
            }
            if random.below(2) == 0 { pattern.append("*") }
            var text = ""
            text.unicodeScalars.append(contentsOf: pattern)
            var labelText = ""
            labelText.unicodeScalars.append(contentsOf: label)
            #expect(try LabelPattern(text).matches(labelText) == Self.reference(pattern, label), "\(text) ~ \(labelText)")
        }
    }

    @Test("a label of 1,000,000 scalars against the longest pattern: the right answer, in one pass")
    func longLabel() throws {
        let label = String(repeating: "a", count: 1_000_000)
        // With the `*` and the last scalars, 999 or 1000 scalars.
        let run = String(repeating: "a", count: 997)
        #expect(try !LabelPattern("*a" + run + "b").matches(label))
        #expect(try !LabelPattern("*" + run + "b*").matches(label))
        #expect(try !LabelPattern(filter: run + "b").matches(label))
        #expect(try LabelPattern("*" + run + "a").matches(label))
        #expect(try LabelPattern("*" + run + "a*").matches(label))
        #expect(try LabelPattern("*" + run + "?b").matches(label + "b"))
        #expect(try LabelPattern("*" + run + "b*").matches(label + "b" + label))
        #expect(try LabelPattern(filter: run + "b").matches(label + "b"))
    }

    @Test("a pattern has at most 1000 Unicode scalars; a longer one is refused with its length")
    func lengthLimit() throws {
        #expect(LabelPattern.maximumLength == 1000)
        _ = try LabelPattern(String(repeating: "é", count: 1000))
        _ = try LabelPattern(filter: String(repeating: "a", count: 1000))
        let scalars = #expect(throws: LabelPattern.TooLong.self) { try LabelPattern(String(repeating: "é", count: 1001)) }
        #expect(scalars?.length == 1001)
        #expect(scalars?.description == "The label pattern must be at most 1000 characters (Unicode scalars) long, not 1001.")
        // Counted in Unicode scalars: 600 Characters of two scalars each.
        let combined = #expect(throws: LabelPattern.TooLong.self) { try LabelPattern(filter: String(repeating: "e\u{301}", count: 600)) }
        #expect(combined?.description == "The label pattern must be at most 1000 characters (Unicode scalars) long, not 1200.")
    }
}
