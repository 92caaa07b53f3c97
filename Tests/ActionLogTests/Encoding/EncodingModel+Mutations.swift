import Foundation

extension EncodingModel.Everything {
    /// Changes one randomly chosen part of the state (or nothing), the way a reducer might.
    mutating func mutate(using random: inout EncodingModel.SeededGenerator) {
        typealias Item = EncodingModel.Item
        func pick<T>(_ choices: [T]) -> T { choices[Int.random(in: 0..<choices.count, using: &random)] }
        func number() -> Double { pick([0.1, 1e-7, 1e21, -0.0, 2, 123_456.789, .leastNonzeroMagnitude, Double.random(in: -1e6...1e6, using: &random)]) }
        func newItem() -> Item {
            let id = Int.random(in: 0..<10_000, using: &random)
            return Item(id: id, name: pick(["pear", "äpfel", "🍐", "x\"y"]), price: number(), quantity: id % 5, tags: pick([[], ["new"], ["a", "b"]]))
        }
        func index<C: Collection>(in collection: C) -> Int? {
            collection.isEmpty ? nil : Int.random(in: 0..<collection.count, using: &random)
        }

        switch Int.random(in: 0..<40, using: &random) {
        case 0: date = date.addingTimeInterval(pick([-1, 0.001, 86_400, 1e-7]))
        case 1: data = Data((0..<Int.random(in: 0..<8, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
        case 2: url = URL(string: pick(["https://example.com/\(Int.random(in: 0..<9, using: &random))", "file:///tmp/a%20b", "mailto:x@y.z"]))!
        case 3: decimal = pick([Decimal(string: "0.000001")!, Decimal(string: "1e30")!, decimal + 1, Decimal(-3) / Decimal(7)])
        case 4: double = number()
        case 5: float = pick([Float(0.1), 1e-7, 3.4e38, Float.random(in: -100...100, using: &random)])
        case 6:
            int8 &+= 1; int16 &-= 3; int64 = pick([Int64.min, 0, Int64.max]); uint64 = pick([0, UInt64.max])
        case 7: bool.toggle(); uint8 &+= 1; uint = pick([0, UInt.max])
        case 8: text = pick(["", "plain", "tab\tnew\nline", "\u{0}\u{1f}", "emoji 👩‍👩‍👧", "\\/\""])
        case 9: optionalText = optionalText == nil ? pick(["x", ""]) : nil
        case 10:
            if optionalItem == nil || Bool.random(using: &random) {
                optionalItem = optionalItem == nil ? newItem() : nil
            } else {
                optionalItem?.quantity += 1
            }
        case 11: shape = pick([.circle(radius: number()), .rect(1, number()), .labeled("sq", sides: 4), .empty])
        case 12:
            if let i = index(in: shapes), Bool.random(using: &random) {
                shapes[i] = pick([.circle(radius: 2), .empty, .rect(0, 0)])
            } else if Bool.random(using: &random) {
                shapes.append(.labeled("new", sides: 5))
            } else if !shapes.isEmpty {
                shapes.removeFirst()
            }
        case 13: mood = mood == .happy ? .sad : .happy; plain = plain == .a ? .b : .a
        case 14:
            if let i = index(in: matrix), Bool.random(using: &random) {
                matrix[i].append(Int.random(in: 0..<100, using: &random))
            } else if Bool.random(using: &random) {
                matrix.insert([7, 8], at: Int.random(in: 0...matrix.count, using: &random))
            } else if let i = index(in: matrix) {
                matrix.remove(at: i)
            }
        case 15:
            let key = pick(["x", "y", "z", "a/b", "m~n", ""])
            if byName[key] == nil { byName[key] = newItem() } else if Bool.random(using: &random) { byName[key] = nil } else { byName[key]!.quantity += 1 }
        case 16:
            let key = Int.random(in: -2..<4, using: &random)
            if byNumber[key] == nil { byNumber[key] = ["n"] } else if Bool.random(using: &random) { byNumber[key] = nil } else { byNumber[key]!.append("m") }
        case 17: nested[pick(["k", "l"]), default: [:]][Int.random(in: 0..<3, using: &random)] = number()
        case 18:
            if let i = index(in: optionals), Bool.random(using: &random) {
                optionals[i] = optionals[i] == nil ? i : nil
            } else if Bool.random(using: &random) {
                optionals.append(nil)
            } else if !optionals.isEmpty {
                optionals.removeLast()
            }
        case 19:
            if let i = index(in: items) {
                if Bool.random(using: &random) { items[i].quantity += 1 } else { items[i].tags.append("t") }
            }
        case 20:
            switch Int.random(in: 0..<4, using: &random) {
            case 0: items.append(newItem())
            case 1: if !items.isEmpty { items.removeLast() }
            case 2: items.insert(newItem(), at: Int.random(in: 0...items.count, using: &random))
            default: if let i = index(in: items) { items.remove(at: i) }
            }
        case 21:
            switch Int.random(in: 0..<5, using: &random) {
            case 0: items.shuffle(using: &random)
            case 1: items.reverse()
            case 2: items = items.isEmpty ? (0..<3).map { _ in newItem() } : []
            case 3:
                // Mixed: an insertion and a change elsewhere.
                items.insert(newItem(), at: Int.random(in: 0...items.count, using: &random))
                if let i = index(in: items) { items[i].price = number() }
                if items.count > 3 { items.remove(at: 1) }
            default: items = items.map { $0 }  // equal, in a new buffer
            }
        case 22:
            if let i = index(in: points), Bool.random(using: &random) { points[i].x = number() } else { points.append(.init(x: 0, y: number())) }
        case 23:
            switch Int.random(in: 0..<3, using: &random) {
            case 0: custom.name += "!"
            case 1: custom.values = pick([[], [1], [3, 2, 1], custom.values + [4]])
            default: custom.flag = pick([nil, true, false])
            }
        case 24:
            // The class is changed in place: the previous state holds the same object.
            if let dog = pet as? EncodingModel.Dog, Bool.random(using: &random) {
                dog.tricks.append("roll")
                dog.legs = pick([3, 4])
            } else {
                pet = Bool.random(using: &random)
                    ? EncodingModel.Animal(name: "cat", legs: 4) : EncodingModel.Dog(name: "Fido", legs: 4, breed: "pug", tricks: [])
            }
        case 25: temperature.value = number()
        case 26: boxed.item = Bool.random(using: &random) ? newItem() : boxed.item
        case 27:
            // Values change type at the same key, keys come and go.
            let key = pick(["n", "s", "d", "new"])
            let value: any Encodable & Sendable = pick([1, "one", [1, 2], ["k": true], 2.5] as [any Encodable & Sendable])
            if let i = bag.entries.firstIndex(where: { $0.0 == key }) {
                if Bool.random(using: &random) { bag.entries[i].1 = value } else { bag.entries.remove(at: i) }
            } else {
                bag.entries.append((key, value))
            }
        case 28:
            int128 = pick([0, Int128.min, int128 &+ 1])
            uint128 = pick([0, UInt128.max])
            #if !(os(macOS) && arch(x86_64))
                half = pick([0.5, -2, 65504])
            #endif
        case 29: relativeURL = URL(string: pick(["a", "../b"]), relativeTo: URL(string: "https://example.com/base/")!)!
        case 31:
            if let i = index(in: records) {
                switch Int.random(in: 0..<4, using: &random) {
                case 0: records[i].text += "+"
                case 1: records[i].maybe = records[i].maybe == nil ? 1 : nil
                case 2: records[i].nothing = records[i].nothing == nil ? "now" : nil
                default: records[i].shape = .rect(1, number())
                }
            }
            if Bool.random(using: &random) { records.append(.init(text: "new", number: number())) }
        case 32:
            if let i = index(in: tuples) {
                if Bool.random(using: &random) { tuples[i].count &+= 1 } else { tuples[i].items.append(newItem()) }
            } else {
                tuples.append(.init())
            }
        case 33:
            if let i = index(in: scalars) {
                scalars[i] = pick([.bool(false), .text("x"), .double(number()), .float(1.5), .int(-3), .int16(7), .int32(8), .int64(9), .uint(1), .uint8(2), .uint16(3), .uint32(4), .uint64(5), .int128(-6), .none])
            }
        case 34:
            if let i = index(in: customs) {
                switch Int.random(in: 0..<3, using: &random) {
                case 0: customs[i].name += "?"
                case 1: customs[i].values.append(customs[i].values.count)
                default: customs[i].flag = pick([nil, true, false])
                }
            }
        case 35:
            if let i = index(in: boxes), Bool.random(using: &random) { boxes[i].item.quantity += 1 } else { boxes.insert(.init(item: newItem()), at: 0) }
        case 36:
            if let i = index(in: groups), let j = index(in: groups[i]) {
                groups[i][j].tags.append("g")
            } else if let i = index(in: groups) {
                groups[i].append(newItem())
            }
        case 37:
            // Most points change, or points are added: the unkeyed path of a type that is not Equatable.
            if Bool.random(using: &random) { points = points.map { .init(x: $0.x + 1, y: $0.y) } } else { points += [.init(x: 1, y: 1), .init(x: 2, y: 2)] }
        case 38: if Bool.random(using: &random) { repeated.first += 1 } else { repeated.second -= 1 }
        case 30:
            // Several changes at once.
            for _ in 0..<3 { mutate(using: &random) }
        default:
            break  // no change: an empty patch
        }
    }
}
