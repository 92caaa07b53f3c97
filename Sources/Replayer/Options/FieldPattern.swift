import ActionLog

/// A pattern of field paths that replay does not compare: timestamps, random ids.
///
/// Written the way `FieldPath` prints: keys joined by dots, array indices in brackets, `*` for any
/// key and `[*]` for any index. A pattern also matches everything below what it names. A key that
/// is not an identifier can be written quoted in brackets: `["created at"]`. Text that does not
/// parse becomes a pattern matching the one key of that name, so a typo never ignores more than it
/// says.
///
/// ```swift
/// let options = ReplayOptions(ignoring: ["lastUpdated", "items[*].addedAt", "*.requestID"])
/// ```
public struct FieldPattern: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// One step of a pattern.
    enum Component: Hashable, Sendable {
        case key(String)
        case index(Int)
        /// `*`: any member of an object.
        case anyKey
        /// `[*]`: any element of an array.
        case anyIndex
    }

    let components: [Component]
    /// The pattern as it was written, e.g. `items[*].addedAt`.
    public let description: String

    /// Parses a pattern such as `items[*].addedAt`.
    ///
    /// A key that is not an identifier can be written quoted in brackets: `["created at"]`.
    /// Text that does not parse becomes a pattern matching the one key of that name, so a typo never
    /// ignores more than it says.
    ///
    /// - Parameter text: the pattern.
    package init(_ text: String) {
        description = text
        components = Self.parse(text) ?? [.key(text)]
    }

    /// A pattern written as a string literal, parsed as the type describes.
    ///
    /// ```swift
    /// let pattern: FieldPattern = "items[*].addedAt"
    /// ```
    ///
    /// - Parameter value: the pattern.
    public init(stringLiteral value: String) { self.init(value) }

    /// Whether `path`, or a field above it, is matched.
    ///
    /// ```swift
    /// FieldPattern("items[*].addedAt").matches([.key("items"), .index(3), .key("addedAt")])   // true
    /// ```
    package func matches(_ path: FieldPath) -> Bool {
        guard path.components.count >= components.count else { return false }
        for (pattern, component) in zip(components, path.components) {
            switch (pattern, component) {
            case (.anyKey, .key), (.anyIndex, .index): continue
            case (.key(let expected), .key(let key)) where expected == key: continue
            case (.index(let expected), .index(let index)) where expected == index: continue
            default: return false
            }
        }
        return true
    }

    /// `text` read as one path, without wildcards (`cart.items[0]["a key"]`), as the CLI takes a
    /// path where it names one field (`replay-cli why`); `nil` when it is not one.
    package static func path(_ text: String) -> FieldPath? {
        guard let components = parse(text) else { return nil }
        var path = FieldPath()
        for component in components {
            switch component {
            case .key(let key): path.components.append(.key(key))
            case .index(let index): path.components.append(.index(index))
            case .anyKey, .anyIndex: return nil
            }
        }
        return path
    }

    private static func parse(_ text: String) -> [Component]? {
        var components: [Component] = []
        var rest = Substring(text)
        while !rest.isEmpty {
            if rest.hasPrefix("[") {
                guard let close = closingBracket(in: rest) else { return nil }
                let inner = rest[rest.index(after: rest.startIndex)..<close]
                if inner == "*" {
                    components.append(.anyIndex)
                } else if let index = Int(inner), index >= 0 {
                    components.append(.index(index))
                } else if inner.hasPrefix("\""), inner.count >= 2, inner.hasSuffix("\""),
                    case .string(let key)? = try? JSONValue(parsing: String(inner))
                {
                    components.append(.key(key))
                } else {
                    return nil
                }
                rest = rest[rest.index(after: close)...]
            } else {
                if !components.isEmpty {
                    guard rest.hasPrefix(".") else { return nil }
                    rest = rest.dropFirst()
                }
                let end = rest.firstIndex { $0 == "." || $0 == "[" } ?? rest.endIndex
                let key = rest[..<end]
                guard !key.isEmpty else { return nil }
                components.append(key == "*" ? .anyKey : .key(String(key)))
                rest = rest[end...]
            }
        }
        return components.isEmpty ? nil : components
    }

    /// The `]` closing the bracket at the start of `text`, skipping a quoted key.
    private static func closingBracket(in text: Substring) -> Substring.Index? {
        var inQuotes = false
        var escaped = false
        for index in text.indices.dropFirst() {
            let character = text[index]
            if escaped { escaped = false; continue }
            if inQuotes {
                if character == "\\" { escaped = true } else if character == "\"" { inQuotes = false }
            } else if character == "\"" {
                inQuotes = true
            } else if character == "]" {
                return index
            }
        }
        return nil
    }
}

extension [FieldPattern] {
    /// Whether any pattern matches `path`.
    func matches(_ path: FieldPath) -> Bool {
        contains { $0.matches(path) }
    }
}
