/// One field whose value differs between two JSON documents.
///
/// `recorded` or `replayed` is `nil` when the field exists on one side only.
public struct FieldDifference: Hashable, Sendable, CustomStringConvertible {
    public let path: FieldPath
    public let recorded: JSONValue?
    public let replayed: JSONValue?

    public init(path: FieldPath, recorded: JSONValue?, replayed: JSONValue?) {
        self.path = path
        self.recorded = recorded
        self.replayed = replayed
    }

    /// `path: recorded → replayed`, with `(absent)` for a missing side.
    public var description: String {
        "\(path): \(recorded?.canonicalText ?? "(absent)") → \(replayed?.canonicalText ?? "(absent)")"
    }
}

extension JSONValue {
    /// The leaf fields that differ between `self` (recorded) and `other` (replayed), in path order.
    ///
    /// Objects are compared member by member and arrays element by element, after the elements
    /// both arrays start and end with, so that an element inserted or removed in the middle is one
    /// difference (at its index in the array that has it), not a change of every element after it;
    /// a value whose JSON type changed is one difference at its own path.
    ///
    /// ```swift
    /// let old: JSONValue = ["count": 1, "name": "a"]
    /// old.differences(to: ["count": 2, "name": "a"])  // [count: 1 → 2]
    /// ```
    public func differences(to other: JSONValue) -> [FieldDifference] {
        var result: [FieldDifference] = []
        Self.collectDifferences(self, other, at: FieldPath(), into: &result)
        return result
    }

    private static func collectDifferences(_ lhs: JSONValue?, _ rhs: JSONValue?, at path: FieldPath, into result: inout [FieldDifference]) {
        switch (lhs, rhs) {
        case (.object(let left)?, .object(let right)?):
            let keys = Set(left.keys).union(right.keys).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for key in keys where left[key] != right[key] {
                collectDifferences(left[key], right[key], at: path.appending(.key(key)), into: &result)
            }
        case (.array(let left)?, .array(let right)?):
            // The elements both ends share are left out first, so that elements inserted or removed
            // in the middle read as such (`items[1]: {…} → (absent)`), not as every element after
            // them changed. What is left is compared element by element, the longer side's extra
            // elements present on one side only.
            var prefix = 0
            while prefix < min(left.count, right.count), left[prefix] == right[prefix] { prefix += 1 }
            var suffix = 0
            while suffix < min(left.count, right.count) - prefix, left[left.count - 1 - suffix] == right[right.count - 1 - suffix] {
                suffix += 1
            }
            for index in prefix..<max(left.count, right.count) - suffix {
                let l: JSONValue? = index < left.count - suffix ? left[index] : nil
                let r: JSONValue? = index < right.count - suffix ? right[index] : nil
                if l != r { collectDifferences(l, r, at: path.appending(.index(index)), into: &result) }
            }
        default:
            if lhs != rhs { result.append(FieldDifference(path: path, recorded: lhs, replayed: rhs)) }
        }
    }
}
