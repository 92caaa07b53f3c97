import Foundation

// Keys read again: most objects of a document repeat the keys of objects before them, at the same
// positions, and the objects of an array mostly have the keys of the object before them. The parser
// makes such a key's `String` once (``KeyCache``), and reads such an object into a copy of a
// dictionary that already holds its keys (``ObjectShape``), hashing none.

extension JSONParser {
    /// What an array knows of its elements' keys: nothing yet, the keys of the object just read
    /// (in ``keySpans``), a shape to read the next objects against, or that its objects differ too
    /// often for a shape to pay.
    package enum ShapingState {
        case watching
        case recorded
        case shaped(ObjectShape)
        case stopped
    }

    /// Reads an object that is an element of an array (`index` at its `{`), through the array's shape
    /// when it has one, and updates what the array knows.
    package mutating func parseElementObject(depth: Int, shaping: inout ShapingState) throws(ActionLogError) -> JSONValue {
        switch shaping {
        case .stopped:
            return try parseObject(depth: depth)
        case .watching:
            let object = try parseObject(depth: depth, recordingKeys: true)
            if !keySpans.isEmpty { shaping = .recorded }
            return object
        case .recorded:
            // The element before this one was an object whose keys were recorded: make its shape.
            guard let shape = ObjectShape(keys: keySpans, in: bytes) else {
                shaping = .stopped
                return try parseObject(depth: depth)
            }
            shaping = .shaped(shape)
            return try parseElementObject(depth: depth, shaping: &shaping)
        case .shaped(let shape):
            var fitted = true
            let object = try parseObject(depth: depth, shape: shape, fits: &fitted)
            if fitted {
                shape.fits &+= 1
            } else {
                // A few objects of another kind are fine; an array of mixed kinds is read as usual.
                shape.misses &+= 1
                if !shape.keepsShaping { shaping = .stopped }
            }
            return object
        }
    }

    /// Reads an object against `shape`; `index` is at its `{`. While its keys are the shape's, in
    /// order, each value goes into a copy of the shape's members through the key's index, and no key
    /// is hashed. At the first key that differs (or when the object ends early), the placeholders
    /// of the keys not seen are removed and reading goes on as usual.
    ///
    /// - Parameter fits: set to `false` when the object's keys are not exactly the shape's.
    package mutating func parseObject(depth: Int, shape: ObjectShape, fits: inout Bool) throws(ActionLogError) -> JSONValue {
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            fits = false
            return .object([:])
        }
        objectsRead &+= 1
        var members = shape.members
        var position = 0
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw unexpected() }
            guard position < shape.count, let end = shape.endOfKey(position, in: bytes, at: index) else { break }
            index = end
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw unexpected() }
            index += 1
            skipWhitespace()
            members.values[shape.indices[position]] = try parseValue(depth: depth + 1)
            position += 1
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of text") }
            let next = bytes[index]
            if next == UInt8(ascii: ",") { index += 1; continue }
            if next == UInt8(ascii: "}") {
                index += 1
                if position < shape.count {
                    fits = false
                    shape.removePlaceholders(from: position, in: &members)
                }
                return .object(members)
            }
            throw unexpected()
        }
        // A key that is not the shape's next one, at `index`: the rest is read as usual.
        fits = false
        shape.removePlaceholders(from: position, in: &members)
        var memberIndex = position
        while true {
            let key = try parseKey(member: memberIndex)
            memberIndex &+= 1
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw unexpected() }
            index += 1
            skipWhitespace()
            members[key] = try parseValue(depth: depth + 1)
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of text") }
            let next = bytes[index]
            if next == UInt8(ascii: "}") { index += 1; return .object(members) }
            guard next == UInt8(ascii: ",") else { throw unexpected() }
            index += 1
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw unexpected() }
        }
    }

    /// Where the key whose text is the `length` bytes at `key` ends, just past its closing quote, when
    /// `bytes` has it in quotes at `start` (its opening quote); `nil` when it does not.
    @inline(__always)
    package static func endOfKey(_ key: UnsafePointer<UInt8>, length: Int, in bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Int? {
        let close = start + 1 + length
        guard close < bytes.count, bytes[close] == UInt8(ascii: "\""), let base = bytes.baseAddress,
            sameBytes(base + start + 1, key, count: length)
        else { return nil }
        return close + 1
    }

    /// Whether the `count` bytes at `first` and at `second` are the same: a word at a time, then byte
    /// by byte, without a call to `memcmp`, which costs more than the comparison for keys this short.
    @inline(__always)
    package static func sameBytes(_ first: UnsafePointer<UInt8>, _ second: UnsafePointer<UInt8>, count: Int) -> Bool {
        var offset = 0
        while offset + 8 <= count {
            let word = UnsafeRawPointer(first + offset).loadUnaligned(as: UInt64.self)
            guard word == UnsafeRawPointer(second + offset).loadUnaligned(as: UInt64.self) else { return false }
            offset += 8
        }
        while offset < count {
            guard first[offset] == second[offset] else { return false }
            offset += 1
        }
        return true
    }

    /// Reads an object's key; `index` is at its opening quote. A key with the same bytes as the key at
    /// the same position (`member`) of an object read before is that key's `String`, made once:
    /// the objects of a document mostly repeat their keys. The cache exists once the document has
    /// shown a few objects (``KeyCache/threshold``), so a small one pays nothing for it.
    package mutating func parseKey(member: Int) throws(ActionLogError) -> String {
        guard let keys = keyCache else {
            if objectsRead >= KeyCache.threshold { keyCache = KeyCache() }
            return try parseString()
        }
        guard member < KeyCache.slots else { return try parseString() }
        let start = index + 1
        let length = keys.lengths[member]
        if length >= 0, let end = Self.endOfKey(keys.bytes + member * KeyCache.width, length: length, in: bytes, at: index) {
            // The bytes are those of a key read before through the fast path (no quote, backslash
            // or control character; valid UTF-8): the same string.
            index = end
            return keys.strings[member]
        }
        let key = try parseString()
        let raw = index - start - 1
        // Escapes always decode to fewer bytes: as many bytes as the text had means none.
        if raw <= KeyCache.width, key.utf8.count == raw, let base = bytes.baseAddress {
            (keys.bytes + member * KeyCache.width).update(from: base + start, count: raw)
            keys.lengths[member] = raw
            keys.strings[member] = key
        }
        return key
    }
}

/// The last key of up to ``width`` bytes read at each of the first ``slots`` positions of an
/// object, with its bytes; see ``JSONParser/parseKey(member:)``.
package final class KeyCache {
    package static var slots: Int { 8 }
    package static var width: Int { 16 }
    /// Objects a document shows before its parser makes a cache.
    package static var threshold: Int { 8 }

    /// `slots × width` bytes: the key at position `i` starts at `i × width`.
    package let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: KeyCache.slots * KeyCache.width)
    /// The byte count of the key at each position; -1 for none.
    @exclusivity(unchecked) var lengths = [Int](repeating: -1, count: KeyCache.slots)
    @exclusivity(unchecked) var strings = [String](repeating: "", count: KeyCache.slots)

    deinit { bytes.deallocate() }
}

/// The keys an array's objects were seen to have, in order, and an object holding them: reading an
/// object whose keys are these takes a copy of ``members`` and sets each value through the key's
/// index, without hashing a key. A copy of a dictionary is the same value, so the indices of
/// ``members`` are valid in it; setting a value through an index keeps them valid.
package final class ObjectShape {
    /// Keys an object may have for a shape to be made of it: the objects of states and lists.
    package static var maximumKeys: Int { 16 }
    /// The objects of the array that fitted the shape, and those that did not.
    @exclusivity(unchecked) var fits = 0
    @exclusivity(unchecked) var misses = 0

    /// Whether the array goes on reading its objects against the shape: a miss costs about as much
    /// as a fit saves (its placeholders are removed), so a shape pays while at most one object in
    /// four misses, plus the first two.
    package var keepsShaping: Bool { misses <= 2 + fits / 4 }

    /// The keys, in the order of the text; each is a run of bytes without escapes.
    package let keys: [String]
    /// The keys' bytes, one after the other, and where each ends in them.
    package let keyBytes: UnsafeMutablePointer<UInt8>
    package let keyEnds: [Int]
    /// Each key with the value `null`.
    package let members: [String: JSONValue]
    /// Where each key is in ``members``.
    package let indices: [Dictionary<String, JSONValue>.Index]

    package var count: Int { keys.count }

    /// The shape of the keys in `spans` (pairs of offset and byte count in `bytes`, as
    /// ``JSONParser/keySpans`` holds them), or `nil` when there are none or two are the same.
    package init?(keys spans: [Int], in bytes: UnsafeBufferPointer<UInt8>) {
        guard !spans.isEmpty else { return nil }
        var keys: [String] = []
        var keyBytes: [UInt8] = []
        var keyEnds: [Int] = []
        var members = [String: JSONValue](minimumCapacity: spans.count / 2)
        for pair in stride(from: 0, to: spans.count - 1, by: 2) {
            let run = UnsafeBufferPointer(rebasing: bytes[spans[pair]..<(spans[pair] + spans[pair + 1])])
            let key = String(decoding: run, as: UTF8.self)
            guard members.updateValue(.null, forKey: key) == nil else { return nil }
            keys.append(key)
            keyBytes.append(contentsOf: run)
            keyEnds.append(keyBytes.count)
        }
        let indices = keys.compactMap { members.index(forKey: $0) }
        guard indices.count == keys.count else { return nil }
        self.keys = keys
        self.keyBytes = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, keyBytes.count))
        self.keyBytes.initialize(from: keyBytes, count: keyBytes.count)
        self.keyEnds = keyEnds
        self.members = members
        self.indices = indices
    }

    deinit { keyBytes.deallocate() }

    /// Where the text of the key at `position`, in quotes, ends when `bytes` has it at `start` (its
    /// opening quote); `nil` when it does not.
    @inline(__always)
    package func endOfKey(_ position: Int, in bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Int? {
        let first = position == 0 ? 0 : keyEnds[position - 1]
        return JSONParser.endOfKey(keyBytes + first, length: keyEnds[position] - first, in: bytes, at: start)
    }

    /// Removes the placeholders of the keys from `position` on, which an object did not have.
    package func removePlaceholders(from position: Int, in members: inout [String: JSONValue]) {
        for key in keys[position...] { members.removeValue(forKey: key) }
    }
}
