import Foundation
import Testing
@testable import ActionLog

@Suite("ChangeEncoder")
struct ChangeEncoderTests {
    typealias Model = EncodingModel

    /// Encodes `state` with `encoder` and checks the contract: the JSON is exactly a full encode's,
    /// and the patch turns the previous JSON into it exactly.
    @discardableResult
    func expectContract<State: Encodable>(
        _ encoder: ChangeEncoder<State>, _ state: State, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ChangeEncoder<State>.Change {
        let previous = encoder.previousJSON
        let change = try encoder.encode(state)
        let full = try JSONValueEncoder().encode(state)
        #expect(change.json == full, sourceLocation: sourceLocation)
        #expect(change.json.canonicalText == full.canonicalText, sourceLocation: sourceLocation)
        if let previous {
            let patch = try #require(change.patch, sourceLocation: sourceLocation)
            let patched = try patch.apply(to: previous)
            #expect(patched == change.json, "patch \(patch) does not give the new JSON", sourceLocation: sourceLocation)
        } else {
            #expect(change.patch == nil, sourceLocation: sourceLocation)
        }
        #expect(encoder.previousJSON == change.json, sourceLocation: sourceLocation)
        return change
    }

    func pointer(_ text: String) -> JSONPointer { JSONPointer(text)! }

    // MARK: - The contract over random changes

    @Test("random changes of the broad model: JSON equal to a full encode, patches apply exactly", arguments: 0..<40)
    func randomChanges(seed: Int) throws {
        var random = Model.SeededGenerator(seed: UInt64(seed))
        var state = Model.Everything()
        let encoder = ChangeEncoder<Model.Everything>()
        try expectContract(encoder, state)
        for step in 0..<60 {
            state.mutate(using: &random)
            try expectContract(encoder, state)
            if step % 20 == 19 {
                #expect(try encoder.previousJSON?.isEquivalent(to: JSONValue(encoding: state)) == true)
            }
        }
    }

    @Test("random changes of a cart of Equatable items: patches are exact and small")
    func randomCartChanges() throws {
        var random = Model.SeededGenerator(seed: 7)
        var cart = Model.Cart.make(count: 50)
        let encoder = ChangeEncoder<Model.Cart>()
        try expectContract(encoder, cart)
        for _ in 0..<300 {
            let index = Int.random(in: 0..<cart.items.count, using: &random)
            var expected = 1...1
            switch Int.random(in: 0..<6, using: &random) {
            case 0: cart.items[index].quantity += 1
            case 1: cart.items[index].tags.append("x")
            case 2: cart.items.insert(cart.items[index], at: index)
            case 3:
                if cart.items.count > 1 { cart.items.remove(at: index) } else { expected = 0...0 }
            case 4: cart.coupon = cart.coupon == nil ? "SAVE" : nil
            default:
                // Two whole items change places: at most one operation per field of each.
                let other = cart.items.count - 1 - index
                expected = cart.items[index] == cart.items[other] ? 0...0 : 1...10
                cart.items.swapAt(index, other)
            }
            let change = try expectContract(encoder, cart)
            #expect(expected.contains(change.patch?.operations.count ?? -1))
        }
    }

    @Test("an append to a long list next to a changed counter is one add, not a replacement of the state")
    func appendBesideCounter() throws {
        struct Log: Codable, Equatable {
            var lines: [String] = (0..<50).map { "line \($0)" }
            var count = 0
        }
        var log = Log()
        let encoder = ChangeEncoder<Log>()
        try expectContract(encoder, log)
        log.lines.append("new")
        log.count += 1
        let change = try expectContract(encoder, log)
        #expect(change.patch?.description == #"[{"op":"replace","path":"/count","value":1},{"op":"add","path":"/lines/50","value":"new"}]"#)
    }

    @Test("an unchanged state gives an empty patch, also when its arrays were copied")
    func unchanged() throws {
        var cart = Model.Cart.make(count: 100)
        let encoder = ChangeEncoder<Model.Cart>()
        try expectContract(encoder, cart)
        #expect(try expectContract(encoder, cart).patch == JSONPatch())
        cart.items = cart.items.map { $0 }
        #expect(try expectContract(encoder, cart).patch == JSONPatch())
    }

    // MARK: - The cart

    @Test("changing one item's quantity is one replace at /items/<i>/quantity")
    func oneQuantity() throws {
        var cart = Model.Cart.make(count: 1000)
        let encoder = ChangeEncoder<Model.Cart>()
        try expectContract(encoder, cart)
        for index in [0, 1, 499, 998, 999] {
            cart.items[index].quantity += 1
            let change = try expectContract(encoder, cart)
            #expect(change.patch?.operations == [
                .replace(path: pointer("/items/\(index)/quantity"), value: .number(String(cart.items[index].quantity)))
            ])
        }
    }

    @Test("appending an item is one add; removing the last is one remove")
    func appendAndRemoveLast() throws {
        var cart = Model.Cart.make(count: 1000)
        let encoder = ChangeEncoder<Model.Cart>()
        try expectContract(encoder, cart)

        let item = Model.Item(id: 1000, name: "New", price: 9.5, quantity: 1, tags: ["new"])
        cart.items.append(item)
        let added = try expectContract(encoder, cart)
        #expect(added.patch?.operations == [.add(path: pointer("/items/1000"), value: try JSONValueEncoder().encode(item))])

        cart.items.removeLast()
        #expect(try expectContract(encoder, cart).patch?.operations == [.remove(path: pointer("/items/1000"))])
        cart.items.removeLast()
        #expect(try expectContract(encoder, cart).patch?.operations == [.remove(path: pointer("/items/999"))])
    }

    @Test("inserting or removing in the middle is one add or one remove")
    func middleEdits() throws {
        var cart = Model.Cart.make(count: 1000)
        let encoder = ChangeEncoder<Model.Cart>()
        try expectContract(encoder, cart)

        let item = Model.Item(id: -1, name: "Inserted", price: 1, quantity: 1, tags: [])
        cart.items.insert(item, at: 500)
        #expect(try expectContract(encoder, cart).patch?.operations == [
            .add(path: pointer("/items/500"), value: try JSONValueEncoder().encode(item))
        ])
        cart.items.remove(at: 10)
        #expect(try expectContract(encoder, cart).patch?.operations == [.remove(path: pointer("/items/10"))])
    }

    @Test("when most of an array changed, it is replaced whole")
    func mostlyChanged() throws {
        var cart = Model.Cart.make(count: 20)
        let encoder = ChangeEncoder<Model.Cart>()
        try expectContract(encoder, cart)
        cart.items.reverse()
        let change = try expectContract(encoder, cart)
        #expect(change.patch?.operations == [.replace(path: pointer("/items"), value: change.json["items"]!)])
    }

    @Test("a member that appears, changes and disappears is added, replaced and removed")
    func members() throws {
        var cart = Model.Cart.make(count: 3)
        let encoder = ChangeEncoder<Model.Cart>()
        try expectContract(encoder, cart)
        cart.coupon = "SAVE10"
        #expect(try expectContract(encoder, cart).patch?.operations == [.add(path: pointer("/coupon"), value: "SAVE10")])
        cart.coupon = "SAVE20"
        #expect(try expectContract(encoder, cart).patch?.operations == [.replace(path: pointer("/coupon"), value: "SAVE20")])
        cart.coupon = nil
        #expect(try expectContract(encoder, cart).patch?.operations == [.remove(path: pointer("/coupon"))])
    }

    @Test("dictionary keys are escaped in pointers, and operations come in key order")
    func dictionaryKeys() throws {
        var state = ["a/b": 1, "m~n": 2, "": 3, "z": 4, "b": 0, "c": 0, "d": 0, "e": 0, "f": 0]
        let encoder = ChangeEncoder<[String: Int]>()
        try expectContract(encoder, state)
        state["z"] = 5
        state["a/b"] = 6
        state["m~n"] = nil
        state[""] = 7
        let change = try expectContract(encoder, state)
        #expect(change.patch?.description == #"[{"op":"replace","path":"/","value":7},{"op":"replace","path":"/a~1b","value":6},{"op":"remove","path":"/m~0n"},{"op":"replace","path":"/z","value":5}]"#)
    }

    @Test("a value whose JSON changes kind is replaced whole, the root included")
    func kindChanges() throws {
        enum Root: Encodable, Equatable {
            case list([Int]), single(Int), record(Model.Item)
        }
        let encoder = ChangeEncoder<Root>()
        for state in [Root.list([1]), .single(2), .record(.init(id: 1, name: "a", price: 0, quantity: 1, tags: [])), .list([]), .single(3)] {
            try expectContract(encoder, state)
        }
        let top = ChangeEncoder<Model.Celsius>()
        try expectContract(top, Model.Celsius(value: 1))
        #expect(try expectContract(top, Model.Celsius(value: 2)).patch?.operations == [.replace(path: .root, value: 2)])
    }

    // MARK: - Errors and reset

    @Test("a NaN inside throws EncodingError and leaves the encoder as it was")
    func nanInside() throws {
        var cart = Model.Cart.make(count: 10)
        let encoder = ChangeEncoder<Model.Cart>()
        let first = try expectContract(encoder, cart)
        cart.items[4].price = .nan
        #expect(throws: EncodingError.self) { try encoder.encode(cart) }
        #expect(encoder.previousJSON == first.json)

        cart.items[4].price = 2
        let change = try expectContract(encoder, cart)
        #expect(change.patch?.operations == [.replace(path: pointer("/items/4/price"), value: 2)])
    }

    @Test("after reset the next encode is full, without a patch")
    func reset() throws {
        var cart = Model.Cart.make(count: 10)
        let encoder = ChangeEncoder<Model.Cart>()
        try expectContract(encoder, cart)
        encoder.reset()
        #expect(encoder.previousJSON == nil)
        cart.note = "changed"
        let change = try expectContract(encoder, cart)
        #expect(change.patch == nil)
        #expect(change.json == (try JSONValueEncoder().encode(cart)))
    }

    @Test("objects changed in place are encoded again, also inside optionals, arrays and dictionaries")
    func objectsChangedInPlace() throws {
        final class Tally: Encodable, Equatable {
            var count = 0
            static func == (lhs: Tally, rhs: Tally) -> Bool { lhs.count == rhs.count }
        }
        struct State: Encodable {
            var direct = Tally()
            var maybe: Tally? = Tally()
            var list = [Tally(), Tally()]
            var byName = ["a": Tally()]
            var untouched = [1, 2, 3]  // keeps the root from being replaced whole
        }
        let state = State()
        let encoder = ChangeEncoder<State>()
        try expectContract(encoder, state)
        for step in 1...4 {
            state.direct.count += 1
            state.maybe?.count += 2
            state.list[step % 2].count += 3
            state.byName["a"]?.count += 4
            let change = try expectContract(encoder, state)
            #expect(change.patch?.operations.count == 4)
        }
    }

    @Test("a type whose == ignores an encoded field keeps the stale JSON: the documented limit")
    func disagreeingEquality() throws {
        struct Loose: Encodable, Equatable {
            var id: Int
            var note: String
            static func == (lhs: Loose, rhs: Loose) -> Bool { lhs.id == rhs.id }
        }
        var state = [Loose(id: 1, note: "a")]
        let encoder = ChangeEncoder<[Loose]>()
        _ = try encoder.encode(state)
        state[0].note = "b"
        let change = try encoder.encode(state)
        #expect(change.patch == JSONPatch())
        #expect(change.json != (try JSONValueEncoder().encode(state)))
    }

    // MARK: - Patching the previous JSON in place

    @Test("patching the previous JSON in place: random changes of the broad model keep the contract", arguments: 0..<40)
    func randomChangesPatchedInPlace(seed: Int) throws {
        var random = Model.SeededGenerator(seed: UInt64(seed))
        var state = Model.Everything()
        let encoder = ChangeEncoder<Model.Everything>()
        encoder.patchesPreviousJSON = true
        try expectContract(encoder, state)
        for _ in 0..<60 {
            state.mutate(using: &random)
            try expectContract(encoder, state)
        }
    }

    @Test("patching the previous JSON in place: random edits of a cart keep the contract")
    func randomCartChangesPatchedInPlace() throws {
        var random = Model.SeededGenerator(seed: 11)
        var cart = Model.Cart.make(count: 30)
        let encoder = ChangeEncoder<Model.Cart>()
        encoder.patchesPreviousJSON = true
        try expectContract(encoder, cart)
        for _ in 0..<400 {
            let index = Int.random(in: 0..<cart.items.count, using: &random)
            switch Int.random(in: 0..<7, using: &random) {
            case 0: cart.items[index].quantity += 1
            case 1: cart.items[index].tags.append("x")
            case 2: cart.items.insert(cart.items[index], at: index)
            case 3: if cart.items.count > 1 { cart.items.remove(at: index) }
            case 4: cart.coupon = cart.coupon == nil ? "SAVE" : nil
            case 5:
                // Most items change at once: rebuilding would replace the array whole.
                for i in cart.items.indices { cart.items[i].quantity += 1 }
            default: cart.items.swapAt(index, cart.items.count - 1 - index)
            }
            try expectContract(encoder, cart)
        }
    }

    @Test("patching the previous JSON in place, an append to a long list is one add and the JSON is the full encode's")
    func appendPatchedInPlace() throws {
        struct Log: Codable, Equatable {
            var count = 0
            var lines: [[String]] = (0..<200).map { ["line \($0)"] }
        }
        var log = Log()
        let encoder = ChangeEncoder<Log>()
        encoder.patchesPreviousJSON = true
        _ = try encoder.encode(log)
        for step in 0..<5 {
            log.count += 1
            log.lines.append(["new \(step)"])
            let change = try encoder.encode(log)
            #expect(change.patch?.description == #"[{"op":"replace","path":"/count","value":\#(step + 1)},{"op":"add","path":"/lines/\#(200 + step)","value":["new \#(step)"]}]"#)
            #expect(change.json == (try JSONValueEncoder().encode(log)))
        }
        // A small list whose every element changed: the object is not replaced whole with stale JSON.
        log.lines = [["a"]]
        _ = try encoder.encode(log)
        log.lines[0].append("b")
        log.count += 1
        let change = try encoder.encode(log)
        #expect(change.json == (try JSONValueEncoder().encode(log)))
        #expect(try change.patch.map { try $0.apply(to: JSONValueEncoder().encode(Log(count: log.count - 1, lines: [["a"]]))) } == change.json)
    }

    @Test("patching the previous JSON in place, an array of values that cannot be compared is not replaced whole with stale JSON")
    func genericArrayPatchedInPlace() throws {
        struct Row: Codable { var cells: [Int] }  // not Equatable: the array of rows takes the generic path
        struct Sheet: Codable { var rows: [Row] }
        var sheet = Sheet(rows: [Row(cells: [1]), Row(cells: [2])])
        let encoder = ChangeEncoder<Sheet>()
        encoder.patchesPreviousJSON = true
        _ = try encoder.encode(sheet)
        sheet.rows[0].cells.append(3)
        sheet.rows[1].cells.append(4)
        let change = try encoder.encode(sheet)
        #expect(change.json == (try JSONValueEncoder().encode(sheet)))
        #expect(change.json.canonicalText == #"{"rows":[{"cells":[1,3]},{"cells":[2,4]}]}"#)
    }

    @Test("patching the previous JSON in place, a member written twice is encoded exactly")
    func memberWrittenTwicePatchedInPlace() throws {
        struct Twice: Encodable {
            enum Key: CodingKey { case list }
            var list: [Int]
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Key.self)
                try container.encode([0], forKey: .list)
                try container.encode(list, forKey: .list)
            }
        }
        var value = Twice(list: [1, 2])
        let encoder = ChangeEncoder<Twice>()
        encoder.patchesPreviousJSON = true
        try expectContract(encoder, value)
        for next in 3...5 {
            value.list.append(next)
            try expectContract(encoder, value)
        }
        #expect(encoder.previousJSON?.canonicalText == #"{"list":[1,2,3,4,5]}"#)
    }

}
