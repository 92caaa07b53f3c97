import Foundation

extension JSONValue {
    /// Encodes `value` with `JSONEncoder` and reads the result back as a ``JSONValue``, so that its
    /// ``canonicalText`` is independent of the encoder's key order.
    ///
    /// ```swift
    /// let json = try JSONValue(encoding: Cart(items: []))
    /// ```
    ///
    /// Without an `encoder`, a `Date` is written as journals write it: ISO 8601 text in UTC with
    /// microseconds (`"2026-11-28T12:31:00.123456Z"`).
    ///
    /// - Parameters:
    ///   - value: the value to encode.
    ///   - encoder: the encoder to use, `nil` for one with the journals' dates; its `outputFormatting` does not matter.
    /// - Throws: the encoder's `EncodingError` (for example for a `Double.nan`).
    public init(encoding value: some Encodable, encoder: JSONEncoder? = nil) throws {
        let data = try (encoder ?? JournalDate.encoder()).encode(value)
        self = try data.withUnsafeBytes { raw in
            try JSONValue.parse(raw.bindMemory(to: UInt8.self))
        }
    }

    /// Decodes a value of type `T` from this JSON.
    ///
    /// ```swift
    /// let cart = try json.decode(Cart.self)
    /// ```
    ///
    /// Without a `decoder`, a `Date` reads from either form a journal holds: the ISO 8601 text
    /// journals write now (`"2026-11-28T12:31:00.123456Z"`) or a number of seconds since 2001 (what
    /// `JSONEncoder` writes by default, and journals held before).
    ///
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - decoder: the decoder to use; `nil` for the one that reads journaled dates in both forms.
    /// - Throws: the decoder's `DecodingError`; `JSONValue.describe(_:)` turns it into a short sentence.
    public func decode<T: Decodable>(_ type: T.Type, decoder: JSONDecoder? = nil) throws -> T {
        try (decoder ?? JournalDate.decoder()).decode(T.self, from: Data(canonicalBytes))
    }

    /// A short sentence for an error decoding `json`, which can say more than `describe(_:)`: an
    /// enum case that no longer exists reads `Event has no case "addProduct"` rather than Foundation's
    /// `Invalid number of keys found, expected one.`
    ///
    /// ```swift
    /// do { _ = try action.decode(Event.self) } catch { print(JSONValue.describe(error, decoding: action)) }
    /// ```
    ///
    /// - Parameters:
    ///   - error: what decoding threw.
    ///   - json: the value that was being decoded.
    package static func describe(_ error: any Error, decoding json: JSONValue) -> String {
        if case .typeMismatch(let type, let context)? = error as? DecodingError,
            context.debugDescription.hasPrefix("Invalid number of keys found"),
            case .object(let members)? = json.value(at: JSONPointer(FieldPath(codingPath: context.codingPath))),
            members.count == 1, let name = members.keys.first
        {
            return "\(type) has no case \"\(name)\"\(location(context))"
        }
        return describe(error)
    }

    /// A short sentence for a decoding error, naming the key path:
    /// `key "quantity" not found at items[3]`.
    package static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return String(describing: error) }
        switch error {
        case .keyNotFound(let key, let context):
            return "key \"\(key.stringValue)\" not found\(location(context))"
        case .typeMismatch(let type, let context):
            return "expected \(type)\(location(context)): \(context.debugDescription)"
        case .valueNotFound(let type, let context):
            return "expected \(type) but found null\(location(context))"
        case .dataCorrupted(let context):
            return "\(context.debugDescription)\(location(context))"
        @unknown default:
            return String(describing: error)
        }
    }

    /// ` at items[3]`: where in the value decoding failed; empty at the root.
    private static func location(_ context: DecodingError.Context) -> String {
        let path = FieldPath(codingPath: context.codingPath)
        return path.isRoot ? "" : " at \(path)"
    }
}
