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
    /// Objects are compared member by member and arrays element by element; a value whose JSON
    /// type changed is one difference at its own path.
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
            for index in 0..<max(left.count, right.count) {
                let l: JSONValue? = index < left.count ? left[index] : nil
                let r: JSONValue? = index < right.count ? right[index] : nil
                if l != r { collectDifferences(l, r, at: path.appending(.index(index)), into: &result) }
            }
        default:
            if lhs != rhs { result.append(FieldDifference(path: path, recorded: lhs, replayed: rhs)) }
        }
    }
}
