import Foundation

/// What the encoders decided about one type, once: whether it is a leaf written without calling its
/// `encode(to:)` (a number, a string, `Date`, `Data`, `URL`, `Decimal`), an `Array`, and whether a
/// previous value of it may be compared with `==` and reused.
///
/// ``EncodingContext`` caches one per type, keyed by `ObjectIdentifier(T.self)`, so the casts and
/// conformance checks happen once per type and encode, not once per value.
final class TypeInfo {
    enum Kind {
        case bool, string, double, float
        case int, int8, int16, int32, int64, int128
        case uint, uint8, uint16, uint32, uint64, uint128
        /// Seconds since the reference date, as `JSONEncoder`'s default `.deferredToDate` writes it.
        case date
        /// A base64 string, as `JSONEncoder`'s default `.base64` writes it.
        case data
        /// The `absoluteString`, as `JSONEncoder` writes it.
        case url
        /// A number written with `description`, as `JSONEncoder` writes it.
        case decimal
        /// `Array<Element>`: encoded element by element without going through `Array.encode(to:)`.
        case array(any EncodableArray.Type)
        /// Anything else: its own `encode(to:)` decides.
        case other
    }

    let id: ObjectIdentifier
    let kind: Kind
    /// `MemoryLayout<T>.size`, for the bitwise pre-check before `==`.
    let size: Int
    /// `==` for the type, when previous values of it may be reused: the type is `Equatable` and
    /// holds no objects — it is not a class, nor an optional, array, set or dictionary of them (an
    /// object changed in place would look equal to itself). Only looked up when the encoder keeps
    /// a shadow tree.
    let equality: EqualityChecker?
    /// How many members the last value of this type wrote into its keyed container, to size the
    /// next one's dictionary up front.
    @exclusivity(unchecked) var memberCount = 0
    /// The ``CapturedShadow``s made lately for previous values of this type, by the values' bytes:
    /// see ``EncodingContext/capturedShadow(of:info:)``.
    @exclusivity(unchecked) var capturedShadows: [Bits: ShadowNode] = [:]
    /// Set once a value of this type was seen holding a large container (see
    /// ``EncodingContext/largeCount``): arrays of it are no longer kept typed, nor its values captured.
    @exclusivity(unchecked) private(set) var holdsLarge = false

    /// Set once a value of this type was seen holding a container of more than
    /// ``EncodingContext/sharedCount`` elements: its values are no longer kept or captured, so that
    /// the container is not shared with the caller. Implied by ``holdsLarge``.
    @exclusivity(unchecked) private(set) var holdsUnshared = false

    /// Records that a value of this type holds a large container, and forgets the captured values.
    func holdsLargeContainers() {
        guard !holdsLarge else { return }
        holdsLarge = true
        holdsUnsharedContainers()
    }

    /// Records that a value of this type holds a container not to share, and forgets the captured values.
    func holdsUnsharedContainers() {
        guard !holdsUnshared else { return }
        holdsUnshared = true
        capturedShadows.removeAll()
    }

    /// Whether the type is a `Dictionary` or a `Set`: a copy-on-write collection that its
    /// `encode(to:)` writes member by member (or element by element).
    let isHashedCollection: Bool

    /// Whether values of the type are written as a placeholder (``RedactedInJournal``).
    let isRedacted: Bool

    /// Whether the value is written as one JSON leaf without calling `encode(to:)`.
    var isLeaf: Bool {
        switch kind {
        case .array, .other: false
        default: true
        }
    }

    init<T>(_ type: T.Type, tracking: Bool) {
        id = ObjectIdentifier(type)
        size = MemoryLayout<T>.size
        kind = Self.kind(of: type)
        isHashedCollection = type is any HashedCollection.Type
        isRedacted = type is any RedactedInJournal.Type
        if tracking, !Self.holdsObjects(type), let equatable = type as? any Equatable.Type {
            equality = EqualityChecker.make(for: equatable)
        } else {
            equality = nil
        }
    }

    /// Whether values of `type` are, or are standard containers of, class instances.
    private static func holdsObjects(_ type: Any.Type, depth: Int = 0) -> Bool {
        if type is AnyObject.Type { return true }
        guard depth < 8, let container = type as? any ValueContainer.Type else { return false }
        return container.containedTypes.contains { holdsObjects($0, depth: depth + 1) }
    }

    private static func kind<T>(of type: T.Type) -> Kind {
        switch ObjectIdentifier(type) {
        case ObjectIdentifier(String.self): .string
        case ObjectIdentifier(Int.self): .int
        case ObjectIdentifier(Double.self): .double
        case ObjectIdentifier(Bool.self): .bool
        case ObjectIdentifier(Float.self): .float
        case ObjectIdentifier(Date.self): .date
        case ObjectIdentifier(Data.self): .data
        case ObjectIdentifier(URL.self): .url
        case ObjectIdentifier(Decimal.self): .decimal
        case ObjectIdentifier(Int8.self): .int8
        case ObjectIdentifier(Int16.self): .int16
        case ObjectIdentifier(Int32.self): .int32
        case ObjectIdentifier(Int64.self): .int64
        case ObjectIdentifier(UInt.self): .uint
        case ObjectIdentifier(UInt8.self): .uint8
        case ObjectIdentifier(UInt16.self): .uint16
        case ObjectIdentifier(UInt32.self): .uint32
        case ObjectIdentifier(UInt64.self): .uint64
        default: wideIntegerKind(of: type) ?? (type as? any EncodableArray.Type).map(Kind.array) ?? .other
        }
    }

    /// `Int128` and `UInt128`, on the systems that have them (macOS 15, iOS 18 and later).
    private static func wideIntegerKind(of type: Any.Type) -> Kind? {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return nil }
        switch ObjectIdentifier(type) {
        case ObjectIdentifier(Int128.self): return .int128
        case ObjectIdentifier(UInt128.self): return .uint128
        default: return nil
        }
    }
}

/// `Dictionary` and `Set`, recognised by type.
protocol HashedCollection {}

extension Dictionary: HashedCollection {}
extension Set: HashedCollection {}

/// A standard container, whose element types decide whether it holds objects.
protocol ValueContainer {
    static var containedTypes: [Any.Type] { get }
}

extension Optional: ValueContainer {
    static var containedTypes: [Any.Type] { [Wrapped.self] }
}

extension Array: ValueContainer {
    static var containedTypes: [Any.Type] { [Element.self] }
}

extension ContiguousArray: ValueContainer {
    static var containedTypes: [Any.Type] { [Element.self] }
}

extension Set: ValueContainer {
    static var containedTypes: [Any.Type] { [Element.self] }
}

extension Dictionary: ValueContainer {
    static var containedTypes: [Any.Type] { [Key.self, Value.self] }
}

/// `value` as `U`, when the caller knows that `T` is `U`. (A bit cast: no pointer to a temporary,
/// whose generic closure costs metadata lookups on every call.)
@inline(__always)
func reinterpret<T, U>(_ value: T, as type: U.Type) -> U {
    unsafeBitCast(value, to: U.self)
}
