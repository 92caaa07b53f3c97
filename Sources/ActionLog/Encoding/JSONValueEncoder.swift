/// Encodes any `Encodable` value straight into a ``JSONValue``, without writing and parsing JSON text.
///
/// The result is the JSON that `JSONEncoder` writes with its default strategies but for dates, read back with
/// ``JSONValue/init(encoding:encoder:)`` (whose default encoder writes dates as journals do): the same members, elements and number texts, so the two
/// give the same ``JSONValue/canonicalText`` — but for negative zero, written `0` rather than `-0`,
/// so that equal numbers (`-0.0 == 0.0`) always give equal JSON; the two results are always
/// ``JSONValue/isEquivalent(to:)``. In particular:
///
/// - `Date` is ISO 8601 text in UTC with microseconds (`"2026-11-28T12:31:00.123456Z"`, see
///   ``DateConvention``) where `JSONEncoder` writes its seconds since the reference date; with
///   ``dates`` set to ``DateConvention/referenceSeconds``, those seconds, as `JSONEncoder`. `Data` a base64
///   string, `URL` its `absoluteString`, `Decimal` a number (its `description`);
/// - `Double` and `Float` are Swift's shortest round-tripping text without a trailing `.0`
///   (`1`, `0.1`, `1e-07`, `1.5e+300`), as `JSONEncoder` writes them; integers are their decimal text;
/// - `encodeIfPresent` leaves a `nil` member out, `encodeNil` writes `null`;
/// - dictionaries with `Int` keys become objects with string keys; `superEncoder()` writes under
///   `"super"`; a nested value that encodes nothing is `{}`;
/// - a value of a type marked ``RedactedInJournal`` (such as ``Redacted``) is its placeholder
///   (`"<redacted>"`, `0`, `false`, …), never the value: this is the encoder of journals.
///
/// ```swift
/// struct Cart: Encodable { var items: [String]; var total: Decimal; var updated: Date }
/// let json = try JSONValueEncoder().encode(Cart(items: ["pear"], total: 2.5, updated: .now))
/// json["total"]  // .number("2.5")
/// ```
///
/// Unlike `JSONEncoder`, a NaN `Decimal` throws (`JSONEncoder` writes `NaN`, which is not JSON).
package struct JSONValueEncoder: Sendable {
    /// What `Encoder.userInfo` gives the values' `encode(to:)`.
    package var userInfo: [CodingUserInfoKey: any Sendable]
    /// How dates are written: ISO 8601 unless replaying a session recorded before.
    package var dates: DateConvention

    /// Makes an encoder.
    ///
    /// ```swift
    /// var encoder = JSONValueEncoder()
    /// encoder.userInfo[.init(rawValue: "redact")!] = true
    /// ```
    ///
    /// - Parameters:
    ///   - userInfo: what `Encoder.userInfo` gives the values' `encode(to:)`.
    ///   - dates: how dates are written.
    package init(userInfo: [CodingUserInfoKey: any Sendable] = [:], dates: DateConvention = .iso8601) {
        self.userInfo = userInfo
        self.dates = dates
    }

    /// Encodes `value` as JSON.
    ///
    /// ```swift
    /// let json = try JSONValueEncoder().encode(["b": 2, "a": 1])
    /// json.canonicalText  // {"a":1,"b":2}
    /// ```
    ///
    /// - Parameter value: the value to encode; any `Encodable`, including a single number or string.
    /// - Returns: the value's JSON.
    /// - Throws: `EncodingError.invalidValue` for a non-finite `Double` or `Float`, a NaN
    ///   `Decimal`, or a top-level value that encodes nothing; any error the value's own
    ///   `encode(to:)` throws.
    package func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        try EncodingContext(tracking: false, userInfo: userInfo, dates: dates).encodeWhole(value)
    }
}

extension EncodingContext {
    /// Encodes `value` from scratch, as ``JSONValueEncoder/encode(_:)`` does, in a context that is
    /// not tracking. Such a context can encode value after value: it keeps only its per-type
    /// decisions, so that a caller encoding many values (the recorder's writer) decides once.
    func encodeWhole<T: Encodable>(_ value: T) throws -> JSONValue {
        precondition(!tracking, "a tracking context encodes changes")
        return try encode(value, previous: nil, previousNode: nil, parent: nil, component: .none, isRoot: true).json
    }
}
