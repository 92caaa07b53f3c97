extension JSONPatch {
    /// The largest `old × new` count of differing middle elements for which an array is diffed with a
    /// longest-common-subsequence table; larger arrays are compared index by index.
    package static let maximumEditTableSize = 1_000_000

    /// A patch that turns `source` into `target`: `try diff(from: a, to: b).apply(to: a) == b`.
    ///
    /// Objects are compared member by member: a member only in `source` is removed, one only in
    /// `target` is added, and one in both is diffed in turn. Arrays keep their common start and end
    /// and edit only the middle, using a longest common subsequence, so inserting or removing one
    /// element is one operation; when the middle is very large (more than a million old × new
    /// element pairs) it is compared index by index instead. An array whose edits would take more
    /// bytes than its new value is replaced whole. Any other change, including a change of type, is a
    /// `replace`. Equal values give no operations.
    ///
    /// Numbers are compared by their text, so `1` → `1.0` is a `replace`: the result is exactly `target`.
    ///
    /// ```swift
    /// let old: JSONValue = ["items": ["a", "b", "c"], "draft": true]
    /// let new: JSONValue = ["items": ["a", "x", "b", "c"]]
    /// JSONPatch.diff(from: old, to: new).description
    /// // [{"op":"remove","path":"/draft"},{"op":"add","path":"/items/1","value":"x"}]
    /// ```
    ///
    /// - Parameters:
    ///   - source: the document the patch applies to.
    ///   - target: the document the patch produces.
    /// - Returns: the patch; empty when the values are equal.
    public static func diff(from source: JSONValue, to target: JSONValue) -> JSONPatch {
        diff(from: source, to: target, replacingLongArrayEdits: true)
    }

    /// ``diff(from:to:)``, optionally without replacing an array whose edits are longer than its new
    /// value, so that tests can check the edit scripts themselves.
    package static func diff(from source: JSONValue, to target: JSONValue, replacingLongArrayEdits: Bool) -> JSONPatch {
        var differ = Differ(replacesLongArrayEdits: replacingLongArrayEdits)
        differ.diff(source, target, at: .root)
        return JSONPatch(operations: differ.operations)
    }
}

/// Collects the operations of a diff.
private struct Differ {
    package let replacesLongArrayEdits: Bool
    package var operations: [JSONPatch.Operation] = []

    package mutating func diff(_ source: JSONValue, _ target: JSONValue, at path: JSONPointer) {
        if source == target { return }
        switch (source, target) {
        case (.object(let old), .object(let new)):
            diffObjects(old, new, at: path)
        case (.array(let old), .array(let new)):
            diffArrays(old, new, at: path)
        default:
            operations.append(.replace(path: path, value: target))
        }
    }

    private mutating func diffObjects(_ old: [String: JSONValue], _ new: [String: JSONValue], at path: JSONPointer) {
        let keys = Set(old.keys).union(new.keys).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        for key in keys {
            switch (old[key], new[key]) {
            case (let before?, let after?):
                if before != after { diff(before, after, at: path.appending(key)) }
            case (_?, nil):
                operations.append(.remove(path: path.appending(key)))
            case (nil, let after?):
                operations.append(.add(path: path.appending(key), value: after))
            case (nil, nil):
                break
            }
        }
    }

    private mutating func diffArrays(_ old: [JSONValue], _ new: [JSONValue], at path: JSONPointer) {
        // Keep the common start and end; only the middle changes.
        var prefix = 0
        while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix,
            old[old.count - 1 - suffix] == new[new.count - 1 - suffix]
        {
            suffix += 1
        }
        let oldMiddle = old[prefix..<(old.count - suffix)]
        let newMiddle = new[prefix..<(new.count - suffix)]

        var edits = Differ(replacesLongArrayEdits: replacesLongArrayEdits)
        let (cells, overflow) = oldMiddle.count.multipliedReportingOverflow(by: newMiddle.count)
        if !oldMiddle.isEmpty, !newMiddle.isEmpty, !overflow, cells <= JSONPatch.maximumEditTableSize {
            edits.editScript(oldMiddle, newMiddle, at: prefix, in: path)
        } else {
            // Only insertions, only removals, or too large for a table: edit index by index.
            edits.emitGap(oldMiddle, newMiddle, at: prefix, in: path)
        }

        // A whole replacement wins when the edits would be longer than the new array.
        guard replacesLongArrayEdits else {
            operations.append(contentsOf: edits.operations)
            return
        }
        let editsSize = edits.operations.reduce(0) { $0 + Self.size(of: $1) }
        let replacementSize = 30 + Self.size(of: path) + Self.size(of: .array(new), limit: editsSize)
        if replacementSize < editsSize {
            operations.append(.replace(path: path, value: .array(new)))
        } else {
            operations.append(contentsOf: edits.operations)
        }
    }

    /// Turns `old` into `new` (the middles of two arrays, starting at index `offset` of the array at
    /// `path`) with a longest common subsequence: the elements it keeps stay, each gap between them is
    /// edited by ``emitGap(_:_:at:in:)``.
    private mutating func editScript(_ old: ArraySlice<JSONValue>, _ new: ArraySlice<JSONValue>, at offset: Int, in path: JSONPointer) {
        // Compare small integers instead of whole values in the table.
        var ids: [JSONValue: Int] = [:]
        func id(_ value: JSONValue) -> Int {
            if let known = ids[value] { return known }
            ids[value] = ids.count
            return ids.count - 1
        }
        let a = old.map(id)
        let b = new.map(id)
        let n = a.count
        let m = b.count
        let width = m + 1

        // lcs[i * width + j] = length of the longest common subsequence of a[i...] and b[j...].
        var lcs = [Int32](repeating: 0, count: (n + 1) * width)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                lcs[i * width + j] =
                    a[i] == b[j] ? lcs[(i + 1) * width + j + 1] + 1 : max(lcs[(i + 1) * width + j], lcs[i * width + j + 1])
            }
        }

        var i = 0
        var j = 0
        var gapStart = (i: 0, j: 0)
        while i < n || j < m {
            if i < n, j < m, a[i] == b[j] {
                emitGap(
                    old[(old.startIndex + gapStart.i)..<(old.startIndex + i)],
                    new[(new.startIndex + gapStart.j)..<(new.startIndex + j)],
                    at: offset + gapStart.j, in: path)
                i += 1
                j += 1
                gapStart = (i, j)
            } else if j == m || (i < n && lcs[(i + 1) * width + j] >= lcs[i * width + j + 1]) {
                i += 1
            } else {
                j += 1
            }
        }
        emitGap(
            old[(old.startIndex + gapStart.i)..<(old.startIndex + i)],
            new[(new.startIndex + gapStart.j)..<(new.startIndex + j)],
            at: offset + gapStart.j, in: path)
    }

    /// Turns the run `old` into the run `new`, both starting at `index` of the array at `path` (with
    /// every element before `index` already final): pairs are diffed in place, then the old
    /// elements left over are removed (last first) or the new ones left over are inserted.
    private mutating func emitGap(_ old: ArraySlice<JSONValue>, _ new: ArraySlice<JSONValue>, at index: Int, in path: JSONPointer) {
        let paired = min(old.count, new.count)
        for k in 0..<paired {
            diff(old[old.startIndex + k], new[new.startIndex + k], at: path.appending(String(index + k)))
        }
        for k in stride(from: old.count - 1, through: paired, by: -1) {
            operations.append(.remove(path: path.appending(String(index + k))))
        }
        for k in paired..<max(paired, new.count) {
            operations.append(.add(path: path.appending(String(index + k)), value: new[new.startIndex + k]))
        }
    }

    // MARK: Sizes

    /// About how many bytes the operation takes as JSON.
    private static func size(of operation: JSONPatch.Operation) -> Int {
        var total = 30 + size(of: operation.path)
        switch operation {
        case .add(_, let value), .replace(_, let value), .test(_, let value): total += size(of: value, limit: .max)
        case .move(let from, _), .copy(let from, _): total += 10 + size(of: from)
        case .remove: break
        }
        return total
    }

    private static func size(of pointer: JSONPointer) -> Int {
        pointer.tokens.reduce(0) { $0 + 1 + $1.utf8.count }
    }

    /// About how many bytes `value` takes as JSON; stops counting once past `limit`.
    private static func size(of value: JSONValue, limit: Int) -> Int {
        var total = 0
        func visit(_ value: JSONValue) -> Bool {
            switch value {
            case .null: total += 4
            case .bool(let flag): total += flag ? 4 : 5
            case .number(let text): total += text.utf8.count
            case .string(let string): total += string.utf8.count + 2
            case .array(let elements):
                total += elements.count + 1
                for element in elements {
                    if !visit(element) { return false }
                }
            case .object(let members):
                total += members.count + 1
                for (key, member) in members {
                    total += key.utf8.count + 3
                    if !visit(member) { return false }
                }
            }
            return total <= limit
        }
        _ = visit(value)
        return total
    }
}
