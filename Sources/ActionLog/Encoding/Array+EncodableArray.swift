import Foundation

/// A type whose values the encoders write element by element themselves, rather than through its
/// `encode(to:)`: `Array`. The JSON is the same as `Array.encode(to:)` gives (one element after
/// another in an unkeyed container); what changes is the cost.
///
/// Encoding from scratch, the elements go straight into a `[JSONValue]`. Encoding a change, the
/// new array is compared with the previous one (kept typed in the shadow node, so it is cast once,
/// not per element) through the elements' bytes, a block at a time, and `==`:
///
/// - equal elements keep their previous JSON, without calling `encode(to:)`;
/// - the same count: each differing element is encoded against its previous self (whose shadow
///   node is made then, see ``CapturedShadow``), so a change deep inside is one operation deep
///   inside (`/items/7/quantity`); when most elements differ, the array is replaced whole;
/// - a run of elements inserted or removed at one place (the start, the middle or the end), with
///   everything else equal: one `add` per inserted element or one `remove` per removed one (or a
///   whole replacement, when that is most of the array);
/// - anything else: the differing middle is encoded against the previous elements at the same
///   index, and the operations come from ``JSONPatch/diff(from:to:)`` on this array's JSON only.
///
/// Only arrays of `Equatable` elements that hold no objects take this path while tracking; others
/// go through `Array.encode(to:)` and ``UnkeyedContainer``, which compare element `i` with the
/// previous element `i` by their JSON.
protocol EncodableArray {
    /// Encodes `value` (an array of this type), or returns `nil` to let the generic path
    /// (`encode(to:)` and ``UnkeyedContainer``) do it: when the elements cannot be compared, or the
    /// previous value at this place was not an array of this type.
    static func encode<T>(
        _ value: T, context: EncodingContext, typeID: ObjectIdentifier, previous: JSONValue?, previousNode: ShadowNode?,
        parent: PathNode?, component: PathComponent
    ) throws -> Encoded?
}

extension Array: EncodableArray where Element: Encodable {
    static func encode<T>(
        _ value: T, context: EncodingContext, typeID: ObjectIdentifier, previous: JSONValue?, previousNode: ShadowNode?,
        parent: PathNode?, component: PathComponent
    ) throws -> Encoded? {
        let array = reinterpret(value, as: Self.self)
        let info = context.typeInfo(Element.self)
        guard context.tracking else {
            let path = PathNode(parent: parent, component: component)
            return Encoded(json: .array(try encodeAll(array, info: info, context: context, path: path)), node: nil)
        }
        guard let equality = info.equality, !info.holdsLarge else { return nil }
        let large = array.count > EncodingContext.largeCount
        let shared = array.count <= EncodingContext.sharedCount
        context.countCollection(of: array.count)
        // The elements' nodes are not kept: the array keeps its value, and an element's node is
        // made from the previous element when the element changes.
        let keepsNodes = context.keepsNodes
        context.keepsNodes = false
        defer { context.keepsNodes = keepsNodes }
        /// The node of the new array: the caller's buffer when it has at most
        /// ``EncodingContext/sharedCount`` elements, a copy of the encoder's own otherwise — taken
        /// over from `owned` and edited in place, once the whole encode has succeeded, when the
        /// previous array was one too.
        func node(owned: OwnedArrayShadow<Element>?, edits: [ArrayEdit]) -> ShadowNode? {
            // Elements that turned out to hold large collections cannot be kept typed.
            guard keepsNodes, !info.holdsLarge else { return nil }
            guard !shared else { return ValueShadow(value: array, typeID: typeID, children: .none) }
            guard let owned else { return OwnedArrayShadow(copying: array, typeID: typeID) }
            let node = OwnedArrayShadow<Element>(typeID: typeID)
            context.afterSuccess.append { node.takeOver(owned, applying: edits, from: array) }
            return node
        }
        guard let previous else {
            let path = PathNode(parent: parent, component: component)
            let json = try encodeAll(array, info: info, context: context, path: path)
            return Encoded(json: .array(json), node: node(owned: nil, edits: []))
        }
        guard let previousNode, previousNode.typeID == typeID, case .array(let oldJSON) = previous else { return nil }
        let owned = previousNode as? OwnedArrayShadow<Element>
        var edits: [ArrayEdit] = []
        let outcome: ArrayChanges<Element>.Outcome
        do {
            // `old` ends with this block: the owned buffer is referenced by its node alone again.
            let old = owned?.elements ?? unsafeDowncast(previousNode, to: ValueShadow<[Element]>.self).value
            guard oldJSON.count == old.count else { return nil }
            var assumed = (prefix: 0, suffix: 0)
            if large, let hints = context.hints {
                let common = Swift.min(array.count, old.count)
                switch hints.array(at: PathNode.pointer(parent, component), previousCount: old.count) {
                case .untouched where array.count == old.count:
                    context.assumedUnchanged += old.count
                    return Encoded(json: previous, node: previousNode)
                case .indices(let lowest, let highest):
                    assumed.prefix = Swift.min(lowest, common)
                    assumed.suffix = Swift.max(0, Swift.min(common - assumed.prefix, common - highest - 1))
                    context.assumedUnchanged += assumed.prefix + assumed.suffix
                case .untouched, .whole:
                    break
                }
            }
            let changes = ArrayChanges<Element>(
                context: context, info: info, equality: equality, parent: parent, component: component, oldJSON: oldJSON)
            outcome = try changes.encode(array, old: old, assumingEqual: assumed, edits: &edits)
        }
        switch outcome {
        case .unchanged:
            return Encoded(json: previous, node: previousNode)
        case .rebuilt(let json):
            return Encoded(json: .array(json), node: node(owned: owned, edits: edits))
        case .patched:
            // The operations say what changed; the caller applies them to the previous JSON.
            context.staleValues += 1
            return Encoded(json: previous, node: node(owned: owned, edits: edits))
        }
    }

    private static func encodeAll(_ array: [Element], info: TypeInfo, context: EncodingContext, path: PathNode) throws -> [JSONValue] {
        var json: [JSONValue] = []
        json.reserveCapacity(array.count)
        for index in array.indices {
            json.append(
                try context.encode(array[index], info: info, previous: nil, previousNode: nil, parent: path, component: .index(index)).json)
        }
        return json
    }
}

/// One replacement in an array: the elements at `old` give way to the new array's elements at `new`.
struct ArrayEdit {
    var old: Range<Int>
    var new: Range<Int>
}

/// The shadow node of a large array (see ``EncodingContext/largeCount``): a copy of its elements
/// that the encoder owns, so that the caller's array buffer is referenced by the caller alone and
/// its next in-place mutation does not copy it.
///
/// Made by copying the caller's elements once (a new buffer); after that, each encode that finds
/// changes takes the buffer over from the previous node and replaces the changed elements in place
/// (``takeOver(_:applying:from:)``), so keeping the copy costs the writer what changed, not the
/// array's size. Comparing the arrays still reads both whole (one `memcmp` per 64 elements):
/// proportional to the size, but no copy and no reference counting.
final class OwnedArrayShadow<Element>: ShadowNode {
    /// The elements, in a buffer no caller holds. Replaced only by ``takeOver(_:applying:from:)``.
    @exclusivity(unchecked) private(set) var elements: [Element]

    /// A node whose elements come later, from ``takeOver(_:applying:from:)``.
    init(typeID: ObjectIdentifier) {
        elements = []
        super.init(typeID: typeID, children: .none)
    }

    /// A node holding a copy of `array` in a buffer of its own.
    init(copying array: [Element], typeID: ObjectIdentifier) {
        elements = array.withUnsafeBufferPointer { source in
            [Element](unsafeUninitializedCapacity: source.count) { buffer, count in
                _ = buffer.initialize(fromContentsOf: source)
                count = source.count
            }
        }
        super.init(typeID: typeID, children: .none)
    }

    /// Takes `previous`'s buffer (leaving it empty) and applies `edits` to it with the elements of
    /// `array`, in place: the buffer is referenced by this node alone.
    func takeOver(_ previous: OwnedArrayShadow<Element>, applying edits: [ArrayEdit], from array: [Element]) {
        swap(&elements, &previous.elements)
        for edit in edits {
            if edit.old.count == 1, edit.new.count == 1 {
                elements[edit.old.lowerBound] = array[edit.new.lowerBound]
            } else if edit.old.isEmpty, edit.old.lowerBound == elements.count {
                elements.append(contentsOf: array[edit.new])
            } else {
                elements.replaceSubrange(edit.old, with: array[edit.new])
            }
        }
    }
}

/// The comparison of a new array with the previous one; see ``EncodableArray``.
private struct ArrayChanges<Element: Encodable> {
    let context: EncodingContext
    let info: TypeInfo
    let equality: EqualityChecker
    /// The array's place.
    let parent: PathNode?
    let component: PathComponent
    let oldJSON: [JSONValue]

    /// Elements compared with one `memcmp` before they are compared one by one.
    private static var block: Int { 64 }

    /// What encoding the new array gave.
    enum Outcome {
        /// Every element is equal to the previous one.
        case unchanged
        /// The new elements' JSON.
        case rebuilt([JSONValue])
        /// Only the operations, with ``EncodingContext/patchesInPlace``: the JSON was not rebuilt.
        case patched
    }

    /// Compares the new array with the previous one and emits the operations between them.
    ///
    /// With ``EncodingContext/patchesInPlace``, a change of elements in place, an insertion or a
    /// removal emits its operations without rebuilding the array's JSON (which would copy every
    /// element of a long array for one append), and is never replaced whole: a replacement needs the
    /// JSON. Mixed edits still rebuild it, with exact JSON below, for the diff.
    ///
    /// `edits` receives the replacements that turn `old` into `array`, in the order they apply.
    /// `assumed` elements at the start and at the end of both arrays are taken as equal without
    /// being compared (see ``ChangeHints``); their sum is at most the shorter array's length.
    func encode(_ array: [Element], old: [Element], assumingEqual assumed: (prefix: Int, suffix: Int), edits: inout [ArrayEdit]) throws -> Outcome {
        let (newCount, oldCount) = (array.count, old.count)
        return try array.withUnsafeBufferPointer { new in
            try old.withUnsafeBufferPointer { old in
                if newCount == oldCount, new.baseAddress == old.baseAddress { return .unchanged }
                let scan = Scan(new: new, old: old, equality: equality, size: info.size)
                let common = Swift.min(newCount, oldCount)
                let prefix = scan.firstDifference(from: assumed.prefix, to: common - assumed.suffix)
                if newCount == oldCount, prefix == common - assumed.suffix { return .unchanged }
                let suffix = scan.commonSuffix(from: assumed.suffix, limit: common - prefix)
                let path = PathNode(parent: parent, component: component)  // the elements' parent

                let start = context.operations.count
                var json = oldJSON
                func element(_ index: Int, previous: Int?) throws -> JSONValue {
                    try context.encode(
                        new[index], info: info, previous: previous.map { oldJSON[$0] },
                        previousNode: previous.map { context.capturedShadow(of: old[$0], info: info) },
                        parent: path, component: .index(index), reusable: false
                    ).json
                }

                let patchOnly = context.patchesInPlace
                if newCount == oldCount {
                    // The same count: encode each differing element against its previous self.
                    var changed = 0
                    var index = scan.firstDifference(from: prefix, to: newCount - suffix)
                    while index < newCount - suffix {
                        let encoded = try element(index, previous: index)
                        if !patchOnly { json[index] = encoded }
                        edits.append(ArrayEdit(old: index..<(index + 1), new: index..<(index + 1)))
                        changed += 1
                        index = scan.firstDifference(from: index + 1, to: newCount - suffix)
                    }
                    if patchOnly { return .patched }
                    if changed >= 2, changed * 2 > newCount { replaceWhole(json, at: path, from: start) }
                } else if prefix + suffix == common {
                    if newCount > oldCount {
                        // Elements inserted at `prefix`, everything else equal.
                        let range = prefix..<(prefix + newCount - oldCount)
                        edits.append(ArrayEdit(old: prefix..<prefix, new: range))
                        let inserted = try range.map { try element($0, previous: nil) }
                        if !patchOnly { json.insert(contentsOf: inserted, at: prefix) }
                        if !patchOnly, range.count >= 2, range.count * 2 > newCount {
                            replaceWhole(json, at: path, from: start)
                        } else {
                            for (index, value) in zip(range, inserted) {
                                context.emit(.add(path: PathNode.pointer(path, .index(index)), value: value))
                            }
                        }
                    } else {
                        // Elements removed at `prefix`, everything else equal.
                        let range = prefix..<(prefix + oldCount - newCount)
                        edits.append(ArrayEdit(old: range, new: prefix..<prefix))
                        if !patchOnly { json.removeSubrange(range) }
                        if !patchOnly, range.count >= 2, range.count * 2 > oldCount {
                            replaceWhole(json, at: path, from: start)
                        } else {
                            for index in range.reversed() { context.emit(.remove(path: PathNode.pointer(path, .index(index)))) }
                        }
                    }
                    if patchOnly { return .patched }
                } else {
                    // Insertions, removals and changes mixed: encode the middle against the previous
                    // elements at the same index, then let the JSON diff find the edits (which needs
                    // exact JSON, so nothing below is left to be patched).
                    context.patchesInPlace = false
                    defer { context.patchesInPlace = patchOnly }
                    let oldEnd = oldCount - suffix
                    var middle: [JSONValue] = []
                    for index in prefix..<(newCount - suffix) {
                        if index < oldEnd, scan.same(index, index) {
                            middle.append(oldJSON[index])
                        } else {
                            middle.append(try element(index, previous: index < oldEnd ? index : nil))
                        }
                    }
                    json.replaceSubrange(prefix..<oldEnd, with: middle)
                    edits.append(ArrayEdit(old: prefix..<oldEnd, new: prefix..<(newCount - suffix)))
                    context.operations.removeSubrange(start...)
                    let base = PathNode.pointer(path, .none)
                    for operation in JSONPatch.diff(from: .array(oldJSON), to: .array(json)).operations {
                        context.emit(operation.rebased(under: base))
                    }
                }
                return .rebuilt(json)
            }
        }
    }

    /// Drops the operations emitted for the array since `start` and replaces the array whole.
    private func replaceWhole(_ json: [JSONValue], at path: PathNode, from start: Int) {
        context.operations.removeSubrange(start...)
        context.emit(.replace(path: PathNode.pointer(path, .none), value: .array(json)))
    }

    /// Finds equal elements, a block of elements at a time with `memcmp`, then one by one with
    /// ``EqualityChecker/same(_:_:size:)`` in a block whose bytes differ.
    private struct Scan {
        let new: UnsafeBufferPointer<Element>
        let old: UnsafeBufferPointer<Element>
        let equality: EqualityChecker
        let size: Int

        func same(_ newIndex: Int, _ oldIndex: Int) -> Bool {
            equality.same(new.baseAddress! + newIndex, old.baseAddress! + oldIndex, size: size)
        }

        private func sameBytes(_ newIndex: Int, _ oldIndex: Int, count: Int) -> Bool {
            memcmp(new.baseAddress! + newIndex, old.baseAddress! + oldIndex, count * MemoryLayout<Element>.stride) == 0
        }

        /// The first index in `start..<end` where the new and old elements differ, or `end`.
        func firstDifference(from start: Int, to end: Int) -> Int {
            var index = start
            while index < end {
                let count = Swift.min(ArrayChanges.block, end - index)
                if sameBytes(index, index, count: count) {
                    index += count
                    continue
                }
                let blockEnd = index + count
                while index < blockEnd, same(index, index) { index += 1 }
                if index < blockEnd { return index }
            }
            return end
        }

        /// How many elements at the end of both arrays are equal, up to `limit`, the first `start`
        /// taken as equal.
        func commonSuffix(from start: Int, limit: Int) -> Int {
            var matched = start
            while matched < limit {
                let count = Swift.min(ArrayChanges.block, limit - matched)
                if sameBytes(new.count - matched - count, old.count - matched - count, count: count) {
                    matched += count
                    continue
                }
                let blockEnd = matched + count
                while matched < blockEnd, same(new.count - 1 - matched, old.count - 1 - matched) { matched += 1 }
                if matched < blockEnd { return matched }
            }
            return limit
        }
    }
}

extension JSONPatch.Operation {
    /// The same operation on the value at `base`: `base` is put in front of its pointers.
    func rebased(under base: JSONPointer) -> JSONPatch.Operation {
        func move(_ pointer: JSONPointer) -> JSONPointer { JSONPointer(tokens: base.tokens + pointer.tokens) }
        switch self {
        case .add(let path, let value): return .add(path: move(path), value: value)
        case .remove(let path): return .remove(path: move(path))
        case .replace(let path, let value): return .replace(path: move(path), value: value)
        case .move(let from, let path): return .move(from: move(from), path: move(path))
        case .copy(let from, let path): return .copy(from: move(from), path: move(path))
        case .test(let path, let value): return .test(path: move(path), value: value)
        }
    }
}
