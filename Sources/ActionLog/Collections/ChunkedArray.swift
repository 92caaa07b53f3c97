/// An array for state that grows with every action — a history, a feed, a chat, an undo stack —
/// whose copies share everything but the part that changed.
///
/// A recorder holds each state it is handed until its writer has read it. With a plain `Array`, a
/// reducer that appends to an array the writer still holds copies the whole array first
/// (copy-on-write): the dispatch costs the history's length, not the change. A `ChunkedArray` keeps
/// its elements in leaves of 64, grouped by 64 (4,096 elements a group); a copy shares them all, and
/// a change copies only what it touches, when shared: the leaf (at most 64 elements), its group (64
/// references) and the list of groups (one reference per 4,096 elements: 25 at 100,000 elements).
/// The change encoder compares two of them by their shared leaves and groups, so the writer's work
/// per entry is the change too, not the length.
///
/// It is encoded and decoded exactly as an `Array` (a JSON array), so a state can switch from one
/// to the other without changing its journal or its golden files.
///
/// ```swift
/// struct Ledger: Codable, Equatable {
///     var balanceCents = 0
///     var history: ChunkedArray<Line> = []
/// }
///
/// state.history.append(Line(memo: "coffee", amountCents: -350))   // copies at most 64 lines
/// ```
///
/// Appending, removing the last element and replacing an element in place cost the same at any
/// length. Inserting or removing elsewhere moves the elements after that place, as `Array` does.
/// Reading an element goes through two small arrays more than `Array` does.
public struct ChunkedArray<Element> {
    /// Groups of leaves: every leaf holds ``leafCapacity`` elements and every group
    /// ``groupCapacity`` leaves, except the last ones.
    @usableFromInline var groups: [[[Element]]]
    /// The number of elements.
    @usableFromInline var storedCount: Int

    /// The number of elements.
    @inlinable public var count: Int { storedCount }

    /// Elements per leaf.
    @inlinable static var leafCapacity: Int { 64 }
    /// Leaves per group.
    @inlinable static var groupCapacity: Int { 64 }
    /// Elements per group.
    @inlinable static var groupElements: Int { leafCapacity * groupCapacity }

    /// An empty array.
    @inlinable public init() {
        groups = []
        storedCount = 0
    }

    /// An array of `elements`, in order.
    ///
    /// - Parameter elements: the elements.
    public init<S: Sequence>(_ elements: S) where S.Element == Element {
        self.init()
        for element in elements { append(element) }
    }

    /// Adds `element` at the end. Copies at most one leaf, one group and the list of groups, and
    /// only those another copy shares.
    ///
    /// - Parameter element: the element to add.
    @inlinable public mutating func append(_ element: Element) {
        if count % Self.groupElements == 0 {
            var group: [[Element]] = []
            group.reserveCapacity(Self.groupCapacity)
            group.append(Self.leaf(startingWith: element))
            groups.append(group)
        } else if count % Self.leafCapacity == 0 {
            groups[groups.count - 1].append(Self.leaf(startingWith: element))
        } else {
            let group = groups.count - 1
            groups[group][groups[group].count - 1].append(element)
        }
        storedCount += 1
    }

    /// A leaf holding `element`, allocated full-size: appends fill it in place.
    @inlinable static func leaf(startingWith element: Element) -> [Element] {
        var leaf: [Element] = []
        leaf.reserveCapacity(leafCapacity)
        leaf.append(element)
        return leaf
    }

    /// Removes and returns the last element. The array must not be empty.
    ///
    /// - Returns: the element removed.
    @inlinable @discardableResult
    public mutating func removeLast() -> Element {
        precondition(count > 0, "removeLast() on an empty ChunkedArray")
        let group = groups.count - 1
        let leaf = groups[group].count - 1
        let element = groups[group][leaf].removeLast()
        if groups[group][leaf].isEmpty {
            groups[group].removeLast()
            if groups[group].isEmpty { groups.removeLast() }
        }
        storedCount -= 1
        return element
    }

    /// The place of the element at `index`: its group, its leaf in the group, its offset in the leaf.
    @inlinable static func place(of index: Int) -> (group: Int, leaf: Int, offset: Int) {
        (index / groupElements, index % groupElements / leafCapacity, index % leafCapacity)
    }
}

// MARK: - Collection

extension ChunkedArray: RandomAccessCollection, MutableCollection {
    /// 0.
    @inlinable public var startIndex: Int { 0 }
    /// ``count``.
    @inlinable public var endIndex: Int { count }

    /// The element at `position`. Setting it copies at most one leaf, one group and the list of
    /// groups, and only those another copy shares.
    ///
    /// - Parameter position: an index below ``count``.
    @inlinable public subscript(position: Int) -> Element {
        get {
            precondition(position >= 0 && position < count, "ChunkedArray index \(position) out of range 0..<\(count)")
            let (group, leaf, offset) = Self.place(of: position)
            return groups[group][leaf][offset]
        }
        set {
            precondition(position >= 0 && position < count, "ChunkedArray index \(position) out of range 0..<\(count)")
            let (group, leaf, offset) = Self.place(of: position)
            groups[group][leaf][offset] = newValue
        }
    }
}

extension ChunkedArray: RangeReplaceableCollection {
    /// Replaces the elements in `subrange` with `newElements`. At the end of the array this costs the
    /// elements added or removed; elsewhere, the elements after `subrange` move too.
    ///
    /// ```swift
    /// history.replaceSubrange(0..<2, with: [first])   // moves every element after the second
    /// ```
    ///
    /// - Parameters:
    ///   - subrange: the elements to replace, within `0...count`.
    ///   - newElements: what takes their place.
    public mutating func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C) where C.Element == Element {
        precondition(subrange.lowerBound >= 0 && subrange.upperBound <= count, "ChunkedArray range \(subrange) out of range 0..<\(count)")
        let tail = Array(self[subrange.upperBound...])
        truncate(to: subrange.lowerBound)
        for element in newElements { append(element) }
        for element in tail { append(element) }
    }

    /// Removes the elements from `newCount` on: the groups past it at once, then one at a time.
    private mutating func truncate(to newCount: Int) {
        let keptGroups = (newCount + Self.groupElements - 1) / Self.groupElements
        if groups.count > keptGroups {
            groups.removeSubrange(keptGroups...)
            storedCount = keptGroups * Self.groupElements  // Groups followed by another are full.
        }
        while count > newCount { removeLast() }
    }
}

extension ChunkedArray: ExpressibleByArrayLiteral {
    /// An array of the literal's elements: `let history: ChunkedArray<Line> = []`.
    ///
    /// - Parameter elements: the elements.
    public init(arrayLiteral elements: Element...) {
        self.init(elements)
    }
}

// MARK: - Shared storage

extension ChunkedArray {
    /// Whether `lhs` and `rhs` are the same buffer (one a copy of the other, unchanged since).
    private static func sameBuffer<T>(_ lhs: [T], _ rhs: [T]) -> Bool {
        bufferWord(lhs) == bufferWord(rhs)
    }

    /// An array's one stored word: its buffer's reference. Two arrays alive at once hold the same
    /// word only when they share their buffer.
    @inline(__always) private static func bufferWord<T>(_ array: [T]) -> UInt {
        unsafeBitCast(array, to: UInt.self)
    }

    /// Calls `body` with each index below `count` (at most both counts) at which `lhs` and `rhs` hold
    /// different buffers, comparing their buffer words in place: nothing is copied, retained or
    /// allocated, which in code not specialized for `Element` would cost metadata lookups too.
    private static func forEachDifferentBuffer<T>(_ lhs: [[T]], _ rhs: [[T]], below count: Int, _ body: (Int) throws -> Void) rethrows {
        let count = Swift.min(count, lhs.count, rhs.count)
        // An array is one word on every platform Swift runs on; `bufferWord` traps otherwise.
        guard MemoryLayout<[T]>.stride == MemoryLayout<UInt>.stride else {
            for index in 0..<count where !sameBuffer(lhs[index], rhs[index]) { try body(index) }
            return
        }
        try lhs.withUnsafeBytes { left in
            try rhs.withUnsafeBytes { right in
                for index in 0..<count {
                    let offset = index * MemoryLayout<UInt>.stride
                    if left.load(fromByteOffset: offset, as: UInt.self) != right.load(fromByteOffset: offset, as: UInt.self) {
                        try body(index)
                    }
                }
            }
        }
    }

    /// Calls `body` with each index below `limit` (at most both counts) where the elements of `self`
    /// and `other` differ. The elements of a leaf or group the two share are equal, and skipped
    /// without being read; in the others, `firstDifference` finds them, a leaf at a time.
    ///
    /// - Parameters:
    ///   - other: the array to compare with.
    ///   - limit: compare indices below this.
    ///   - firstDifference: the first offset in `start..<end` where two leaves' elements differ, or `end`.
    ///   - body: called with each index found, in increasing order.
    func forEachDifference(
        from other: ChunkedArray, below limit: Int,
        firstDifference: (_ new: UnsafeBufferPointer<Element>, _ old: UnsafeBufferPointer<Element>, _ start: Int, _ end: Int) -> Int,
        _ body: (Int) throws -> Void
    ) rethrows {
        guard limit > 0 else { return }
        let groupCount = (limit + Self.groupElements - 1) / Self.groupElements
        try Self.forEachDifferentBuffer(groups, other.groups, below: groupCount) { group in
            let groupStart = group * Self.groupElements
            let (newGroup, oldGroup) = (groups[group], other.groups[group])
            let leafCount = (limit - groupStart + Self.leafCapacity - 1) / Self.leafCapacity
            try Self.forEachDifferentBuffer(newGroup, oldGroup, below: leafCount) { leaf in
                let leafStart = groupStart + leaf * Self.leafCapacity
                let (new, old) = (newGroup[leaf], oldGroup[leaf])
                let end = Swift.min(new.count, old.count, limit - leafStart)
                try new.withUnsafeBufferPointer { newBuffer in
                    try old.withUnsafeBufferPointer { oldBuffer in
                        var offset = firstDifference(newBuffer, oldBuffer, 0, end)
                        while offset < end {
                            try body(leafStart + offset)
                            offset = firstDifference(newBuffer, oldBuffer, offset + 1, end)
                        }
                    }
                }
            }
        }
    }

    /// Calls `body` with each leaf's elements, in order, and the index of the leaf's first element:
    /// what reads every element without looking each one up through its group and leaf, which in
    /// code not specialized for `Element` costs a metadata lookup per level.
    ///
    /// - Parameter body: called with a leaf's elements and the index of the first.
    func forEachLeaf(_ body: (_ elements: UnsafeBufferPointer<Element>, _ start: Int) throws -> Void) rethrows {
        var start = 0
        for group in groups {
            for leaf in group {
                try leaf.withUnsafeBufferPointer { try body($0, start) }
                start += leaf.count
            }
        }
    }

    /// A copy that shares every group and leaf but the last with `self`, and holds a list of groups,
    /// a last group and a last leaf of its own: whoever holds it, the owner of `self` still appends
    /// in place. What the change encoder keeps of the previous array. Costs one reference per
    /// group, the last group's references and the last leaf's elements.
    package func detachingEnds() -> ChunkedArray {
        guard var lastGroup = groups.last, let lastLeaf = lastGroup.last else { return self }
        // Each assignment below copies the buffer it writes to, shared with `self`, in one bulk
        // copy of references: no element-by-element iteration, which in code not specialized for
        // `Element` would look metadata up along the way.
        var copy = self
        lastGroup[lastGroup.count - 1] = Array(unsafeUninitializedCapacity: lastLeaf.count) { buffer, initialized in
            initialized = buffer.initialize(fromContentsOf: lastLeaf)
        }
        copy.groups[groups.count - 1] = lastGroup
        return copy
    }

    /// Where the list of groups, the last group and the last leaf are: the same addresses after a
    /// change mean that it copied none of them. For tests.
    package var endBuffers: [UnsafeRawPointer?] {
        [
            groups.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) },
            groups.last?.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) },
            groups.last?.last?.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) },
        ]
    }

    /// How many leaves `self` and `other` share at the same places: what a copy changed since is
    /// the rest. For tests and the benchmark.
    package func sharedLeaves(with other: ChunkedArray) -> Int {
        var shared = 0
        for group in 0..<Swift.min(groups.count, other.groups.count) {
            for leaf in 0..<Swift.min(groups[group].count, other.groups[group].count)
            where Self.sameBuffer(groups[group][leaf], other.groups[group][leaf]) {
                shared += 1
            }
        }
        return shared
    }
}

// MARK: - Equality, hashing, coding

extension ChunkedArray: Equatable where Element: Equatable {
    /// Whether both hold equal elements in the same order; the leaves and groups they share are
    /// equal without being read.
    ///
    /// - Parameters:
    ///   - lhs: an array.
    ///   - rhs: another.
    public static func == (lhs: ChunkedArray, rhs: ChunkedArray) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var equal = true
        lhs.forEachDifference(from: rhs, below: lhs.count, firstDifference: { new, old, start, end in
            // One difference is enough: the first leaf that has one ends the search.
            equal ? (start..<end).first { new[$0] != old[$0] } ?? end : end
        }) { _ in equal = false }
        return equal
    }
}

extension ChunkedArray: Hashable where Element: Hashable {
    /// Hashes the count and the elements in order, as `Array` does.
    ///
    /// - Parameter hasher: the hasher to feed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for element in self { hasher.combine(element) }
    }
}

extension ChunkedArray: Encodable where Element: Encodable {
    /// Encodes the elements as an `Array` of them does: in an unkeyed container, in order.
    ///
    /// - Parameter encoder: the encoder to write to.
    /// - Throws: what encoding an element throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for element in self { try container.encode(element) }
    }
}

extension ChunkedArray: Decodable where Element: Decodable {
    /// Decodes what an `Array` of the elements decodes: an unkeyed container of them.
    ///
    /// - Parameter decoder: the decoder to read from.
    /// - Throws: `DecodingError` when the value is not an array of elements.
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        self.init()
        while !container.isAtEnd { append(try container.decode(Element.self)) }
    }
}

extension ChunkedArray: Sendable where Element: Sendable {}

extension ChunkedArray: CustomReflectable {
    /// The elements, as a collection: a dump or a diff of a state (the Replayer's divergence reports)
    /// shows a `ChunkedArray` as it shows an `Array`, not its leaves.
    public var customMirror: Mirror {
        Mirror(self, unlabeledChildren: Array(self), displayStyle: .collection)
    }
}

extension ChunkedArray: CustomStringConvertible, CustomDebugStringConvertible {
    /// The elements as an `Array` prints them: `[1, 2, 3]`.
    public var description: String { Array(self).description }
    /// `ChunkedArray([1, 2, 3])`.
    public var debugDescription: String { "ChunkedArray(\(Array(self).debugDescription))" }
}
