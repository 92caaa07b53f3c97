/// A path to a value inside a JSON document, printed the way Swift code reads it: `cart.items[3].quantity`.
///
/// ```swift
/// let path: FieldPath = [.key("cart"), .key("items"), .index(3)]
/// path.description   // cart.items[3]
/// path.jsonPointer   // /cart/items/3
/// ```
public struct FieldPath: Hashable, Sendable, CustomStringConvertible, ExpressibleByArrayLiteral, Comparable {
    public enum Component: Hashable, Sendable {
        case key(String)
        case index(Int)
    }

    public var components: [Component]

    public init(_ components: [Component] = []) { self.components = components }
    public init(arrayLiteral elements: Component...) { self.components = elements }

    package init(codingPath: [any CodingKey]) {
        self.components = codingPath.map { key in key.intValue.map(Component.index) ?? .key(key.stringValue) }
    }

    /// Whether the path names the whole document.
    public var isRoot: Bool { components.isEmpty }

    public func appending(_ component: Component) -> FieldPath {
        FieldPath(components + [component])
    }

    /// The path as Swift-like text; the root prints as `(root)`, keys that are not identifiers as `["a key"]`.
    public var description: String {
        guard !components.isEmpty else { return "(root)" }
        var text = ""
        for component in components {
            switch component {
            case .index(let index):
                text += "[\(index)]"
            case .key(let key) where Self.isIdentifier(key):
                text += text.isEmpty ? key : ".\(key)"
            case .key(let key):
                var quoted: [UInt8] = []
                JSONValue.writeString(key, to: &quoted)
                text += "[\(String(decoding: quoted, as: UTF8.self))]"
            }
        }
        return text
    }

    /// The path as an RFC 6901 JSON Pointer (`/cart/items/3`), as `sqlite3`'s `json_extract` and JSON Patch use it.
    public var jsonPointer: String {
        components.map { component in
            switch component {
            case .index(let index): "/\(index)"
            case .key(let key): "/" + key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
            }
        }.joined()
    }

    public static func < (lhs: FieldPath, rhs: FieldPath) -> Bool {
        lhs.description.utf8.lexicographicallyPrecedes(rhs.description.utf8)
    }

    private static func isIdentifier(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
        return key.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }
}

private extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
