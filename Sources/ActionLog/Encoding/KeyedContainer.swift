/// The keyed container of ``ValueEncoder``: writes object members into a ``ContainerBuilder``.
///
/// Members are named by `key.stringValue`, so a dictionary with `Int` keys becomes an object with
/// string keys, as with `JSONEncoder`. Writing a key twice keeps the last value.
struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let builder: ContainerBuilder

    var codingPath: [any CodingKey] { PathNode.codingPath(builder, .none) }

    mutating func encodeNil(forKey key: Key) throws { builder.storeLeafMember(.null, name: key.stringValue) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { builder.storeLeafMember(.bool(value), name: key.stringValue) }
    mutating func encode(_ value: String, forKey key: Key) throws { builder.storeLeafMember(.string(value), name: key.stringValue) }

    mutating func encode(_ value: Double, forKey key: Key) throws {
        builder.storeLeafMember(try builder.context.double(value, parent: builder, component: .key(key)), name: key.stringValue)
    }

    mutating func encode(_ value: Float, forKey key: Key) throws {
        builder.storeLeafMember(try builder.context.float(value, parent: builder, component: .key(key)), name: key.stringValue)
    }

    mutating func encode(_ value: Int, forKey key: Key) throws { storeInteger(value, key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { storeInteger(value, key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { storeInteger(value, key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { storeInteger(value, key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { storeInteger(value, key) }
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    mutating func encode(_ value: Int128, forKey key: Key) throws { storeInteger(value, key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { storeInteger(value, key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { storeInteger(value, key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { storeInteger(value, key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { storeInteger(value, key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { storeInteger(value, key) }
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    mutating func encode(_ value: UInt128, forKey key: Key) throws { storeInteger(value, key) }

    @inline(__always)
    private func storeInteger(_ value: some BinaryInteger, _ key: Key) {
        builder.storeLeafMember(JSONLeaf.integer(value), name: key.stringValue)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let name = key.stringValue
        let (old, oldNode) = builder.previousMember(name)
        let before = builder.context.operations.count
        let encoded = try builder.context.encode(
            value, previous: old, previousNode: oldNode, parent: builder, component: .key(key))
        builder.storeMember(encoded.json, node: encoded.node, name: name, hadPrevious: old != nil, operationsBefore: before)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = builder.nestedMember(key.stringValue, key: key, shape: .object)
        nested.beginObject()
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(builder: nested))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = builder.nestedMember(key.stringValue, key: key, shape: .array)
        nested.beginArray()
        return UnkeyedContainer(builder: nested)
    }

    mutating func superEncoder() -> any Encoder {
        builder.nestedMemberEncoder("super", key: SuperKey())
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        builder.nestedMemberEncoder(key.stringValue, key: key)
    }
}
