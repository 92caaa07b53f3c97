extension EncodingContext {
    /// Encodes a value of a ``RedactedInJournal`` type as its placeholder (see
    /// ``Redactor/placeholder(for:)``): the value's own JSON is made only to learn its shape, and
    /// never leaves this function.
    ///
    /// While tracking, a value `==` to the previous one at the same place keeps the previous
    /// placeholder without being encoded; a changed value whose placeholder is the same emits no
    /// operation, so a secret that changes at every step adds nothing to the deltas.
    func encodeRedacted<T: Encodable>(
        _ value: T, info: TypeInfo, previous: JSONValue?, previousNode: ShadowNode?, parent: PathNode?, component: PathComponent
    ) throws -> Encoded {
        if let previous, let previousNode, let equality = info.equality, previousNode.typeID == info.id {
            let shadow = unsafeDowncast(previousNode, to: ValueShadow<T>.self)
            let same = withUnsafePointer(to: value) { new in
                withUnsafePointer(to: shadow.value) { old in equality.same(new, old, size: info.size) }
            }
            if same { return Encoded(json: previous, node: previousNode) }
        }
        // Encoded from scratch and compared with nothing: no operation or node of what is inside.
        let keepsNodes = self.keepsNodes
        let placeholder: JSONValue
        do {
            let (patchesInPlace, operationsBefore, largeBefore, unsharedBefore) = (
                self.patchesInPlace, operations.count, largeContainers, unsharedContainers
            )
            self.keepsNodes = false
            self.patchesInPlace = false
            defer {
                self.keepsNodes = keepsNodes
                self.patchesInPlace = patchesInPlace
                if operations.count > operationsBefore { operations.removeSubrange(operationsBefore...) }
                largeContainers = largeBefore
                unsharedContainers = unsharedBefore
            }
            let encoder = ValueEncoder(
                context: self, parent: parent, component: component, previous: nil, previousNode: nil, ownsOperations: true)
            try value.encode(to: encoder)
            placeholder = Redactor.placeholder(for: try encoder.finish().json)
        }
        if let previous, previous != placeholder {
            emit(.replace(path: PathNode.pointer(parent, component), value: placeholder))
        }
        let node: ShadowNode? = keepsNodes && info.equality != nil ? ValueShadow(value: value, typeID: info.id, children: .none) : nil
        return Encoded(json: placeholder, node: node)
    }
}
