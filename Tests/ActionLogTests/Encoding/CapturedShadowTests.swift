import Foundation
import Testing
@testable import ActionLog

@Suite("ChangeEncoder: captured shadows remembered by the bytes of previous elements")
struct CapturedShadowTests {
    final class Reference: Sendable {
        let name: String
        init(_ name: String) { self.name = name }
    }

    struct Item: Codable, Equatable, Sendable {
        var id: Int
        var quantity: Int
        var tags: [String]
        var options: [Int: String]
        var owner: Owner?

        static func == (lhs: Item, rhs: Item) -> Bool {
            lhs.id == rhs.id && lhs.quantity == rhs.quantity && lhs.tags == rhs.tags && lhs.options == rhs.options
                && lhs.owner?.reference === rhs.owner?.reference
        }
    }

    /// Holds an object: an element's bytes then include a pointer.
    struct Owner: Codable, Sendable {
        var reference: Reference
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(reference.name)
        }
        init(_ reference: Reference) { self.reference = reference }
        init(from decoder: any Decoder) throws { reference = Reference(try decoder.singleValueContainer().decode(String.self)) }
    }

    struct Cart: Codable, Equatable, Sendable {
        var items: [Item]
    }

    /// Changes that make element values come back: quantities going up and down, tags toggled.
    static func states(count: Int, seed: UInt64) -> [Cart] {
        var random = EncodingModel.SeededGenerator(seed: seed)
        let owners = [Reference("ann"), Reference("bob")]
        var cart = Cart(items: (0..<6).map { Item(id: $0, quantity: 1, tags: ["a"], options: [:], owner: nil) })
        var states = [cart]
        for _ in 0..<count {
            let index = Int.random(in: 0..<cart.items.count, using: &random)
            switch Int.random(in: 0..<6, using: &random) {
            case 0, 1: cart.items[index].quantity = Int.random(in: 1...3, using: &random)
            case 2: cart.items[index].tags = cart.items[index].tags.count > 2 ? ["a"] : cart.items[index].tags + ["t\(cart.items[index].tags.count)"]
            // At most `sharedCount` tags: an item holding more is not captured at all (see SharedBuffersTests).
            case 3: cart.items[index].tags = cart.items[index].tags.count < EncodingContext.sharedCount ? ["first"] + cart.items[index].tags : ["a"]
            case 4: cart.items[index].owner = Bool.random(using: &random) ? Owner(owners.randomElement(using: &random)!) : nil
            default: cart.items[index].options[Int.random(in: 0..<2, using: &random)] = Bool.random(using: &random) ? "x" : nil
            }
            states.append(cart)
        }
        return states
    }

    @Test("patches and JSON are the same with remembered captures as without", arguments: 0..<8)
    func sameWithAndWithout(seed: Int) throws {
        let remembering = ChangeEncoder<Cart>()
        let capturing = ChangeEncoder<Cart>()
        capturing.context.capturedShadowCapacity = 0
        var previous: JSONValue?
        for state in Self.states(count: 300, seed: UInt64(seed)) {
            let remembered = try remembering.encode(state)
            let captured = try capturing.encode(state)
            #expect(remembered.json == captured.json)
            #expect(remembered.patch?.canonicalText == captured.patch?.canonicalText)
            #expect(remembered.json == (try JSONValueEncoder().encode(state)))
            if let previous, let patch = remembered.patch { #expect(try patch.apply(to: previous) == remembered.json) }
            previous = remembered.json
        }
        #expect(!remembering.context.typeInfo(Item.self).capturedShadows.isEmpty)
        #expect(capturing.context.typeInfo(Item.self).capturedShadows.isEmpty)
    }

    @Test("a value that comes back reuses its capture, and the patch is still the one change")
    func reuse() throws {
        let encoder = ChangeEncoder<Cart>()
        var cart = Cart(items: (0..<3).map { Item(id: $0, quantity: 1, tags: ["a", "b"], options: [:], owner: nil) })
        _ = try encoder.encode(cart)
        for quantity in [2, 1, 2, 1, 2] {
            cart.items[1].quantity = quantity
            let change = try encoder.encode(cart)
            #expect(change.patch?.canonicalText == #"[{"op":"replace","path":"/items/1/quantity","value":\#(quantity)}]"#)
        }
        cart.items[1].tags.insert("z", at: 1)
        #expect(try encoder.encode(cart).patch?.canonicalText == #"[{"op":"add","path":"/items/1/tags/1","value":"z"}]"#)
    }

    @Test("remembered captures keep the objects of their values alive only as long as the encoder")
    func noCycle() throws {
        weak var weakReference: Reference?
        weak var weakEncoder: ChangeEncoder<Cart>?
        do {
            let reference = Reference("ann")
            weakReference = reference
            let encoder = ChangeEncoder<Cart>()
            weakEncoder = encoder
            var cart = Cart(items: [Item(id: 0, quantity: 1, tags: [], options: [:], owner: Owner(reference))])
            for quantity in 2...4 {
                _ = try encoder.encode(cart)
                cart.items[0].quantity = quantity
            }
        }
        #expect(weakEncoder == nil)
        #expect(weakReference == nil)
    }
}
