/// The places where a change is expected — those a patch touched — given to ``ChangeEncoder`` so
/// that a large array is compared only there, not element by element from its start.
///
/// Replay knows what the recorded session changed at each step: it passes the recorded patch's
/// places, and the change encoder compares each large array (see ``EncodingContext/largeCount``)
/// of `Equatable` elements only between the first and the last index an operation touched below
/// it, plus its length; the elements outside are *taken* as unchanged and counted
/// (``ChangeEncoder/assumedUnchanged``). An array no operation reaches is taken as unchanged when
/// its length is; one an operation replaces whole, or whose length changed without an operation
/// below it, is compared in full. Whoever passes hints must check the rest from time to time with
/// an encode without them, which compares everything against the encoder's previous values and so
/// finds any change the hints left out.
///
/// ```swift
/// let hints = ChangeHints(recordedPatch)          // e.g. add /history/41
/// let change = try encoder.encode(state, expecting: hints)
/// ```
package final class ChangeHints {
    /// One place: the places below it by token, and whether an operation touched it whole.
    final class Node {
        var children: [String: Node] = [:]
        var whole = false
    }

    /// What the hints say about one array.
    enum ArrayHint: Equatable {
        /// No operation touches the array or anything below it.
        case untouched
        /// An operation replaces the array (or something above it), or names a place below it that
        /// is not an index: compare it in full.
        case whole
        /// Operations touch the elements `lowest...highest` (an index past the end, or `-`, counts
        /// as the previous length).
        case indices(lowest: Int, highest: Int)
    }

    private let root = Node()

    /// The places `patch` touches: each operation's `path`, and the `from` of a `move` or `copy`.
    package init(_ patch: JSONPatch) {
        for operation in patch.operations {
            mark(operation.path)
            switch operation {
            case .move(let from, _), .copy(let from, _): mark(from)
            default: break
            }
        }
    }

    private func mark(_ pointer: JSONPointer) {
        var node = root
        for token in pointer.tokens {
            if node.whole { return }
            if let child = node.children[token] {
                node = child
            } else {
                let child = Node()
                node.children[token] = child
                node = child
            }
        }
        node.whole = true
        node.children = [:]
    }

    /// What the hints say about the array at `pointer`, whose previous length was `previousCount`.
    func array(at pointer: JSONPointer, previousCount: Int) -> ArrayHint {
        var node = root
        for token in pointer.tokens {
            if node.whole { return .whole }
            guard let child = node.children[token] else { return .untouched }
            node = child
        }
        if node.whole { return .whole }
        if node.children.isEmpty { return .untouched }
        var lowest = Int.max
        var highest = Int.min
        for token in node.children.keys {
            let index: Int
            if token == "-" {
                index = previousCount
            } else if let number = Self.index(token) {
                index = Swift.min(number, previousCount)
            } else {
                return .whole
            }
            lowest = Swift.min(lowest, index)
            highest = Swift.max(highest, index)
        }
        return .indices(lowest: lowest, highest: highest)
    }

    /// An array index token as RFC 6901 writes it (digits, no leading zero), or `nil`.
    private static func index(_ token: String) -> Int? {
        let utf8 = token.utf8
        guard let first = utf8.first, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") else { return nil }
        guard first != UInt8(ascii: "0") || utf8.count == 1 else { return nil }
        return Int(token)
    }
}
