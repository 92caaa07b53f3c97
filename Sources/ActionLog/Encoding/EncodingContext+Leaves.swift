import Foundation

/// How leaves are written. The text is the one `JSONEncoder` (default strategies) writes — checked
/// against swift-foundation's on Linux — so a ``JSONValueEncoder`` result is not just equivalent to
/// `JSONValue(encoding:)` but equal to it, but for negative zero:
///
/// - integers: their decimal text (`-12`, `18446744073709551615`);
/// - `Double` and `Float`: Swift's shortest round-tripping `description`, without a trailing `.0`
///   (`1`, `0.1`, `1e-07`, `1.2345678901234568e+20`); non-finite values throw. One deliberate
///   difference: negative zero is written `0` (`JSONEncoder` writes `-0`, JavaScript `0`). `-0.0 == 0.0`,
///   so ``ChangeEncoder`` reuses the JSON of either for the other; writing both the same keeps its
///   result byte-identical to a full encode;
/// - `Decimal`: its `description` (`123.45`); NaN throws (`JSONEncoder` writes `NaN`, which is not JSON);
/// - `Date`: in the context's ``DateConvention``: ISO 8601 text (`"2026-11-28T12:31:00.123456Z"`, where
///   `JSONEncoder` writes a number), or for sessions recorded before, `timeIntervalSinceReferenceDate`
///   as a `Double`; `Data`: base64; `URL`: `absoluteString`.
enum JSONLeaf {
    /// `value` as a JSON number, or `nil` when it is not finite.
    static func number<F: BinaryFloatingPoint & CustomStringConvertible>(_ value: F) -> JSONValue? {
        guard value.isFinite else { return nil }
        if value == 0 { return .number("0") }
        var text = value.description
        let utf8 = text.utf8
        if utf8.count > 2, utf8.last == UInt8(ascii: "0"), utf8[utf8.index(utf8.endIndex, offsetBy: -2)] == UInt8(ascii: ".") {
            text.removeLast(2)
        }
        return .number(text)
    }

    /// `value` as a JSON number.
    @inline(__always)
    static func integer<I: BinaryInteger>(_ value: I) -> JSONValue {
        if let value = Int(exactly: value) { return .number(decimal(value)) }
        return .number(String(value))
    }

    /// `String(value)`, written digit by digit into the string's own storage: the generic
    /// conversion costs several times as much, and states and actions are full of integers.
    static func decimal(_ value: Int) -> String {
        var magnitude = value.magnitude
        var digits = 1
        var bound: UInt = 10
        while digits < 20, magnitude >= bound {
            digits += 1
            bound = bound &* 10
        }
        let count = digits + (value < 0 ? 1 : 0)
        return String(unsafeUninitializedCapacity: count) { buffer in
            var index = count
            repeat {
                index -= 1
                buffer[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 { buffer[0] = UInt8(ascii: "-") }
            return count
        }
    }

    /// The error `JSONEncoder` throws for a float it cannot write.
    static func invalidFloat<F: BinaryFloatingPoint>(_ value: F, codingPath: [any CodingKey]) -> EncodingError {
        EncodingError.invalidValue(
            value, .init(codingPath: codingPath, debugDescription: "Unable to encode \(F.self).\(value) directly in JSON."))
    }
}

extension EncodingContext {
    /// The JSON of a leaf `value`, whose ``TypeInfo/Kind`` is `kind`.
    ///
    /// - Throws: `EncodingError.invalidValue` for a non-finite float or a NaN `Decimal`.
    func leaf<T>(_ value: T, kind: TypeInfo.Kind, parent: PathNode?, component: PathComponent) throws -> JSONValue {
        switch kind {
        case .bool: return .bool(reinterpret(value, as: Bool.self))
        case .string: return .string(reinterpret(value, as: String.self))
        case .double: return try double(reinterpret(value, as: Double.self), parent: parent, component: component)
        case .float: return try float(reinterpret(value, as: Float.self), parent: parent, component: component)
        case .int: return JSONLeaf.integer(reinterpret(value, as: Int.self))
        case .int8: return JSONLeaf.integer(reinterpret(value, as: Int8.self))
        case .int16: return JSONLeaf.integer(reinterpret(value, as: Int16.self))
        case .int32: return JSONLeaf.integer(reinterpret(value, as: Int32.self))
        case .int64: return JSONLeaf.integer(reinterpret(value, as: Int64.self))
        case .int128:
            // `TypeInfo` gives the 128-bit kinds only where the system has the types.
            guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { preconditionFailure("\(T.self) is not a leaf") }
            return JSONLeaf.integer(reinterpret(value, as: Int128.self))
        case .uint: return JSONLeaf.integer(reinterpret(value, as: UInt.self))
        case .uint8: return JSONLeaf.integer(reinterpret(value, as: UInt8.self))
        case .uint16: return JSONLeaf.integer(reinterpret(value, as: UInt16.self))
        case .uint32: return JSONLeaf.integer(reinterpret(value, as: UInt32.self))
        case .uint64: return JSONLeaf.integer(reinterpret(value, as: UInt64.self))
        case .uint128:
            guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { preconditionFailure("\(T.self) is not a leaf") }
            return JSONLeaf.integer(reinterpret(value, as: UInt128.self))
        case .date:
            let date = reinterpret(value, as: Date.self)
            if dates == .iso8601, let text = JournalDate.text(date) { return .string(text) }
            return try double(date.timeIntervalSinceReferenceDate, parent: parent, component: component)
        case .data: return .string(reinterpret(value, as: Data.self).base64EncodedString())
        case .url: return .string(reinterpret(value, as: URL.self).absoluteString)
        case .decimal: return try decimal(reinterpret(value, as: Decimal.self), parent: parent, component: component)
        case .array, .other: preconditionFailure("\(T.self) is not a leaf")
        }
    }

    func double(_ value: Double, parent: PathNode?, component: PathComponent) throws -> JSONValue {
        guard let json = JSONLeaf.number(value) else {
            throw JSONLeaf.invalidFloat(value, codingPath: PathNode.codingPath(parent, component))
        }
        return json
    }

    func float(_ value: Float, parent: PathNode?, component: PathComponent) throws -> JSONValue {
        guard let json = JSONLeaf.number(value) else {
            throw JSONLeaf.invalidFloat(value, codingPath: PathNode.codingPath(parent, component))
        }
        return json
    }

    func decimal(_ value: Decimal, parent: PathNode?, component: PathComponent) throws -> JSONValue {
        guard !value.isNaN else {
            throw EncodingError.invalidValue(
                value,
                .init(codingPath: PathNode.codingPath(parent, component), debugDescription: "Unable to encode Decimal.nan in JSON."))
        }
        return .number(value.description)
    }
}
