/// A type whose values ActionLog never writes: wherever one appears — in a state, an action or an
/// effect — the journal holds a placeholder of the same JSON shape instead (see ``Redacted``).
///
/// ```swift
/// struct CardNumber: Codable, Equatable, RedactedInJournal {
///     var digits: String
/// }
/// enum PaymentAction: Codable {
///     case cardEntered(CardNumber)   // journaled as {"cardEntered":{"_0":{"digits":"<redacted>"}}}
/// }
/// ```
///
/// The marker applies to everything ActionLog encodes: the recorder's states, actions and effects,
/// and the replay's, so a replay compares placeholder with placeholder and a secret that changes at
/// every step is no change at all in the file. The app's own `JSONEncoder` is not affected. For a
/// plain `String` or `Int`, wrap it in ``Redacted`` rather than marking the standard type.
public protocol RedactedInJournal {}

/// A value that ActionLog writes as a placeholder, and the app reads and encodes as the value itself.
///
/// Use it as a property wrapper or as a type:
///
/// ```swift
/// struct Session: Codable, Equatable {
///     var user: String
///     @Redacted var token: String          // journaled as "<redacted>"
/// }
/// enum LoginFeedback: Codable {
///     case signedIn(token: Redacted<String>)
/// }
/// ```
///
/// `Codable` passes through to the wrapped value, so `JSONEncoder` and `JSONDecoder` see a plain
/// `String` and existing data still decodes. In a journal the value becomes a placeholder of the same
/// JSON type (see ``RedactedInJournal`` and the placeholder rules in the design-choices article), so a recorded
/// state still decodes for replay: the replayed value is the placeholder (`"<redacted>"`, `0`,
/// `false`), never the secret.
@propertyWrapper
public struct Redacted<Value>: RedactedInJournal {
    /// The value itself.
    public var wrappedValue: Value

    /// Wraps a value.
    ///
    /// ```swift
    /// let token = Redacted(wrappedValue: "eyJhbGciOi…")
    /// token.wrappedValue   // the value itself
    /// ```
    ///
    /// - Parameter wrappedValue: the value to keep out of journals.
    public init(wrappedValue: Value) {
        self.wrappedValue = wrappedValue
    }

    /// Wraps a value. See ``init(wrappedValue:)``.
    ///
    /// - Parameter value: the value to keep out of journals.
    package init(_ value: Value) {
        self.wrappedValue = value
    }
}

extension Redacted: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `<redacted>`: printing, `dump` and string interpolation never show the value (a state in an
    /// error message or a log line included). Read ``wrappedValue`` to see it.
    public var description: String { Redactor.placeholderText }

    /// `<redacted>`, as ``description``.
    public var debugDescription: String { Redactor.placeholderText }

    /// A mirror with no children, so that reflection (`dump`, custom dumps) does not show the value.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

extension Redacted: Equatable where Value: Equatable {}
extension Redacted: Hashable where Value: Hashable {}
extension Redacted: Sendable where Value: Sendable {}

extension Redacted: Encodable where Value: Encodable {
    /// Encodes the wrapped value as if it were not wrapped. ActionLog's encoders write a placeholder instead.
    ///
    /// - Parameter encoder: the encoder to write to.
    /// - Throws: what the wrapped value's `encode(to:)` throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

extension Redacted: Decodable where Value: Decodable {
    /// Decodes the wrapped value as if it were not wrapped.
    ///
    /// - Parameter decoder: the decoder to read from.
    /// - Throws: what decoding the wrapped value throws.
    public init(from decoder: any Decoder) throws {
        wrappedValue = try decoder.singleValueContainer().decode(Value.self)
    }
}
