extension JSONValue {
    /// How big and how deep a value is, measured without recursion.
    package struct Measure: Sendable, Equatable {
        /// About the length of the value's JSON text: one per value, plus the bytes of its strings,
        /// numbers and member names. Counted up to the limit given to ``JSONValue/measure(weightLimit:)``.
        package var weight: Int
        /// Levels of nesting: 1 for a scalar or an empty container, as ``JSONValue/maximumDepth`` counts.
        package var depth: Int
        /// Whether the whole value was measured: `false` when the weight passed the limit first.
        package var isComplete: Bool
    }

    /// Measures the value with an explicit stack, stopping once the weight passes `weightLimit` or
    /// the depth passes ``maximumDepth``: the cost is bounded by the limit, not by the value.
    ///
    /// - Parameter weightLimit: where to stop counting.
    package func measure(weightLimit: Int = .max) -> Measure {
        var weight = 0
        var depth = 0
        var stack: [(value: JSONValue, level: Int)] = [(self, 1)]
        while let (value, level) = stack.popLast() {
            depth = max(depth, level)
            switch value {
            case .null, .bool: weight &+= 1
            case .number(let text): weight &+= 1 &+ text.utf8.count
            case .string(let text): weight &+= 1 &+ text.utf8.count
            case .array(let elements):
                weight &+= 1
                if level < JSONValue.maximumDepth + 1 {
                    for element in elements { stack.append((element, level + 1)) }
                }
            case .object(let members):
                weight &+= 1
                for (key, member) in members {
                    weight &+= key.utf8.count
                    if level < JSONValue.maximumDepth + 1 { stack.append((member, level + 1)) }
                }
            }
            if weight > weightLimit || weight < 0 || depth > JSONValue.maximumDepth {
                return Measure(weight: weight < 0 ? .max : weight, depth: depth, isComplete: false)
            }
        }
        return Measure(weight: weight, depth: depth, isComplete: true)
    }
}
