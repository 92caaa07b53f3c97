extension ContainerBuilder {
    /// Finishes the nested builders, emits the operations that depend on the whole container
    /// (removed members, trailing elements, a whole replacement), and returns the JSON and the
    /// children for the shadow node.
    ///
    /// An encoder that requested no container at all gives `{}`, as `JSONEncoder` writes a nested
    /// value that encoded nothing.
    final func finish() throws -> (json: JSONValue, children: ShadowChildren) {
        if !pending.isEmpty { try finishPending() }
        let json: JSONValue =
            switch shape {
            case .empty: .object([:])
            case .object: .object(members)
            case .array: .array(elements)
            case .value: single
            }
        if context.tracking, shape == .array { context.countCollection(of: elements.count) }  // An array or a set.
        if let previous {
            if recording {
                if shape == .object { finishObjectOperations() } else { finishArrayOperations() }
            } else if shape != .value, json != previous {
                // A different kind of value than before (or a value written twice): replace it whole.
                // A single value emitted its own operations when it was written.
                context.emit(.replace(path: PathNode.pointer(self, .none), value: json))
            }
        }
        return (json, children)
    }

    private var children: ShadowChildren {
        guard context.keepsNodes else { return .none }
        switch shape {
        case .object: return memberNodes.isEmpty ? .none : .members(memberNodes)
        case .array: return hasElementNodes ? .elements(elementNodes) : .none
        case .value: return singleNode.map(ShadowChildren.single) ?? .none
        case .empty: return .none
        }
    }

    private func finishPending() throws {
        let nested = pending
        pending = []
        for (slot, builder, forced) in nested {
            let (json, children) = try builder.finish()
            var node: ShadowNode?
            if context.keepsNodes, !children.isNone { node = ShadowNode(typeID: nil, children: children) }
            switch slot {
            case .member(let name):
                members[name] = json
                if context.keepsNodes { memberNodes[name] = node }
                if recording, forced || builder.previous == nil {
                    context.emit(.add(path: pointer(.key(MemberKey(name))), value: json))
                }
            case .element(let index):
                // Elements past the previous end are added by `finishArrayOperations()`.
                elements[index] = json
                if context.keepsNodes {
                    elementNodes[index] = node
                    if node != nil { hasElementNodes = true }
                }
            }
        }
    }

    private func finishObjectOperations() {
        var removed: [String] = []
        if members.count - addedMembers != previousMembers.count {
            removed = previousMembers.keys.filter { members[$0] == nil }
                .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for name in removed { context.emit(.remove(path: pointer(.key(MemberKey(name))))) }
        }
        guard ownsOperations else { return }
        let changes = changedMembers + removed.count
        if changes >= 2, changes * 2 > max(members.count, previousMembers.count), containerMembers == 0, !holdsStaleJSON {
            // Most members changed and what did not is small: one replacement says it shorter.
            context.operations.removeSubrange(operationsStart...)
            context.emit(.replace(path: PathNode.pointer(self, .none), value: .object(members)))
            return
        }
        sortOperationsByMember()
    }

    /// Orders this object's operations by member (keeping each member's own operations in order),
    /// so that a patch does not depend on a dictionary's iteration order. Operations on different
    /// members of an object are independent, so any such order applies the same.
    private func sortOperationsByMember() {
        let count = context.operations.count - operationsStart
        guard count >= 2 else { return }
        var depth = 0
        var node: PathNode? = self
        while let current = node {
            if current.component.token != nil { depth += 1 }
            node = current.parent
        }
        let slice = context.operations[operationsStart...]
        func member(_ operation: JSONPatch.Operation) -> String {
            let tokens = operation.path.tokens
            return depth < tokens.count ? tokens[depth] : ""
        }
        let sorted = slice.enumerated().sorted { lhs, rhs in
            let (left, right) = (member(lhs.element), member(rhs.element))
            if left != right { return left.utf8.lexicographicallyPrecedes(right.utf8) }
            return lhs.offset < rhs.offset
        }
        context.operations.replaceSubrange(operationsStart..., with: sorted.map(\.element))
    }

    private func finishArrayOperations() {
        let newCount = elements.count
        let oldCount = previousElements.count
        let changes = changedElements + abs(newCount - oldCount)
        if ownsOperations, changes >= 2, changes * 2 > max(newCount, oldCount), !holdsStaleJSON {
            // Most of the array changed: one replacement is shorter than the edits.
            context.operations.removeSubrange(operationsStart...)
            context.emit(.replace(path: PathNode.pointer(self, .none), value: .array(elements)))
            return
        }
        if oldCount > newCount {
            for index in stride(from: oldCount - 1, through: newCount, by: -1) {
                context.emit(.remove(path: pointer(.index(index))))
            }
        } else {
            for index in oldCount..<newCount {
                context.emit(.add(path: pointer(.index(index)), value: elements[index]))
            }
        }
    }
}

extension ShadowChildren {
    var isNone: Bool {
        if case .none = self { return true }
        return false
    }
}
