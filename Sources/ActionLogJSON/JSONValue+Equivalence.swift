extension JSONValue {
    /// Whether two values are the same JSON, as RFC 6902's `test` operation compares them.
    ///
    /// Unlike `==`, which compares numbers by their text, numbers here compare by exact decimal
    /// value: `1`, `1.0`, `1e0` and `10E-1` are equivalent, and so are `0` and `-0`. Strings compare
    /// by Unicode code points, arrays element by element, and objects member by member in any order.
    ///
    /// ```swift
    /// let a = try JSONValue(parsing: #"{"n":1,"list":[1e2]}"#)
    /// let b = try JSONValue(parsing: #"{"list":[100.0],"n":1.00}"#)
    /// a == b                  // false: the number texts differ
    /// a.isEquivalent(to: b)   // true
    /// ```
    ///
    /// - Parameter other: the value to compare with.
    public func isEquivalent(to other: JSONValue) -> Bool {
        switch (self, other) {
        case (.null, .null):
            return true
        case (.bool(let left), .bool(let right)):
            return left == right
        case (.number(let left), .number(let right)):
            if left == right { return true }
            guard let l = DecimalNumber(left), let r = DecimalNumber(right) else { return false }
            return l == r
        case (.string(let left), .string(let right)):
            return left.unicodeScalars.elementsEqual(right.unicodeScalars)
        case (.array(let left), .array(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { $0.isEquivalent(to: $1) }
        case (.object(let left), .object(let right)):
            guard left.count == right.count else { return false }
            for (key, value) in left {
                guard let match = right[key], value.isEquivalent(to: match) else { return false }
            }
            return true
        default:
            return false
        }
    }
}

/// A JSON number reduced to sign, significant digits and a power of ten, so that equal values compare equal.
///
/// The value is `digits × 10^exponent`, with no leading or trailing zero digits: `12.50e1` and
/// `125` both read as digits `125`, exponent `0`; `0.5` as digits `5`, exponent `-1`. Zero has no
/// digits, exponent `0` and no sign.
private struct DecimalNumber: Equatable {
    package var negative: Bool
    package var digits: [UInt8]
    package var exponent: Int

    /// Reads a JSON number text; `nil` when it is not one, or its exponent does not fit in an `Int`.
    package init?(_ text: String) {
        var bytes = text.utf8[...]
        negative = bytes.first == UInt8(ascii: "-")
        if negative { bytes = bytes.dropFirst() }

        func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

        let integer = bytes.prefix(while: isDigit)
        guard !integer.isEmpty else { return nil }
        bytes = bytes.dropFirst(integer.count)
        var fraction = bytes[bytes.startIndex..<bytes.startIndex]
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            fraction = bytes.prefix(while: isDigit)
            guard !fraction.isEmpty else { return nil }
            bytes = bytes.dropFirst(fraction.count)
        }
        var written = 0
        if let marker = bytes.first, marker == UInt8(ascii: "e") || marker == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            var exponentNegative = false
            if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                exponentNegative = sign == UInt8(ascii: "-")
                bytes = bytes.dropFirst()
            }
            let exponentDigits = bytes.prefix(while: isDigit)
            guard !exponentDigits.isEmpty else { return nil }
            bytes = bytes.dropFirst(exponentDigits.count)
            for byte in exponentDigits {
                let (times10, overflow1) = written.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times10.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
                guard !overflow1, !overflow2, sum < Int.max / 4 else { return nil }
                written = sum
            }
            if exponentNegative { written = -written }
        }
        guard bytes.isEmpty else { return nil }

        var all = Array(integer) + Array(fraction)
        var exponent = written - fraction.count
        let leadingZeros = all.prefix(while: { $0 == UInt8(ascii: "0") }).count
        all.removeFirst(leadingZeros)
        while all.last == UInt8(ascii: "0") {
            all.removeLast()
            exponent += 1
        }
        if all.isEmpty {
            negative = false
            exponent = 0
        }
        digits = all
        self.exponent = exponent
    }
}
