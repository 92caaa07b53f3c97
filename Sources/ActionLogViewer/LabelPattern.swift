/// A label pattern, as `replay-cli log --label` and the viewer's filter read it: `*` stands for any
/// run of characters, `?` for one character, anything else for itself (compared by Unicode scalar,
/// case-sensitive). Matched without recursion, in time proportional to the pattern's length times
/// the label's, however many `*` it has.
///
/// ```swift
/// LabelPattern("add*").matches("addToCart")   // true
/// ```
package struct LabelPattern: Sendable {
    private let pattern: [Unicode.Scalar]

    /// A pattern matched against the whole label.
    ///
    /// - Parameter pattern: the pattern's text.
    package init(_ pattern: String) {
        self.pattern = Array(pattern.unicodeScalars)
    }

    /// The viewer's filter: a pattern without `*` or `?` matches labels that contain it, a pattern
    /// with one matches whole labels, as ``init(_:)``.
    ///
    /// - Parameter filter: what the user typed.
    package init(filter: String) {
        if filter.unicodeScalars.contains(where: { $0 == "*" || $0 == "?" }) {
            self.init(filter)
        } else {
            self.init("*" + filter + "*")
        }
    }

    /// Whether `label` matches the pattern.
    package func matches(_ label: String) -> Bool {
        let text = Array(label.unicodeScalars)
        var (p, t) = (0, 0)
        // Where the last `*` was, and the text position it was last tried to end at.
        var star: (pattern: Int, text: Int)?
        while t < text.count {
            if p < pattern.count, pattern[p] == "*" {
                star = (p, t)
                p += 1
            } else if p < pattern.count, pattern[p] == "?" || pattern[p] == text[t] {
                p += 1
                t += 1
            } else if let last = star {
                // Let the last `*` take one more character, and try again from there.
                p = last.pattern + 1
                t = last.text + 1
                star = (last.pattern, last.text + 1)
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }
}
