import Foundation

/// The bytes of a value of up to 64 bytes, as a dictionary key.
///
/// Two values with the same bytes are the same value: the same numbers, cases and payloads, and the
/// same objects — as long as the objects of the first stay alive, so that the second cannot point to
/// a new object at a freed address (a key does not keep them: its owner must). Equal values may have
/// different bytes (padding, the unused bytes of a smaller payload or of an existential's buffer),
/// which only costs a miss.
///
/// The bytes are copied once, when the key is made: a copy of a value need not copy the bytes its
/// layout does not use, so reading them again could disagree with the hash. Not generic, so that
/// dictionaries of keys are specialized in this module.
struct Bits: Hashable {
    private let count: Int
    private var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)

    /// The largest value a key can hold, in bytes.
    static var capacity: Int { 64 }

    /// The key of `value`, or `nil` when its type is larger than ``capacity``.
    init?<Value>(_ value: Value) {
        guard MemoryLayout<Value>.size <= Self.capacity else { return nil }
        count = MemoryLayout<Value>.size
        withUnsafeMutableBytes(of: &words) { words in
            withUnsafeBytes(of: value) { bytes in words.copyMemory(from: bytes) }
        }
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        // Unused words are zero in both.
        lhs.count == rhs.count && lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1 && lhs.words.2 == rhs.words.2
            && lhs.words.3 == rhs.words.3 && lhs.words.4 == rhs.words.4 && lhs.words.5 == rhs.words.5
            && lhs.words.6 == rhs.words.6 && lhs.words.7 == rhs.words.7
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        hasher.combine(words.0)
        guard count > 8 else { return }
        hasher.combine(words.1)
        guard count > 16 else { return }
        hasher.combine(words.2)
        hasher.combine(words.3)
        guard count > 32 else { return }
        hasher.combine(words.4)
        hasher.combine(words.5)
        hasher.combine(words.6)
        hasher.combine(words.7)
    }
}
