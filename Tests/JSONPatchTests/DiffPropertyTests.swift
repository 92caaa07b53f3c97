@testable import ActionLog
import PropertyBased
import Testing

/// Random JSON documents for property tests: small trees whose keys and scalars come from short
/// lists, so that two documents often share parts and arrays hold repeated values.
enum RandomJSON {
    /// Keys include the characters JSON Pointer escapes and keys that look like array indices.
    static let keys = ["a", "b", "c", "id", "0", "1", "", "~", "/", "a/b", "m~n", "~1"]
    static let strings = ["x", "y", "z", "", "~/", "é", "line\nbreak"]
    static let numbers = ["0", "1", "2", "3", "-1", "1.5", "1.0", "1e2", "-0"]

    static func scalar(using rng: inout some RandomNumberGenerator) -> JSONValue {
        switch Int.random(in: 0..<10, using: &rng) {
        case 0: .null
        case 1: .bool(Bool.random(using: &rng))
        case 2...5: .number(numbers.randomElement(using: &rng)!)
        default: .string(strings.randomElement(using: &rng)!)
        }
    }

    /// A small integer: arrays of these have many equal elements, so edits land in the middle.
    static func smallNumber(using rng: inout some RandomNumberGenerator) -> JSONValue {
        .number(String(Int.random(in: 0...3, using: &rng)))
    }

    static func value(depth: Int, using rng: inout some RandomNumberGenerator) -> JSONValue {
        if depth == 0 || Int.random(in: 0..<4, using: &rng) == 0 { return scalar(using: &rng) }
        switch Int.random(in: 0..<3, using: &rng) {
        case 0:
            return .array((0..<Int.random(in: 0...12, using: &rng)).map { _ in smallNumber(using: &rng) })
        case 1:
            return .array((0..<Int.random(in: 0...5, using: &rng)).map { _ in value(depth: depth - 1, using: &rng) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0...5, using: &rng) {
                members[keys.randomElement(using: &rng)!] = value(depth: depth - 1, using: &rng)
            }
            return .object(members)
        }
    }

    /// `value` with one random change somewhere inside: an element inserted, removed or replaced, a
    /// member added, removed or replaced, or a scalar changed.
    static func mutate(_ value: JSONValue, using rng: inout some RandomNumberGenerator) -> JSONValue {
        switch value {
        case .array(var elements):
            let choice = elements.isEmpty ? 0 : Int.random(in: 0..<5, using: &rng)
            switch choice {
            case 0:
                let element = Bool.random(using: &rng) ? smallNumber(using: &rng) : Self.value(depth: 2, using: &rng)
                elements.insert(element, at: Int.random(in: 0...elements.count, using: &rng))
            case 1:
                elements.remove(at: Int.random(in: elements.indices, using: &rng))
            case 2:
                elements[Int.random(in: elements.indices, using: &rng)] = Self.value(depth: 2, using: &rng)
            default:
                let index = Int.random(in: elements.indices, using: &rng)
                elements[index] = mutate(elements[index], using: &rng)
            }
            return .array(elements)
        case .object(var members):
            let choice = members.isEmpty ? 0 : Int.random(in: 0..<4, using: &rng)
            switch choice {
            case 0:
                members[keys.randomElement(using: &rng)!] = Self.value(depth: 2, using: &rng)
            case 1:
                members.removeValue(forKey: members.keys.randomElement(using: &rng)!)
            default:
                let key = members.keys.randomElement(using: &rng)!
                members[key] = mutate(members[key]!, using: &rng)
            }
            return .object(members)
        default:
            return Self.value(depth: 2, using: &rng)
        }
    }
}

/// A document generator for `propertyCheck`.
let documents = Generator { rng in RandomJSON.value(depth: 4, using: &rng) }

/// Pairs of a document and the same document after one to five random changes.
let editedDocuments = Generator { rng in
    let original = RandomJSON.value(depth: 4, using: &rng)
    var edited = original
    for _ in 0..<Int.random(in: 1...5, using: &rng) { edited = RandomJSON.mutate(edited, using: &rng) }
    return [original, edited] as [JSONValue]
}

/// Arrays of 0 to 30 small integers.
let smallArrays = Generator { rng in
    JSONValue.array((0..<Int.random(in: 0...30, using: &rng)).map { _ in RandomJSON.smallNumber(using: &rng) })
}

/// `diff(from: a, to: b)` applied to `a` gives exactly `b`, also after a trip through JSON text.
///
/// With `editsOnly`, arrays are never replaced whole, which checks the edit scripts themselves.
private func expectDiffRoundTrips(from a: JSONValue, to b: JSONValue, editsOnly: Bool = false) throws {
    let patch = JSONPatch.diff(from: a, to: b, replacingLongArrayEdits: !editsOnly)
    let result = try patch.apply(to: a)
    #expect(result == b, "the diff \(patch) turned \(a) into \(result), not \(b)")
    if a == b { #expect(patch.operations.isEmpty, "equal values gave \(patch)") }

    let reread = try JSONPatch(JSONValue(parsing: patch.jsonValue.canonicalText))
    #expect(reread == patch, "\(patch) does not survive its JSON text")
}

@Suite("diff properties")
struct DiffPropertyTests {
    @Test("apply(diff(a, b), a) == b for random pairs")
    func randomPairs() async {
        await propertyCheck(count: 500, input: documents, documents) { a, b in
            try expectDiffRoundTrips(from: a, to: b)
            try expectDiffRoundTrips(from: a, to: b, editsOnly: true)
        }
    }

    @Test("apply(diff(a, edited a), a) == edited a")
    func editedPairs() async {
        await propertyCheck(count: 1_000, input: editedDocuments) { pair in
            try expectDiffRoundTrips(from: pair[0], to: pair[1])
            try expectDiffRoundTrips(from: pair[1], to: pair[0])
            try expectDiffRoundTrips(from: pair[0], to: pair[1], editsOnly: true)
        }
    }

    @Test("apply(diff(a, b), a) == b for arrays of small integers")
    func arraysOfSmallIntegers() async {
        await propertyCheck(count: 1_000, input: smallArrays, smallArrays) { a, b in
            try expectDiffRoundTrips(from: a, to: b)
            try expectDiffRoundTrips(from: a, to: b, editsOnly: true)
        }
    }

    @Test("diff(a, a) is empty")
    func equalValues() async {
        await propertyCheck(count: 300, input: documents) { a in
            #expect(JSONPatch.diff(from: a, to: a).operations.isEmpty)
        }
    }

    @Test("One element inserted or removed anywhere in 100 is one operation")
    func singleEdits() async {
        let hundred = Generator { rng in
            (0..<100).map { _ in RandomJSON.smallNumber(using: &rng) }
        }
        await propertyCheck(count: 300, input: hundred, Gen.int(in: 0...99), documents) { elements, index, element throws in
            var inserted = elements
            inserted.insert(element, at: index)
            let insertion = JSONPatch.diff(from: .array(elements), to: .array(inserted))
            #expect(insertion.operations.count == 1, "inserting at \(index) gave \(insertion)")
            #expect(try insertion.apply(to: .array(elements)) == .array(inserted))

            var removed = elements
            removed.remove(at: index)
            let removal = JSONPatch.diff(from: .array(elements), to: .array(removed))
            #expect(removal.operations.count == 1, "removing at \(index) gave \(removal)")
            #expect(try removal.apply(to: .array(elements)) == .array(removed))
        }
    }
}
