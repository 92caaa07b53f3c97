import ActionLog

/// The places of a JSON document where two patches, applied to the same document, can have left it
/// different: what replay compares while the replayed state agrees with the recorded one.
///
/// A place a patch replaced, or a member it added or removed, is compared there. An element inserted
/// into or removed from an array moves the elements after it, so the array is compared from the
/// lowest such position to its end, with its count: an append (`add /history/-`, or at the index of
/// the end) compares the count and the new element, not the history before it, and only an insertion
/// or removal in the middle compares the tail. Replacing an element (`replace /items/3/quantity`)
/// moves nothing and is compared at the element.
///
/// ```swift
/// let places = TouchedPlaces(recordedPatch, replayedPatch)
/// if places.valuesEqual(recordedState, replayedState) { /* the states still agree */ }
/// ```
///
/// The work is bounded by the patches' sizes and the compared values, never by the rest of the
/// document.
struct TouchedPlaces {
    /// Places compared whole.
    private var places: Set<JSONPointer> = []
    /// Arrays, by their pointer, where elements were inserted or removed.
    private var shifts: [JSONPointer: Shift] = [:]

    /// What inserting and removing elements of one array can have moved.
    private struct Shift {
        /// The lowest index an element was inserted at or removed from, by index.
        var lowest = Int.max
        /// For each patch that appended with `-`, how many elements it inserted into the array:
        /// an element appended there ends at index `count - inserted` or after it.
        var appendedBy: [Int] = []
    }

    /// The places `patches` touched; `test` operations touch nothing.
    init(_ patches: JSONPatch...) {
        for patch in patches { add(patch) }
    }

    private mutating func add(_ patch: JSONPatch) {
        // Per array of this patch: elements inserted, and whether any went in with `-`.
        var inserted: [JSONPointer: (count: Int, appends: Bool)] = [:]
        func insert(at path: JSONPointer) {
            guard let last = path.tokens.last else {
                places.insert(path)
                return
            }
            if last == "-" {
                inserted[path.parent, default: (0, false)].count += 1
                inserted[path.parent, default: (0, false)].appends = true
            } else if let index = JSONPointer.arrayIndex(last) {
                inserted[path.parent, default: (0, false)].count += 1
                shifts[path.parent, default: Shift()].lowest = min(shifts[path.parent, default: Shift()].lowest, index)
            } else {
                places.insert(path)
            }
        }
        func remove(at path: JSONPointer) {
            guard let last = path.tokens.last else {
                places.insert(path)
                return
            }
            if let index = JSONPointer.arrayIndex(last) {
                shifts[path.parent, default: Shift()].lowest = min(shifts[path.parent, default: Shift()].lowest, index)
            } else if last == "-" {
                // Not a valid place to remove from: compare the whole container.
                places.insert(path.parent)
            } else {
                places.insert(path)
            }
        }
        for operation in patch.operations {
            switch operation {
            case .test: continue
            case .replace(let path, _):
                // Moves nothing, even in an array; `-` is no element, so the container is compared.
                places.insert(path.tokens.last == "-" ? path.parent : path)
            case .add(let path, _): insert(at: path)
            case .remove(let path): remove(at: path)
            case .move(let from, let path):
                remove(at: from)
                insert(at: path)
            case .copy(_, let path): insert(at: path)
            }
        }
        for (array, change) in inserted where change.appends {
            shifts[array, default: Shift()].appendedBy.append(change.count)
        }
    }

    /// Whether `lhs` and `rhs` agree at every touched place. When both documents were equal before
    /// the patches, and each is its patch applied, that is whether they are equal now.
    ///
    /// - Parameters:
    ///   - lhs: the recorded state, redacted as it was written.
    ///   - rhs: the replayed state, whose values are redacted where they are compared with `redactor`
    ///     (never the whole state).
    ///   - redactor: the session's redacted paths.
    func valuesEqual(_ lhs: JSONValue, _ rhs: JSONValue, redactingRight redactor: Redactor = .none) -> Bool {
        for place in places where lhs.value(at: place) != rhs.value(at: place).map({ redactor.value($0, at: place) }) { return false }
        for (array, shift) in shifts where !Self.tailsEqual(lhs.value(at: array), rhs.value(at: array), from: shift, at: array, redactor) {
            return false
        }
        return true
    }

    /// Compares two arrays from the first position `shift` can have moved or filled, and their counts;
    /// anything else (a digit key of an object, a value that is no longer an array) is compared whole.
    private static func tailsEqual(_ lhs: JSONValue?, _ rhs: JSONValue?, from shift: Shift, at array: JSONPointer, _ redactor: Redactor) -> Bool {
        guard case .array(let left)? = lhs, case .array(let right)? = rhs else { return lhs == rhs.map { redactor.value($0, at: array) } }
        guard left.count == right.count else { return false }
        var start = min(shift.lowest, left.count)
        for inserted in shift.appendedBy { start = min(start, max(0, left.count - inserted)) }
        guard !redactor.isEmpty else { return left[start...] == right[start...] }
        return (start..<left.count).allSatisfy { left[$0] == redactor.value(right[$0], at: array.appending(String($0))) }
    }
}
