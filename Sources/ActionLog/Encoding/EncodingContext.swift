/// The state shared by all encoders and containers of one ``JSONValueEncoder`` call or one
/// ``ChangeEncoder``: the options, the per-type cache, and the patch operations found so far.
///
/// It also holds the one function every value goes through, ``encode(_:info:previous:previousNode:parent:component:reusable:isRoot:)``,
/// which writes leaves directly, reuses an unchanged previous value, takes the array fast path, or
/// calls the value's own `encode(to:)` with a fresh ``ValueEncoder``.
final class EncodingContext {
    /// Whether encoders build a shadow tree and may be given previous values to compare with.
    /// `false` for ``JSONValueEncoder``, `true` for ``ChangeEncoder``.
    let tracking: Bool
    /// Whether encoders build shadow nodes for what they encode now. Starts as ``tracking``; off
    /// while encoding the elements of an array whose elements' nodes are made on demand instead
    /// (see ``CapturedShadow``).
    @exclusivity(unchecked) var keepsNodes: Bool
    /// Whether a changed array that only needs operations (see ``ChangeEncoder/patchesPreviousJSON``)
    /// returns its previous JSON instead of a rebuilt one: the caller applies the operations to the
    /// previous JSON in place. Off for the mixed edits of an array, whose diff needs exact JSON.
    @exclusivity(unchecked) var patchesInPlace = false
    /// Whether a shadow may share the buffers a `ChunkedArray` changes in place (its list of groups,
    /// last group and last leaf) with the value encoded; see ``ChangeEncoder/sharesChunkedArrayEnds``.
    @exclusivity(unchecked) var sharesChunkedArrayEnds = false
    /// How many values this encode returned as their previous JSON although they changed
    /// (``patchesInPlace``): a container holding one has inexact JSON and is never replaced whole.
    @exclusivity(unchecked) var staleValues = 0
    /// Set when inexact JSON would have gone into an operation (a member written twice): the
    /// encode must be redone with exact JSON.
    @exclusivity(unchecked) var needsExactJSON = false
    /// Where the current encode expects changes (see ``ChangeHints``); `nil` compares everything.
    @exclusivity(unchecked) var hints: ChangeHints?
    /// How many array elements the current encode took as unchanged, on the word of ``hints``,
    /// without comparing them.
    @exclusivity(unchecked) var assumedUnchanged = 0
    /// How dates are written.
    let dates: DateConvention
    /// What `Encoder.userInfo` returns.
    let userInfo: [CodingUserInfoKey: Any]
    /// The patch operations found by the current encode, in the order they apply.
    @exclusivity(unchecked) var operations: [JSONPatch.Operation] = []

    // Exclusivity is not checked at run time for these properties (see ``ContainerBuilder``): they
    // are touched for every value encoded, one access at a time.
    @exclusivity(unchecked) private var types: [ObjectIdentifier: TypeInfo] = [:]
    @exclusivity(unchecked) private var recentType: TypeInfo?

    /// How many captured shadows ``capturedShadow(of:info:)`` remembers per type; 0 for none (tests
    /// compare the two).
    var capturedShadowCapacity = 128

    /// How many *large* collections (see ``largeCount``) the current encode has written so far. A
    /// value whose `encode(to:)` made it grow holds one, and its shadow node keeps no value.
    @exclusivity(unchecked) var largeContainers = 0
    /// How many collections of more than ``sharedCount`` elements the current encode has written so
    /// far (large ones included). A value whose `encode(to:)` made it grow holds one: its shadow
    /// node keeps no value, so that it shares no such collection with the caller.
    @exclusivity(unchecked) var unsharedContainers = 0
    /// Work left for after the current encode succeeds: the ``OwnedArrayShadow``s taking over their
    /// previous buffer, edited in place.
    @exclusivity(unchecked) var afterSuccess: [() -> Void] = []

    /// Above this many elements (or, for a dictionary, members), a collection is *large*: an array
    /// of values that hold one is no longer compared typed, element by element, but encoded through
    /// `encode(to:)` (``TypeInfo/holdsLarge``), since its elements would share the large collections
    /// with the caller. Up to this many, the elements of such an array keep their collections shared
    /// with the caller, whose in-place change to one copies at most this many elements (~0.3 µs for
    /// 16 cart items). What the encoder shares with the caller otherwise is ``sharedCount``'s to say.
    static var largeCount: Int { 16 }

    /// Above this many elements (or members), a collection is not shared with the caller either:
    /// the change encoder keeps no value that holds one, and an array gets a copy of the encoder's
    /// own (see ``OwnedArrayShadow``), so that the caller's next in-place mutation of a cart of 10
    /// items copies nothing. An array of up to this many elements keeps the caller's buffer. Arrays
    /// of values that hold such collections are still kept typed up to ``largeCount``: the elements
    /// share their small collections with the caller, whose copy of one costs at most that many
    /// element copies.
    static var sharedCount: Int { 4 }

    /// Counts a collection of `count` elements (or members) the current encode has written: in
    /// ``unsharedContainers`` above ``sharedCount``, and in ``largeContainers`` too above ``largeCount``.
    @inline(__always) func countCollection(of count: Int) {
        guard count > Self.sharedCount else { return }
        unsharedContainers += 1
        if count > Self.largeCount { largeContainers += 1 }
    }

    init(tracking: Bool, userInfo: [CodingUserInfoKey: Any], dates: DateConvention = .iso8601) {
        self.tracking = tracking
        self.dates = dates
        self.keepsNodes = tracking
        self.userInfo = userInfo
    }

    /// The cached decisions for `type`; the most recent type is checked before the dictionary.
    func typeInfo<T>(_ type: T.Type) -> TypeInfo {
        let id = ObjectIdentifier(type)
        if let recentType, recentType.id == id { return recentType }
        let info = types[id] ?? TypeInfo(type, tracking: tracking)
        types[id] = info
        recentType = info
        return info
    }

    /// Records a patch operation.
    @inline(__always)
    func emit(_ operation: JSONPatch.Operation) {
        operations.append(operation)
    }

    /// Encodes `value`, found at `component` below `parent`.
    ///
    /// When `previous` is given (only in tracking mode), it is the JSON of the previous value at the
    /// same place, and the operations that turn it into the new JSON are emitted — except an `add`
    /// of the whole value, which is the caller's job since only it knows the place is new.
    ///
    /// - Parameters:
    ///   - value: the value to encode.
    ///   - info: the cached ``TypeInfo`` of `T`, when the caller already has it.
    ///   - previous: the JSON of the previous value at this place, if any.
    ///   - previousNode: the shadow node of the previous value at this place, if any.
    ///   - parent: the container the value is in, for paths.
    ///   - component: the key or index of the value in `parent`.
    ///   - reusable: `false` to always descend even if the previous value is equal (the root).
    ///   - isRoot: whether this is the top-level value, which must encode something.
    /// - Returns: the JSON and the shadow node of the value.
    /// - Throws: `EncodingError.invalidValue` for a non-finite float, a NaN `Decimal`, or a root
    ///   value that encodes nothing; any error the value's `encode(to:)` throws.
    func encode<T: Encodable>(
        _ value: T, info: TypeInfo? = nil, previous: JSONValue?, previousNode: ShadowNode?,
        parent: PathNode?, component: PathComponent, reusable: Bool = true, isRoot: Bool = false
    ) throws -> Encoded {
        let info = info ?? typeInfo(T.self)
        if info.isRedacted {
            return try encodeRedacted(value, info: info, previous: previous, previousNode: previousNode, parent: parent, component: component)
        }
        var reusable = reusable
        switch info.kind {
        case .other:
            break
        case .array(let arrayType):
            // The fast path compares arrays element by element; when it declines, the elements
            // cannot be compared (or are objects), so neither can the arrays.
            reusable = false
            if let encoded = try arrayType.encode(
                value, context: self, typeID: info.id, previous: previous, previousNode: previousNode,
                parent: parent, component: component)
            {
                return encoded
            }
        default:
            let json = try leaf(value, kind: info.kind, parent: parent, component: component)
            if let previous, previous != json { emit(.replace(path: PathNode.pointer(parent, component), value: json)) }
            return Encoded(json: json, node: nil)
        }

        if reusable, let previous, let previousNode, let equality = info.equality, previousNode.typeID == info.id {
            let shadow = unsafeDowncast(previousNode, to: ValueShadow<T>.self)
            let same = withUnsafePointer(to: value) { new in
                withUnsafePointer(to: shadow.value) { old in equality.same(new, old, size: info.size) }
            }
            if same { return Encoded(json: previous, node: previousNode) }
        }

        let encoder = ValueEncoder(
            context: self, parent: parent, component: component, previous: previous, previousNode: previousNode,
            ownsOperations: true)
        encoder.expectedMembers = info.memberCount
        let largeBefore = largeContainers
        let unsharedBefore = unsharedContainers
        try value.encode(to: encoder)
        if encoder.shape == .object { info.memberCount = encoder.members.count }
        if isRoot, encoder.shape == .empty {
            throw EncodingError.invalidValue(
                value, .init(codingPath: [], debugDescription: "Top-level \(T.self) did not encode any values."))
        }
        let (json, children) = try encoder.finish()
        if info.isHashedCollection, tracking, case .object(let members) = json {
            countCollection(of: members.count)  // A dictionary (a set wrote an array, counted by its container).
        }
        if largeContainers != largeBefore, tracking { info.holdsLargeContainers() }
        let unshared = unsharedContainers != unsharedBefore
        if unshared, tracking { info.holdsUnsharedContainers() }
        return Encoded(json: json, node: node(for: value, info: info, children: children, holdsLarge: unshared))
    }

    /// A ``CapturedShadow`` for `value`, a previous value of the type of `info`: the one made before
    /// for a value with the same bytes, if there is one, with its children already captured.
    ///
    /// A value that changed often changes back (a toggle, a quantity going up and down), and then
    /// its capture — running its `encode(to:)` once more — is not needed: the same bytes are the
    /// same value, holding the same objects, which the remembered node keeps alive. At most
    /// ``capturedShadowCapacity`` are remembered per type.
    func capturedShadow<T: Encodable>(of value: T, info: TypeInfo) -> ShadowNode {
        guard !info.holdsUnshared else { return CapturedShadow(value: value, typeID: info.id, context: self) }
        guard capturedShadowCapacity > 0, let key = Bits(value) else {
            return CapturedShadow(value: value, typeID: info.id, context: self)
        }
        if let node = info.capturedShadows[key] { return node }
        let node = CapturedShadow(value: value, typeID: info.id, context: self)
        if info.capturedShadows.count >= capturedShadowCapacity { info.capturedShadows.removeAll(keepingCapacity: true) }
        info.capturedShadows[key] = node
        return node
    }

    /// The shadow node for a value of type `T` with `children`: with the value when it may be
    /// reused, without it when only its children matter, none when there is nothing to keep.
    ///
    /// A value that holds a large container (`holdsLarge`, see ``largeCount``) is not kept: its node
    /// has only its children, and no type, so that it is never mistaken for a ``ValueShadow``.
    @inline(__always)
    func node<T>(for value: T, info: TypeInfo, children: ShadowChildren, holdsLarge: Bool = false) -> ShadowNode? {
        guard keepsNodes else { return nil }
        if holdsLarge { return children.isNone ? nil : ShadowNode(typeID: nil, children: children) }
        if info.equality != nil { return ValueShadow(value: value, typeID: info.id, children: children) }
        if case .none = children { return nil }
        return ShadowNode(typeID: info.id, children: children)
    }
}

/// A value just encoded: its JSON and, when the encoder keeps a shadow tree, its node.
struct Encoded {
    var json: JSONValue
    var node: ShadowNode?
}
