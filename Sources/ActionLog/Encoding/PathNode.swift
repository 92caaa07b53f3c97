/// A place in the value being encoded: a chain of steps up to the root. Encoders and containers
/// are path nodes themselves, so a path costs nothing until an operation or an error needs it.
class PathNode {
    final let parent: PathNode?
    final let component: PathComponent

    init(parent: PathNode?, component: PathComponent) {
        self.parent = parent
        self.component = component
    }

    /// The JSON Pointer of the place `component` below `parent` (the root when both are empty).
    static func pointer(_ parent: PathNode?, _ component: PathComponent) -> JSONPointer {
        var count = component.hasToken ? 1 : 0
        var node = parent
        while let current = node {
            if current.component.hasToken { count += 1 }
            node = current.parent
        }
        // Filled from the end, the innermost token first: one allocation, no reversal.
        let tokens = [String](unsafeUninitializedCapacity: count) { buffer, initialized in
            var index = count
            func add(_ component: PathComponent) {
                guard let token = component.token else { return }
                index -= 1
                (buffer.baseAddress! + index).initialize(to: token)
            }
            add(component)
            var node = parent
            while let current = node {
                add(current.component)
                node = current.parent
            }
            initialized = count
        }
        return JSONPointer(tokens: tokens)
    }

    /// The coding path of the place `component` below `parent`, for `Encoder.codingPath` and errors.
    static func codingPath(_ parent: PathNode?, _ component: PathComponent) -> [any CodingKey] {
        var keys: [any CodingKey] = []
        if let key = component.codingKey { keys.append(key) }
        var node = parent
        while let current = node {
            if let key = current.component.codingKey { keys.append(key) }
            node = current.parent
        }
        return keys.reversed()
    }
}

/// One step from a container to a value inside it.
enum PathComponent {
    /// No step: the root, or the value of a single-value container, which sits where its encoder does.
    case none
    /// An object member.
    case key(any CodingKey)
    /// An array element.
    case index(Int)

    /// The JSON Pointer token of the step, or `nil` for ``none``.
    var token: String? {
        switch self {
        case .none: nil
        case .key(let key): key.stringValue
        case .index(let index): JSONLeaf.decimal(index)
        }
    }

    var hasToken: Bool {
        if case .none = self { return false }
        return true
    }

    /// The coding key of the step, as `Encoder.codingPath` lists it.
    var codingKey: (any CodingKey)? {
        switch self {
        case .none: nil
        case .key(let key): key
        case .index(let index): IndexKey(index)
        }
    }
}

// MARK: - Keys

/// The key of an array element in a coding path: `Index 3`, as `JSONEncoder` names it.
struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }

    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

/// The key `superEncoder()` writes under: `super`, as `JSONEncoder` does.
struct SuperKey: CodingKey {
    var stringValue: String { "super" }
    var intValue: Int? { nil }

    init() {}
    init?(stringValue: String) { guard stringValue == "super" else { return nil } }
    init?(intValue: Int) { nil }
}

/// A member key made from a string, for paths of members stored by name.
struct MemberKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
