extension Redactor {
    /// What a redacted value becomes: a value of the same JSON type, so that a state holding it
    /// still decodes into the same Swift type wherever that type accepts any value of its JSON type.
    ///
    /// - a string becomes `"<redacted>"`, a number `0`, a boolean `false`, `null` stays `null`;
    /// - an array keeps its count and an object its member names, each element or member redacted in
    ///   turn, so a redacted struct still decodes (its keys are there) and a redacted list keeps its
    ///   length. Member names and counts are therefore written: redact the place above a dictionary
    ///   whose keys are secret.
    ///
    /// A type that checks its values when decoding (an enum from a raw string, a non-empty
    /// collection, a URL) may not accept the placeholder; replay then reports that the recorded state
    /// no longer decodes, naming the entry. Placeholders are stable: redacting one gives itself.
    ///
    /// ```swift
    /// Redactor.placeholder(for: ["number": "4111 1111 1111 1111", "expiry": 1228, "tags": ["a", "b"]])
    /// // {"expiry":0,"number":"<redacted>","tags":["<redacted>","<redacted>"]}
    /// ```
    ///
    /// Walks the value with a stack of its own, so that a deep value cannot exhaust the thread's.
    ///
    /// - Parameter value: the value to hide.
    /// - Returns: its placeholder.
    package static func placeholder(for value: JSONValue) -> JSONValue {
        switch value {
        case .null: return .null
        case .bool: return .bool(false)
        case .number: return .number("0")
        case .string: return .string(placeholderText)
        case .array, .object: break
        }
        /// A container being rebuilt: its children, the keys when it is an object, and the
        /// placeholders made so far.
        struct Frame {
            var children: [JSONValue]
            var keys: [String]?
            var done: [JSONValue] = []
        }
        func frame(_ container: JSONValue) -> Frame? {
            switch container {
            case .array(let elements): return Frame(children: elements, keys: nil)
            case .object(let members): return Frame(children: Array(members.values), keys: Array(members.keys))
            default: return nil
            }
        }
        guard let root = frame(value) else { return value }
        var stack = [root]
        while let top = stack.last {
            let index = top.done.count
            if index < top.children.count {
                let child = top.children[index]
                if let nested = frame(child) {
                    stack.append(nested)
                } else {
                    stack[stack.count - 1].done.append(placeholder(for: child))
                }
                continue
            }
            let finished = stack.removeLast()
            let built: JSONValue =
                if let keys = finished.keys {
                    .object(Dictionary(uniqueKeysWithValues: zip(keys, finished.done)))
                } else {
                    .array(finished.done)
                }
            if stack.isEmpty { return built }
            stack[stack.count - 1].done.append(built)
        }
        return value  // Not reached: the root frame returns when it finishes.
    }
}
