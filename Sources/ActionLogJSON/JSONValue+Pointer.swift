extension JSONValue {
    /// The value at an RFC 6901 pointer, or `nil` when nothing is there.
    ///
    /// An array token must be a decimal index without leading zeros (`-` names no element).
    ///
    /// ```swift
    /// let state: JSONValue = ["items": [["quantity": 2]]]
    /// state.value(at: JSONPointer("/items/0/quantity")!)   // 2
    /// ```
    ///
    /// - Parameter pointer: where to look.
    /// - Returns: the value, or `nil` when a member or element on the way is missing.
    public func value(at pointer: JSONPointer) -> JSONValue? {
        var current = self
        for token in pointer.tokens {
            switch current {
            case .object(let members):
                guard let member = members[token] else { return nil }
                current = member
            case .array(let elements):
                guard let index = JSONPointer.arrayIndex(token), elements.indices.contains(index) else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }
}

extension JSONPointer {
    /// The array index a token names: decimal digits, no leading zero (RFC 6901 section 4).
    package static func arrayIndex(_ token: String) -> Int? {
        let utf8 = token.utf8
        guard let first = utf8.first, first != UInt8(ascii: "0") || utf8.count == 1,
            utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return nil }
        return Int(token)
    }

    /// The pointer without its last token; the root's parent is the root.
    public var parent: JSONPointer {
        JSONPointer(tokens: Array(tokens.dropLast()))
    }
}
