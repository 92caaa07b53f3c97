/// A JSON document as a value: what ActionLog stores for actions, states and effects.
///
/// Numbers keep the exact text they were written with, so a value read from a journal
/// serializes back to the same bytes. Object keys are unordered here; ``canonicalText``
/// writes them sorted by Unicode code point, the same on every platform.
///
/// ```swift
/// let value = try JSONValue(parsing: #"{"b":1,"a":[true,null]}"#)
/// value.canonicalText  // {"a":[true,null],"b":1}
/// value["a"]?[0]       // .bool(true)
/// ```
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    /// A number, as its JSON text (`1`, `-0.5`, `1e+30`).
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The member `key` of an object, or `nil`.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The element at `index` of an array, or `nil`.
    public subscript(index: Int) -> JSONValue? {
        if case .array(let elements) = self, elements.indices.contains(index) { return elements[index] }
        return nil
    }

    /// A short name of the value's JSON type: `null`, `boolean`, `number`, `string`, `array`, `object`.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

// MARK: - Literals

// Not `ExpressibleByNilLiteral`: `nil` would silently become `.null` where an optional was meant.
extension JSONValue: ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(String(value)) }
    public init(floatLiteral value: Double) { self = .number(String(value)) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
