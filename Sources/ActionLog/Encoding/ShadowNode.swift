/// What one encode left behind at one place of the value, so that the next encode can skip what
/// did not change: the Swift value that was there (when its type is `Equatable`) and the nodes of
/// its children. Together the nodes form the *shadow tree* of ``ChangeEncoder``.
///
/// A node never holds JSON: the JSON of a place is read from its parent's JSON (an object member or
/// an array element), so the tree and the JSON cannot drift apart. Nodes do not change (but for a
/// ``CapturedShadow`` finding its children once); an encode builds new nodes along the paths that
/// changed and shares every other node with the previous tree.
class ShadowNode {
    /// `ObjectIdentifier` of the type whose `encode(to:)` produced the node; `nil` for a nested
    /// container or a super encoder, which have no value of their own.
    final let typeID: ObjectIdentifier?
    private final let storedChildren: ShadowChildren

    init(typeID: ObjectIdentifier?, children: ShadowChildren) {
        self.typeID = typeID
        self.storedChildren = children
    }

    /// The nodes of the children that were encoded through the generic `encode(_:)` methods.
    /// Leaves (numbers, strings, `Date`, `Data`, …) have no node: their JSON says everything.
    ///
    /// - Parameter path: where the node is, for the coding path of a ``CapturedShadow``'s capture.
    func children(at path: PathNode?) -> ShadowChildren {
        storedChildren
    }
}

/// A shadow node that also keeps the value, for a type that is `Equatable` and holds no objects
/// (see ``TypeInfo/equality``).
///
/// The next encode compares the new value at the same place with ``value`` and, when they are
/// equal, reuses the previous JSON without calling `encode(to:)`.
class ValueShadow<Value>: ShadowNode {
    final let value: Value

    init(value: Value, typeID: ObjectIdentifier, children: ShadowChildren) {
        self.value = value
        super.init(typeID: typeID, children: children)
    }
}

/// A shadow node made from a previous value alone, whose children are found when first asked
/// for, by running the value's `encode(to:)` through a ``ShadowCapture``.
///
/// Arrays of `Equatable` elements keep their previous value typed, not one node per element;
/// when an element changed, its node is made from the previous element this way. Only values of
/// `Equatable` types that hold no objects get one: their children cannot have changed since.
final class CapturedShadow<Value: Encodable>: ValueShadow<Value> {
    /// Unowned: the context remembers captured shadows (``TypeInfo/capturedShadows``), and nodes
    /// never outlive the encoder whose context made them.
    private unowned let context: EncodingContext
    @exclusivity(unchecked) private var captured: ShadowChildren?

    init(value: Value, typeID: ObjectIdentifier, context: EncodingContext) {
        self.context = context
        super.init(value: value, typeID: typeID, children: .none)
    }

    override func children(at path: PathNode?) -> ShadowChildren {
        if let captured { return captured }
        let children = ShadowCapture.children(of: value, context: context, path: path)
        captured = children
        return children
    }
}

/// The children of a shadow node, by the kind of container its value wrote.
enum ShadowChildren {
    /// No child has a node.
    case none
    /// A keyed container: the nodes of its members, by key.
    case members([String: ShadowNode])
    /// An unkeyed container: one entry per element (`nil` for a leaf), or an empty array when no
    /// element has a node.
    case elements([ShadowNode?])
    /// A single-value container that encoded a value with a node.
    case single(ShadowNode)

    var members: [String: ShadowNode] {
        if case .members(let nodes) = self { return nodes }
        return [:]
    }

    var elements: [ShadowNode?] {
        if case .elements(let nodes) = self { return nodes }
        return []
    }

    var single: ShadowNode? {
        if case .single(let node) = self { return node }
        return nil
    }
}
