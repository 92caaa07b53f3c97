/// The `Encoder` handed to one value's `encode(to:)`, which is also its single-value container.
///
/// It behaves as `JSONEncoder`'s encoder does with default strategies: asking twice for a keyed
/// (or unkeyed) container gives the same container; a second single value, or a container of
/// another kind, is a programmer error and traps.
final class ValueEncoder: ContainerBuilder, Encoder, SingleValueEncodingContainer {
    var codingPath: [any CodingKey] { PathNode.codingPath(self, .none) }
    var userInfo: [CodingUserInfoKey: Any] { context.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        beginObject()
        return KeyedEncodingContainer(KeyedContainer<Key>(builder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        beginArray()
        return UnkeyedContainer(builder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        self
    }

    // MARK: SingleValueEncodingContainer

    /// Stores a leaf as the value, replacing the previous value when they differ.
    private func storeLeaf(_ json: JSONValue) {
        beginValue()
        if let previous, previous != json { context.emit(.replace(path: PathNode.pointer(self, .none), value: json)) }
        single = json
    }

    func encodeNil() throws { storeLeaf(.null) }
    func encode(_ value: Bool) throws { storeLeaf(.bool(value)) }
    func encode(_ value: String) throws { storeLeaf(.string(value)) }
    func encode(_ value: Double) throws { storeLeaf(try context.double(value, parent: self, component: .none)) }
    func encode(_ value: Float) throws { storeLeaf(try context.float(value, parent: self, component: .none)) }
    func encode(_ value: Int) throws { storeLeaf(JSONLeaf.integer(value)) }
    func encode(_ value: Int8) throws { storeLeaf(JSONLeaf.integer(value)) }
    func encode(_ value: Int16) throws { storeLeaf(JSONLeaf.integer(value)) }
    func encode(_ value: Int32) throws { storeLeaf(JSONLeaf.integer(value)) }
    func encode(_ value: Int64) throws { storeLeaf(JSONLeaf.integer(value)) }
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    func encode(_ value: Int128) throws { storeLeaf(JSONLeaf.integer(value)) }
    func encode(_ value: UInt) throws { storeLeaf(JSONLeaf.integer(value)) }
    func encode(_ value: UInt8) throws { storeLeaf(JSONLeaf.integer(value)) }
    func encode(_ value: UInt16) throws { storeLeaf(JSONLeaf.integer(value)) }
    func encode(_ value: UInt32) throws { storeLeaf(JSONLeaf.integer(value)) }
    func encode(_ value: UInt64) throws { storeLeaf(JSONLeaf.integer(value)) }
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    func encode(_ value: UInt128) throws { storeLeaf(JSONLeaf.integer(value)) }

    func encode<T: Encodable>(_ value: T) throws {
        beginValue()
        let encoded = try context.encode(
            value, previous: previous, previousNode: previousNode?.children(at: self).single, parent: self, component: .none)
        single = encoded.json
        singleNode = encoded.node
    }
}
