/// Finds the children of a previous value for its ``CapturedShadow``: runs the value's
/// `encode(to:)` and keeps, for each member or element, the child value itself (as another
/// ``CapturedShadow``) instead of encoding it. One level at a time, so a capture costs about as much
/// as the value has direct children.
///
/// Children that are leaves, or whose type is not `Equatable` (or is a class), get no node: the
/// encode that descends there compares them by their previous JSON alone.
final class ShadowCapture: Encoder, SingleValueEncodingContainer {
    fileprivate enum Slot {
        case member(String)
        case element(Int)
    }

    let context: EncodingContext
    private let path: PathNode?
    // Exclusivity is not checked at run time for these properties (see ``ContainerBuilder``).
    @exclusivity(unchecked) private var members: [String: ShadowNode] = [:]
    @exclusivity(unchecked) private var elements: [ShadowNode?] = []
    @exclusivity(unchecked) private var single: ShadowNode?
    @exclusivity(unchecked) private var isArray = false
    @exclusivity(unchecked) private var nested: [(slot: Slot, capture: ShadowCapture)] = []

    private init(context: EncodingContext, path: PathNode?) {
        self.context = context
        self.path = path
    }

    /// The children of `value`, which sits at `path`.
    static func children<Value: Encodable>(of value: Value, context: EncodingContext, path: PathNode?) -> ShadowChildren {
        let capture = ShadowCapture(context: context, path: path)
        // The value encoded without error before, so it does again; if not, it has no children to offer.
        guard (try? value.encode(to: capture)) != nil else { return .none }
        return capture.finish()
    }

    private func finish() -> ShadowChildren {
        for (slot, capture) in nested {
            let children = capture.finish()
            let node = children.isNone ? nil : ShadowNode(typeID: nil, children: children)
            switch slot {
            case .member(let name): members[name] = node
            case .element(let index): elements[index] = node
            }
        }
        if let single { return .single(single) }
        if isArray { return elements.contains { $0 != nil } ? .elements(elements) : .none }
        return members.isEmpty ? .none : .members(members)
    }

    /// The node of a child value: captured in turn when it may be reused, none otherwise.
    fileprivate func node<T: Encodable>(_ value: T) -> ShadowNode? {
        let info = context.typeInfo(T.self)
        guard !info.isLeaf, info.equality != nil, !info.holdsUnshared else { return nil }
        return CapturedShadow(value: value, typeID: info.id, context: context)
    }

    fileprivate func setMember(_ node: ShadowNode?, _ name: String) {
        // Leaves are not stored: only a leaf written over a value (rare) has a node to remove.
        if node != nil || !members.isEmpty { members[name] = node }
        if !nested.isEmpty { nested.removeAll { if case .member(name) = $0.slot { true } else { false } } }
    }

    fileprivate func nestedCapture(_ slot: Slot, key: any CodingKey) -> ShadowCapture {
        let capture = ShadowCapture(context: context, path: PathNode(parent: path, component: .key(key)))
        if case .member(let name) = slot { setMember(nil, name) }
        nested.append((slot, capture))
        return capture
    }

    fileprivate func nestedElement() -> ShadowCapture {
        let index = elements.count
        elements.append(nil)
        let capture = ShadowCapture(context: context, path: PathNode(parent: path, component: .index(index)))
        nested.append((.element(index), capture))
        return capture
    }

    // MARK: Encoder

    var codingPath: [any CodingKey] { PathNode.codingPath(path, .none) }
    var userInfo: [CodingUserInfoKey: Any] { context.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedCapture<Key>(capture: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        isArray = true
        return UnkeyedCapture(capture: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    // MARK: SingleValueEncodingContainer: leaves have no node.

    func encodeNil() {}
    func encode(_ value: Bool) {}
    func encode(_ value: String) {}
    func encode(_ value: Double) {}
    func encode(_ value: Float) {}
    func encode(_ value: Int) {}
    func encode(_ value: Int8) {}
    func encode(_ value: Int16) {}
    func encode(_ value: Int32) {}
    func encode(_ value: Int64) {}
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    func encode(_ value: Int128) {}
    func encode(_ value: UInt) {}
    func encode(_ value: UInt8) {}
    func encode(_ value: UInt16) {}
    func encode(_ value: UInt32) {}
    func encode(_ value: UInt64) {}
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    func encode(_ value: UInt128) {}
    func encode<T: Encodable>(_ value: T) { single = node(value) }

    // MARK: Containers

    private struct KeyedCapture<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let capture: ShadowCapture
        var codingPath: [any CodingKey] { capture.codingPath }

        mutating func encodeNil(forKey key: Key) { capture.setMember(nil, key.stringValue) }
        mutating func encode(_ value: Bool, forKey key: Key) { capture.setMember(nil, key.stringValue) }
        mutating func encode(_ value: String, forKey key: Key) { capture.setMember(nil, key.stringValue) }
        mutating func encode(_ value: Double, forKey key: Key) { capture.setMember(nil, key.stringValue) }
        mutating func encode(_ value: Float, forKey key: Key) { capture.setMember(nil, key.stringValue) }
        mutating func encode(_ value: Int, forKey key: Key) { capture.setMember(nil, key.stringValue) }
        mutating func encode(_ value: Int8, forKey key: Key) { capture.setMember(nil, key.stringValue) }
        mutating func encode(_ value: Int16, forKey key: Key) { capture.setMember(nil, key.stringValue) }
        mutating func encode(_ value: Int32, forKey key: Key) { capture.setMember(nil, key.stringValue) }
        mutating func encode(_ value: Int64, forKey key: Key) { capture.setMember(nil, key.stringValue) }
        @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
        mutating func encode(_ value: Int128, forKey key: Key) { capture.setMember(nil, key.stringValue) }
        mutating func encode(_ value: UInt, forKey key: Key) { capture.setMember(nil, key.stringValue) }
        mutating func encode(_ value: UInt8, forKey key: Key) { capture.setMember(nil, key.stringValue) }
        mutating func encode(_ value: UInt16, forKey key: Key) { capture.setMember(nil, key.stringValue) }
        mutating func encode(_ value: UInt32, forKey key: Key) { capture.setMember(nil, key.stringValue) }
        mutating func encode(_ value: UInt64, forKey key: Key) { capture.setMember(nil, key.stringValue) }
        @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
        mutating func encode(_ value: UInt128, forKey key: Key) { capture.setMember(nil, key.stringValue) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) { capture.setMember(capture.node(value), key.stringValue) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            capture.nestedCapture(.member(key.stringValue), key: key).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            capture.nestedCapture(.member(key.stringValue), key: key).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder { capture.nestedCapture(.member("super"), key: SuperKey()) }
        mutating func superEncoder(forKey key: Key) -> any Encoder { capture.nestedCapture(.member(key.stringValue), key: key) }
    }

    private struct UnkeyedCapture: UnkeyedEncodingContainer {
        let capture: ShadowCapture
        var codingPath: [any CodingKey] { capture.codingPath }
        var count: Int { capture.elements.count }

        mutating func encodeNil() { capture.elements.append(nil) }
        mutating func encode(_ value: Bool) { capture.elements.append(nil) }
        mutating func encode(_ value: String) { capture.elements.append(nil) }
        mutating func encode(_ value: Double) { capture.elements.append(nil) }
        mutating func encode(_ value: Float) { capture.elements.append(nil) }
        mutating func encode(_ value: Int) { capture.elements.append(nil) }
        mutating func encode(_ value: Int8) { capture.elements.append(nil) }
        mutating func encode(_ value: Int16) { capture.elements.append(nil) }
        mutating func encode(_ value: Int32) { capture.elements.append(nil) }
        mutating func encode(_ value: Int64) { capture.elements.append(nil) }
        @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
        mutating func encode(_ value: Int128) { capture.elements.append(nil) }
        mutating func encode(_ value: UInt) { capture.elements.append(nil) }
        mutating func encode(_ value: UInt8) { capture.elements.append(nil) }
        mutating func encode(_ value: UInt16) { capture.elements.append(nil) }
        mutating func encode(_ value: UInt32) { capture.elements.append(nil) }
        mutating func encode(_ value: UInt64) { capture.elements.append(nil) }
        @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
        mutating func encode(_ value: UInt128) { capture.elements.append(nil) }
        mutating func encode<T: Encodable>(_ value: T) { capture.elements.append(capture.node(value)) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            capture.nestedElement().container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { capture.nestedElement().unkeyedContainer() }
        mutating func superEncoder() -> any Encoder { capture.nestedElement() }
    }
}
