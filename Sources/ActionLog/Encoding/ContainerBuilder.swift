/// A JSON value under construction — an object, an array or a single value — that the containers
/// of one encoder (or one nested container) write into, and that compares what is written with the
/// previous JSON at the same place.
///
/// When the previous JSON is a container of the same kind, the builder is *recording*: every write
/// is compared with the previous member or element and the differences become patch operations at
/// once; members that were not written again are removed and elements past the new end removed or
/// added when the builder finishes. Otherwise the value is built fresh and, if there was a previous
/// value, replaced whole.
class ContainerBuilder: PathNode {
    enum Shape {
        case empty, object, array, value
    }

    /// Where a nested container or super encoder goes in its owner.
    enum Slot {
        case member(String)
        case element(Int)
    }

    final let context: EncodingContext
    /// The previous JSON at this place; only in tracking mode.
    final let previous: JSONValue?
    /// The previous shadow node at this place.
    final let previousNode: ShadowNode?
    /// Whether every operation emitted between the first container request and ``finish()``
    /// belongs to this value, so that they may be reordered or dropped for a whole replacement.
    /// True for an encoder made for one value; false for nested containers and super encoders,
    /// whose writes may interleave with their owner's.
    final let ownsOperations: Bool

    // The state below is written for every value encoded, by this builder and its containers only,
    // one access at a time. The runtime's exclusivity checks on it found nothing and cost the
    // recorder's writer about 7% of its time per entry (a cart of 10 items), so they are off.

    @exclusivity(unchecked) final var shape = Shape.empty
    /// How many members to make room for when the container is an object.
    @exclusivity(unchecked) final var expectedMembers = 0
    /// Whether writes are compared with the previous JSON: it is a container of the same kind.
    @exclusivity(unchecked) final var recording = false
    /// `context.operations.count` when the container was first requested.
    @exclusivity(unchecked) final var operationsStart = 0
    /// `context.staleValues` when the container was first requested.
    @exclusivity(unchecked) final var staleValuesStart = 0

    @exclusivity(unchecked) final var members: [String: JSONValue] = [:]
    @exclusivity(unchecked) final var memberNodes: [String: ShadowNode] = [:]
    @exclusivity(unchecked) final var previousMembers: [String: JSONValue] = [:]
    @exclusivity(unchecked) final var previousMemberNodes: [String: ShadowNode] = [:]
    /// Members written that the previous object did not have.
    @exclusivity(unchecked) final var addedMembers = 0
    /// Members written that differ from the previous ones (added ones included).
    @exclusivity(unchecked) final var changedMembers = 0
    /// Members written that are objects or arrays and not mostly rewritten: unchanged ones, and
    /// changed ones with few edits for their size (an append to a long list). While there are none,
    /// an object that mostly changed is replaced whole; otherwise the replacement would repeat what
    /// the small edits inside leave as it was.
    @exclusivity(unchecked) final var containerMembers = 0

    @exclusivity(unchecked) final var elements: [JSONValue] = []
    @exclusivity(unchecked) final var elementNodes: [ShadowNode?] = []
    @exclusivity(unchecked) final var hasElementNodes = false
    @exclusivity(unchecked) final var previousElements: [JSONValue] = []
    @exclusivity(unchecked) final var previousElementNodes: [ShadowNode?] = []
    /// Elements before the previous end whose writes emitted operations.
    @exclusivity(unchecked) final var changedElements = 0

    @exclusivity(unchecked) final var single: JSONValue = .null
    @exclusivity(unchecked) final var singleNode: ShadowNode?

    /// Nested containers and super encoders, finished with this builder. `forced` means the slot
    /// was written twice, so the final value is added whatever the previous value was.
    @exclusivity(unchecked) final var pending: [(slot: Slot, builder: ContainerBuilder, forced: Bool)] = []

    init(
        context: EncodingContext, parent: PathNode?, component: PathComponent, previous: JSONValue?,
        previousNode: ShadowNode?, ownsOperations: Bool
    ) {
        self.context = context
        self.previous = previous
        self.previousNode = previousNode
        self.ownsOperations = ownsOperations
        super.init(parent: parent, component: component)
    }

    // MARK: Starting

    final func beginObject() {
        if shape == .object { return }
        precondition(shape == .empty, "Attempt to request a keyed container from an encoder that already holds \(shape).")
        shape = .object
        operationsStart = context.operations.count
        staleValuesStart = context.staleValues
        guard case .object(let old)? = previous else {
            if expectedMembers > 0 { members.reserveCapacity(expectedMembers) }
            return
        }
        members.reserveCapacity(old.count)
        recording = true
        previousMembers = old
        previousMemberNodes = previousNode?.children(at: self).members ?? [:]
    }

    final func beginArray() {
        if shape == .array { return }
        precondition(shape == .empty, "Attempt to request an unkeyed container from an encoder that already holds \(shape).")
        shape = .array
        operationsStart = context.operations.count
        staleValuesStart = context.staleValues
        guard case .array(let old)? = previous else { return }
        recording = true
        previousElements = old
        previousElementNodes = previousNode?.children(at: self).elements ?? []
    }

    final func beginValue() {
        precondition(shape == .empty, "Attempt to encode a single value through an encoder that already holds \(shape).")
        shape = .value
    }

    /// Whether a value below returned its previous JSON although it changed: then this container's
    /// JSON is not exact, and only the operations say what changed (``EncodingContext/patchesInPlace``).
    final var holdsStaleJSON: Bool { context.staleValues != staleValuesStart }

    // MARK: Paths

    final func pointer(_ component: PathComponent) -> JSONPointer {
        PathNode.pointer(self, component)
    }

    // MARK: Members

    /// The previous JSON and node for member `name`, when recording.
    @inline(__always)
    final func previousMember(_ name: String) -> (json: JSONValue?, node: ShadowNode?) {
        guard recording else { return (nil, nil) }
        return (previousMembers[name], previousMemberNodes.isEmpty ? nil : previousMemberNodes[name])
    }

    /// Stores member `name`, whose own operations (those emitted since `operationsBefore`) are
    /// already emitted; adds it when it is new.
    ///
    /// A member written twice keeps the last value. Its operations assumed the previous value,
    /// which the first write may have replaced, so they are dropped for an `add` of the final value.
    final func storeMember(_ json: JSONValue, node: ShadowNode?, name: String, hadPrevious: Bool, operationsBefore: Int) {
        let duplicate = members.updateValue(json, forKey: name) != nil
        if duplicate, !pending.isEmpty { pending.removeAll { if case .member(name) = $0.slot { true } else { false } } }
        if context.keepsNodes {
            if let node { memberNodes[name] = node } else if duplicate { memberNodes[name] = nil }
        }
        guard recording else { return }
        let changed = context.operations.count != operationsBefore
        if duplicate {
            if context.patchesInPlace { context.needsExactJSON = true }
            context.operations.removeSubrange(operationsBefore...)
            context.emit(.add(path: pointer(.key(MemberKey(name))), value: json))
        } else if !hadPrevious {
            context.emit(.add(path: pointer(.key(MemberKey(name))), value: json))
            addedMembers += 1
        }
        let isNew = changed || duplicate || !hadPrevious
        if isNew { changedMembers += 1 }
        let size: Int
        switch json {
        case .object(let members): size = members.count
        case .array(let elements): size = elements.count
        default: return
        }
        // A changed container counts when its edits are few for its size: replacing the object
        // whole would repeat the rest of it.
        if !isNew || (changed && !duplicate && hadPrevious && (context.operations.count - operationsBefore) * 2 < size) {
            containerMembers += 1
        }
    }

    /// Stores a leaf member, emitting its replacement or addition.
    final func storeLeafMember(_ json: JSONValue, name: String) {
        let before = context.operations.count
        var hadPrevious = false
        if recording, let old = previousMembers[name] {
            hadPrevious = true
            if old != json { context.emit(.replace(path: pointer(.key(MemberKey(name))), value: json)) }
        }
        storeMember(json, node: nil, name: name, hadPrevious: hadPrevious, operationsBefore: before)
    }

    /// Registers a nested container for member `name`, finished with this builder. A second request
    /// for the same member returns the first builder when it has the same shape.
    final func nestedMember(_ name: String, key: any CodingKey, shape: Shape) -> ContainerBuilder {
        if let index = pending.firstIndex(where: { if case .member(name) = $0.slot { true } else { false } }),
            pending[index].builder.shape == shape, !(pending[index].builder is ValueEncoder)
        {
            return pending[index].builder
        }
        return addMember(name) { old, oldNode in
            ContainerBuilder(context: context, parent: self, component: .key(key), previous: old, previousNode: oldNode, ownsOperations: false)
        }
    }

    /// Registers a super encoder for member `name`, finished with this builder.
    final func nestedMemberEncoder(_ name: String, key: any CodingKey) -> ValueEncoder {
        addMember(name) { old, oldNode in
            ValueEncoder(context: context, parent: self, component: .key(key), previous: old, previousNode: oldNode, ownsOperations: false)
        }
    }

    /// Adds the builder `make` returns, given the member's previous value and node, as member `name`.
    private final func addMember<Builder: ContainerBuilder>(
        _ name: String, _ make: (_ previous: JSONValue?, _ previousNode: ShadowNode?) -> Builder
    ) -> Builder {
        // A placeholder until the builder finishes. A member written before starts afresh.
        let duplicate = members.updateValue(.null, forKey: name) != nil
        if duplicate { pending.removeAll { if case .member(name) = $0.slot { true } else { false } } }
        let (old, oldNode) = duplicate ? (nil, nil) : previousMember(name)
        let builder = make(old, oldNode)
        if recording, old == nil, !duplicate { addedMembers += 1 }
        containerMembers += 1  // not known yet: never replaced whole
        pending.append((.member(name), builder, duplicate))
        return builder
    }

    // MARK: Elements

    /// Encodes the next element through the generic path.
    final func appendElement<T: Encodable>(_ value: T) throws {
        let index = elements.count
        let old = recording && index < previousElements.count ? previousElements[index] : nil
        let oldNode = old != nil && index < previousElementNodes.count ? previousElementNodes[index] : nil
        let before = context.operations.count
        let encoded = try context.encode(value, previous: old, previousNode: oldNode, parent: self, component: .index(index))
        if context.operations.count != before { changedElements += 1 }
        appendElement(encoded.json, node: encoded.node)
    }

    /// Appends a leaf element, emitting its replacement when it differs from the previous one.
    final func appendLeafElement(_ json: JSONValue) {
        let index = elements.count
        if recording, index < previousElements.count, previousElements[index] != json {
            context.emit(.replace(path: pointer(.index(index)), value: json))
            changedElements += 1
        }
        appendElement(json, node: nil)
    }

    @inline(__always)
    final func appendElement(_ json: JSONValue, node: ShadowNode?) {
        elements.append(json)
        if context.keepsNodes {
            elementNodes.append(node)
            if node != nil { hasElementNodes = true }
        }
    }

    /// Registers a nested container for the next element, finished with this builder.
    final func nestedElement() -> ContainerBuilder {
        addElement { index, old, oldNode in
            ContainerBuilder(context: context, parent: self, component: .index(index), previous: old, previousNode: oldNode, ownsOperations: false)
        }
    }

    /// Registers a super encoder for the next element, finished with this builder.
    final func nestedElementEncoder() -> ValueEncoder {
        addElement { index, old, oldNode in
            ValueEncoder(context: context, parent: self, component: .index(index), previous: old, previousNode: oldNode, ownsOperations: false)
        }
    }

    /// Adds the builder `make` returns, given the element's index, previous value and node, as the
    /// next element.
    private final func addElement<Builder: ContainerBuilder>(
        _ make: (_ index: Int, _ previous: JSONValue?, _ previousNode: ShadowNode?) -> Builder
    ) -> Builder {
        let index = elements.count
        let old = recording && index < previousElements.count ? previousElements[index] : nil
        let oldNode = old != nil && index < previousElementNodes.count ? previousElementNodes[index] : nil
        let builder = make(index, old, oldNode)
        appendElement(.null, node: nil)  // a placeholder until the builder finishes
        pending.append((.element(index), builder, false))
        return builder
    }
}
