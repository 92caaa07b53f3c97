/// The encoders write a ``ChunkedArray`` element by element, as an `Array` (see ``EncodableArray``),
/// and the change encoder compares it with the previous one by what the two share.
///
/// The previous array is kept typed in its shadow node, sharing its full leaves and groups with the
/// caller's but not its list of groups, last group or last leaf (``ChunkedArray/detachingEnds()``):
/// the caller's next append stays in place, and a change elsewhere copies at most one leaf and one
/// group. The array counts as a large collection for its parents (``EncodingContext/countCollection(of:)``),
/// whose nodes then keep no value that would share the list of groups. A new array is compared with
/// the previous one position by position, skipping the leaves and groups the two share unread, so
/// an append costs the last leaf; then:
///
/// - each differing element is encoded against its previous self (a change deep inside is one
///   operation deep inside: `/history/7/memo`);
/// - the elements past the previous end are added, or those past the new end removed, one
///   operation each;
/// - without ``EncodingContext/patchesInPlace``, when most elements changed, the array is replaced
///   whole.
///
/// An insertion or a removal before the end moves the elements after it, which then differ
/// position by position: many operations, or one replacement.
///
/// Elements that are not `Equatable`, or hold objects, go through `encode(to:)` and
/// ``UnkeyedContainer``, which compare element `i` with the previous element `i` by their JSON.
extension ChunkedArray: EncodableArray where Element: Encodable {
    static func encode<T>(
        _ value: T, context: EncodingContext, typeID: ObjectIdentifier, previous: JSONValue?, previousNode: ShadowNode?,
        parent: PathNode?, component: PathComponent
    ) throws -> Encoded? {
        let array = reinterpret(value, as: Self.self)
        let info = context.typeInfo(Element.self)
        let path = PathNode(parent: parent, component: component)  // the elements' parent
        func encodeAll() throws -> [JSONValue] {
            var json: [JSONValue] = []
            json.reserveCapacity(array.count)
            try array.forEachLeaf { leaf, start in
                for offset in leaf.indices {
                    json.append(
                        try context.encode(leaf[offset], info: info, previous: nil, previousNode: nil, parent: path, component: .index(start + offset)).json)
                }
            }
            return json
        }
        guard context.tracking else { return Encoded(json: .array(try encodeAll()), node: nil) }
        guard let equality = info.equality else { return nil }
        // The elements' nodes are not kept: the array keeps its value, and an element's node is made
        // from the previous element when the element changes.
        let keepsNodes = context.keepsNodes
        context.keepsNodes = false
        defer { context.keepsNodes = keepsNodes }
        context.countCollection(of: array.count)
        var node: ShadowNode? {
            guard keepsNodes else { return nil }
            return ValueShadow(value: context.sharesChunkedArrayEnds ? array : array.detachingEnds(), typeID: typeID, children: .none)
        }
        guard let previous else { return Encoded(json: .array(try encodeAll()), node: node) }
        guard let old = (previousNode as? ValueShadow<Self>)?.value, previousNode?.typeID == typeID,
            case .array(let oldJSON) = previous, oldJSON.count == old.count
        else { return nil }

        var changed: [Int] = []
        array.forEachDifference(from: old, below: Swift.min(array.count, old.count), firstDifference: { new, old, start, end in
            var offset = start
            while offset < end, equality.same(new.baseAddress! + offset, old.baseAddress! + offset, size: info.size) { offset += 1 }
            return offset
        }) { changed.append($0) }
        if changed.isEmpty, array.count == old.count { return Encoded(json: previous, node: previousNode) }

        let start = context.operations.count
        let patchOnly = context.patchesInPlace
        // Only rebuilt when it is returned: patching in place, the caller applies the operations.
        var json = patchOnly ? [] : oldJSON
        for index in changed {
            let encoded = try context.encode(
                array[index], info: info, previous: oldJSON[index], previousNode: context.capturedShadow(of: old[index], info: info),
                parent: path, component: .index(index), reusable: false
            ).json
            if !patchOnly { json[index] = encoded }
        }
        if array.count > old.count {
            for index in old.count..<array.count {
                let added = try context.encode(array[index], info: info, previous: nil, previousNode: nil, parent: path, component: .index(index)).json
                if !patchOnly { json.append(added) }
                context.emit(.add(path: PathNode.pointer(path, .index(index)), value: added))
            }
        } else if array.count < old.count {
            if !patchOnly { json.removeSubrange(array.count...) }
            for index in (array.count..<old.count).reversed() { context.emit(.remove(path: PathNode.pointer(path, .index(index)))) }
        }
        if patchOnly {
            context.staleValues += 1
            return Encoded(json: previous, node: node)
        }
        let edits = changed.count + abs(array.count - old.count)
        if edits >= 2, edits * 2 > Swift.max(array.count, old.count) {
            context.operations.removeSubrange(start...)
            context.emit(.replace(path: PathNode.pointer(path, .none), value: .array(json)))
        }
        return Encoded(json: .array(json), node: node)
    }
}

extension ChunkedArray: ValueContainer {
    static var containedTypes: [Any.Type] { [Element.self] }
}
