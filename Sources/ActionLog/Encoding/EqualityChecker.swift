import Foundation

/// `==` for one type, called with pointers to two values of that type. A class rather than a
/// generic function so that the conformance is looked up once per type, when the checker is made.
class EqualityChecker {
    /// Whether the values at `lhs` and `rhs` (both of the checker's type) are equal.
    func equal(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer) -> Bool {
        fatalError("EqualityChecker is abstract")
    }
}

private final class TypedEqualityChecker<Value: Equatable>: EqualityChecker {
    override func equal(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer) -> Bool {
        lhs.assumingMemoryBound(to: Value.self).pointee == rhs.assumingMemoryBound(to: Value.self).pointee
    }
}

extension EqualityChecker {
    /// The checker for `type`.
    static func make<Value: Equatable>(for type: Value.Type) -> EqualityChecker {
        TypedEqualityChecker<Value>()
    }

    /// Whether the values at `lhs` and `rhs` are equal, trying their bytes first.
    ///
    /// Two values of a value type with the same bytes are the same value: the same numbers, the
    /// same copy-on-write buffers (which cannot have changed, as the previous value still holds
    /// them). So equal bytes mean equal — for types that hold no object changed in place, the same
    /// assumption as reusing on `==` — and `==` is only called when the bytes differ (padding or a
    /// copied buffer can make equal values differ bytewise).
    ///
    /// - Parameters:
    ///   - lhs: a value of the checker's type.
    ///   - rhs: another value of the checker's type.
    ///   - size: `MemoryLayout<T>.size` of that type.
    @inline(__always)
    func same(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, size: Int) -> Bool {
        memcmp(lhs, rhs, size) == 0 || equal(lhs, rhs)
    }
}
