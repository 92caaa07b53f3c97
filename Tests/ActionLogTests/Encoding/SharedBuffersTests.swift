import Foundation
import Testing
@testable import ActionLog

/// The change encoder keeps no buffer of the caller's collections of more than a few elements, so
/// the caller's next in-place mutation does not copy them (see `EncodingContext.sharedCount` and
/// `largeCount`).
@Suite("ChangeEncoder: the caller's collections stay the caller's alone")
struct SharedBuffersTests {
    typealias Model = EncodingModel

    /// Where an array's elements are: the same address after a mutation means no copy was made.
    func address<Element>(_ array: [Element]) -> UnsafeRawPointer? {
        array.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    /// The storage reference of a dictionary (its only stored property), as bits.
    func storage<Key, Value>(_ dictionary: [Key: Value]) -> Int {
        withUnsafeBytes(of: dictionary) { $0.load(as: Int.self) }
    }

    @Test("after an encode, changing an array in place does not copy it, and the next patch is exact", arguments: [
        EncodingContext.sharedCount + 1, 10, EncodingContext.largeCount + 1, 100,
    ])
    func arrayNotShared(count: Int) throws {
        var cart = Model.Cart.make(count: count)
        let encoder = ChangeEncoder<Model.Cart>()
        _ = try encoder.encode(cart)
        for step in 0..<20 {
            let before = address(cart.items)
            cart.items[(step * 7) % cart.items.count].quantity += 1
            #expect(address(cart.items) == before, "step \(step): the mutation copied the array")
            let previous = try #require(encoder.previousJSON)
            let change = try encoder.encode(cart)
            #expect(change.json == (try JSONValueEncoder().encode(cart)))
            #expect(try change.patch?.apply(to: previous) == change.json)
            #expect(change.patch?.operations.count == 1)
        }
    }

    @Test("a growing history nested in a struct: appends do not copy it, each patch is one add")
    func growingHistory() throws {
        struct Line: Codable, Equatable { var id: Int; var memo: String }
        struct Book: Codable, Equatable { var lines: [Line] = []; var total = 0 }
        struct App: Codable, Equatable { var book = Book(); var title = "ledger" }
        var app = App()
        app.book.lines.reserveCapacity(400)  // Appends then stay in place unless the buffer is shared.
        let encoder = ChangeEncoder<App>()
        _ = try encoder.encode(app)
        for index in 0..<300 {
            let before = address(app.book.lines)
            app.book.lines.append(Line(id: index, memo: "memo \(index)"))
            app.book.total += index
            if index > EncodingContext.largeCount + 1 {
                #expect(address(app.book.lines) == before, "append \(index) copied the history")
            }
            let previous = try #require(encoder.previousJSON)
            let change = try encoder.encode(app)
            #expect(change.json == (try JSONValueEncoder().encode(app)))
            #expect(try change.patch?.apply(to: previous) == change.json)
        }
        let last = try encoder.encode(app)
        #expect(last.patch == JSONPatch())
    }

    @Test("a dictionary is not kept either: updating a key in place does not copy it", arguments: [EncodingContext.sharedCount + 1, 50])
    func dictionaryNotShared(count: Int) throws {
        struct Scores: Codable, Equatable { var byName: [String: Int] }
        var scores = Scores(byName: Dictionary(uniqueKeysWithValues: (0..<count).map { ("player \($0)", $0) }))
        let encoder = ChangeEncoder<Scores>()
        _ = try encoder.encode(scores)
        for step in 0..<10 {
            let before = storage(scores.byName)
            scores.byName["player \(step % count)", default: 0] += 1
            #expect(storage(scores.byName) == before, "step \(step): the update copied the dictionary")
            let previous = try #require(encoder.previousJSON)
            let change = try encoder.encode(scores)
            #expect(try change.patch?.apply(to: previous) == change.json)
            #expect(change.patch?.operations.count == 1)
        }
    }

    @Test("an encode that throws leaves the encoder's own copy as it was: the next patch is from the last good state")
    func throwingEncodeKeepsOwnCopy() throws {
        var cart = Model.Cart.make(count: 40)
        let encoder = ChangeEncoder<Model.Cart>()
        let first = try encoder.encode(cart)
        cart.items.append(cart.items[0])
        cart.items[30].quantity += 1
        cart.items[4].price = .nan
        #expect(throws: EncodingError.self) { try encoder.encode(cart) }
        #expect(encoder.previousJSON == first.json)

        cart.items[4].price = 2
        let change = try encoder.encode(cart)
        #expect(change.json == (try JSONValueEncoder().encode(cart)))
        #expect(try change.patch?.apply(to: first.json) == change.json)
        // And the own copy followed: the next small change is again one operation.
        cart.items[10].quantity += 1
        let next = try encoder.encode(cart)
        #expect(next.patch?.operations == [.replace(path: JSONPointer("/items/10/quantity")!, value: .number(String(cart.items[10].quantity)))])
    }

    @Test("random edits of a large array, a small one and one crossing the limit: every patch exact", arguments: 0..<6)
    func randomEdits(seed: Int) throws {
        struct State: Codable, Equatable { var big: [Int]; var small: [String]; var grows: [Int] }
        var random = Model.SeededGenerator(seed: UInt64(seed))
        var state = State(big: Array(0..<60), small: ["a", "b"], grows: [])
        let encoder = ChangeEncoder<State>()
        _ = try encoder.encode(state)
        for _ in 0..<200 {
            let index = Int.random(in: 0..<max(1, state.big.count), using: &random)
            switch Int.random(in: 0..<7, using: &random) {
            case 0: if !state.big.isEmpty { state.big[index] += 1 }
            case 1: state.big.insert(-index, at: min(index, state.big.count))
            case 2: if !state.big.isEmpty { state.big.remove(at: index) }
            case 3: state.big.replaceSubrange(min(index, state.big.count)..<min(index + 3, state.big.count), with: [7, 8])
            case 4: state.small.append("s\(index)")
            case 5: state.grows.append(index)
            default: if !state.grows.isEmpty { state.grows.removeLast(min(state.grows.count, 5)) }
            }
            let previous = try #require(encoder.previousJSON)
            let change = try encoder.encode(state)
            #expect(change.json == (try JSONValueEncoder().encode(state)))
            #expect(try change.patch?.apply(to: previous) == change.json)
        }
    }
}
