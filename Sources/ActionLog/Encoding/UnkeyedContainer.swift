/// The unkeyed container of ``ValueEncoder``: appends array elements to a ``ContainerBuilder``.
///
/// Element `i` is compared with element `i` of the previous array; elements past the previous end
/// are added, and previous elements past the new end removed, when the builder finishes.
/// (`Array` itself does not come here: see ``EncodableArray``.)
struct UnkeyedContainer: UnkeyedEncodingContainer {
    let builder: ContainerBuilder

    var codingPath: [any CodingKey] { PathNode.codingPath(builder, .none) }
    var count: Int { builder.elements.count }

    mutating func encodeNil() throws { builder.appendLeafElement(.null) }
    mutating func encode(_ value: Bool) throws { builder.appendLeafElement(.bool(value)) }
    mutating func encode(_ value: String) throws { builder.appendLeafElement(.string(value)) }

    mutating func encode(_ value: Double) throws {
        builder.appendLeafElement(try builder.context.double(value, parent: builder, component: .index(count)))
    }

    mutating func encode(_ value: Float) throws {
        builder.appendLeafElement(try builder.context.float(value, parent: builder, component: .index(count)))
    }

    mutating func encode(_ value: Int) throws { builder.appendLeafElement(JSONLeaf.integer(value)) }
    mutating func encode(_ value: Int8) throws { builder.appendLeafElement(JSONLeaf.integer(value)) }
    mutating func encode(_ value: Int16) throws { builder.appendLeafElement(JSONLeaf.integer(value)) }
    mutating func encode(_ value: Int32) throws { builder.appendLeafElement(JSONLeaf.integer(value)) }
    mutating func encode(_ value: Int64) throws { builder.appendLeafElement(JSONLeaf.integer(value)) }
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    mutating func encode(_ value: Int128) throws { builder.appendLeafElement(JSONLeaf.integer(value)) }
    mutating func encode(_ value: UInt) throws { builder.appendLeafElement(JSONLeaf.integer(value)) }
    mutating func encode(_ value: UInt8) throws { builder.appendLeafElement(JSONLeaf.integer(value)) }
    mutating func encode(_ value: UInt16) throws { builder.appendLeafElement(JSONLeaf.integer(value)) }
    mutating func encode(_ value: UInt32) throws { builder.appendLeafElement(JSONLeaf.integer(value)) }
    mutating func encode(_ value: UInt64) throws { builder.appendLeafElement(JSONLeaf.integer(value)) }
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    mutating func encode(_ value: UInt128) throws { builder.appendLeafElement(JSONLeaf.integer(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try builder.appendElement(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = builder.nestedElement()
        nested.beginObject()
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(builder: nested))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = builder.nestedElement()
        nested.beginArray()
        return UnkeyedContainer(builder: nested)
    }

    mutating func superEncoder() -> any Encoder {
        builder.nestedElementEncoder()
    }
}
