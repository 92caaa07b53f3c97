import ActionLog

/// Reading and writing actions in the JSON shape Swift's synthesized `Codable` gives enums:
/// `case addToCart(id: String, quantity: Int)` is `{"addToCart":{"id":"p-7","quantity":1}}`,
/// `case queryChanged(String)` is `{"queryChanged":{"_0":"par"}}`, `case submit` is `{"submit":{}}`,
/// and a nested action `case input(Input)` wraps its payload as `{"input":{"_0":{…}}}`.
enum ActionJSON {
    /// The case and payload of an enum-shaped value: an object with one member whose value is an object.
    static func enumCase(_ json: JSONValue) -> (name: String, payload: [String: JSONValue])? {
        guard case .object(let members) = json, members.count == 1, let (name, value) = members.first,
            case .object(let payload) = value
        else { return nil }
        return (name, payload)
    }

    /// The label of an enum-shaped action, following nested enums through a single unlabeled payload:
    /// `{"input":{"_0":{"queryChanged":{"_0":"p"}}}}` is `input.queryChanged`, as the recorder labels it.
    static func label(of json: JSONValue) -> String? {
        var names: [String] = []
        var current = json
        while let (name, payload) = enumCase(current) {
            names.append(name)
            guard payload.count == 1, let inner = payload["_0"], enumCase(inner) != nil else { break }
            current = inner
        }
        return names.isEmpty ? nil : names.joined(separator: ".")
    }

    /// The innermost payload of the case `label` names, or `nil` when `json` does not have that shape.
    static func payload(of json: JSONValue, label: String) -> [String: JSONValue]? {
        var current = json
        let names = label.split(separator: ".").map(String.init)
        for (index, name) in names.enumerated() {
            guard let (found, payload) = enumCase(current), found == name else { return nil }
            if index == names.count - 1 { return payload }
            guard payload.count == 1, let inner = payload["_0"] else { return nil }
            current = inner
        }
        return nil
    }

    /// The action JSON for the case `label` with `payload`, nesting through `_0` for each dot.
    static func make(label: String, payload: [String: JSONValue]) -> JSONValue {
        let names = label.split(separator: ".").map(String.init)
        var json = JSONValue.object([names.last ?? label: .object(payload)])
        for name in names.dropLast().reversed() {
            json = .object([name: .object(["_0": json])])
        }
        return json
    }

    // MARK: - Summaries

    /// A one-line summary of an action for headings, the way TCA prints actions: the case path with
    /// its values, nested cases with a leading dot, long strings cut: `addToCart(id: "p-7", quantity: 1)`,
    /// `input(.queryChanged("par"))`. Falls back to `label` for actions that are not enum-shaped.
    static func summary(of json: JSONValue, label: String?, limit: Int = 100) -> String {
        let text = enumCase(json) != nil ? caseText(json) : (label ?? shortValue(json))
        return clip(text, to: limit)
    }

    private static func caseText(_ json: JSONValue) -> String {
        guard let (name, payload) = enumCase(json) else { return shortValue(json) }
        guard !payload.isEmpty else { return name }
        let arguments = payload.sorted { order($0.key, $1.key) }.map { key, value in
            let valueText = enumCase(value) != nil ? "." + caseText(value) : shortValue(value)
            return isPositional(key) ? valueText : "\(key): \(valueText)"
        }
        return "\(name)(\(arguments.joined(separator: ", ")))"
    }

    private static func shortValue(_ json: JSONValue) -> String {
        switch json {
        case .string(let string):
            return quoted(clip(string, to: 24))
        case .array(let elements):
            if elements.isEmpty { return "[]" }
            let inner = elements.map(shortValue).joined(separator: ", ")
            return inner.count <= 40 ? "[\(inner)]" : "[\(elements.count) elements]"
        case .object(let members):
            if members.isEmpty { return "{}" }
            let inner = members.sorted { order($0.key, $1.key) }.map { "\($0.key): \(shortValue($0.value))" }.joined(separator: ", ")
            return inner.count <= 40 ? "(\(inner))" : "(…)"
        default:
            return json.canonicalText
        }
    }

    private static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences("\\", "\\\\").replacingOccurrences("\"", "\\\"").replacingOccurrences("\n", "\\n") + "\""
    }

    private static func clip(_ text: String, to limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }

    /// `_0`, `_1`: the keys of unlabeled associated values.
    private static func isPositional(_ key: String) -> Bool {
        key.hasPrefix("_") && Int(key.dropFirst()) != nil
    }

    /// Positional keys in numeric order first, then labels in code-point order.
    private static func order(_ lhs: String, _ rhs: String) -> Bool {
        switch (isPositional(lhs) ? Int(lhs.dropFirst()) : nil, isPositional(rhs) ? Int(rhs.dropFirst()) : nil) {
        case (let left?, let right?): left < right
        case (.some, nil): true
        case (nil, .some): false
        case (nil, nil): lhs.unicodeScalars.lexicographicallyPrecedes(rhs.unicodeScalars)
        }
    }
}

extension String {
    fileprivate func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
