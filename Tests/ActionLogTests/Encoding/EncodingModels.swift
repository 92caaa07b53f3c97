import Foundation

/// Types that exercise every part of the encoders, and a cart to measure them with.
enum EncodingModel {
    /// A state with a bit of everything. Not `Equatable` itself: its children are a mix of
    /// `Equatable` types (reused when equal) and types that are not (always descended into).
    struct Everything: Encodable {
        var date = Date(timeIntervalSinceReferenceDate: 123.456)
        var data = Data([0, 1, 2, 254, 255])
        var url = URL(string: "https://example.com/a%20b?q=1#frag")!
        var relativeURL = URL(string: "sub/page", relativeTo: URL(string: "https://example.com/base/")!)!
        var decimal = Decimal(string: "123.4500")!
        var double = 0.1
        var float: Float = 0.1
        var int8: Int8 = -128
        var int16: Int16 = 32767
        var int32: Int32 = -7
        var int64 = Int64.min
        var uint8: UInt8 = 255
        var uint16: UInt16 = 1
        var uint32 = UInt32.max
        var uint64 = UInt64.max
        var int = 42
        var uint: UInt = 7
        var bool = true
        var text = "Ünïcødé \"quoted\" \\ / \n\t\u{1} 🎉 \u{2028}"
        var optionalText: String? = nil
        var optionalItem: Item? = Item(id: 1, name: "one", price: 1.5, quantity: 1, tags: ["a"])
        var shape = Shape.labeled("tri", sides: 3)
        var shapes: [Shape] = [.circle(radius: 1), .rect(2, 3), .empty]
        var mood = Mood.happy
        var plain = Plain.a
        var matrix: [[Int]] = [[1, 2], [], [3]]
        var byName: [String: Item] = ["x": Item(id: 2, name: "two", price: 2, quantity: 2, tags: [])]
        var byNumber: [Int: [String]] = [1: ["a"], 20: []]
        var nested: [String: [Int: Double]] = ["k": [3: 1e-7]]
        var optionals: [Int?] = [1, nil, 3]
        var items: [Item] = (0..<5).map { Item(id: $0, name: "item \($0)", price: Double($0) * 0.5, quantity: 1, tags: ["t\($0)"]) }
        var points: [Point] = [Point(x: 1, y: 2), Point(x: -1.5, y: 1e21)]
        var custom = Custom(name: "custom", values: [1, 2], flag: true)
        var pet: Animal = Dog(name: "Rex", legs: 4, breed: "collie", tricks: ["sit"])
        var temperature = Celsius(value: 21.5)
        var boxed = Boxed(item: Item(id: 9, name: "boxed", price: 0, quantity: 0, tags: []))
        var bag = Bag(entries: [("n", 1), ("s", "text"), ("d", Date(timeIntervalSinceReferenceDate: 0))])
        var empty = Nothing()
        var int128 = Int128(1) << 100
        var uint128 = UInt128.max
        #if !(os(macOS) && arch(x86_64))  // no Float16 on Intel Macs
            var half: Float16 = 1.5
        #endif
        var records: [Leaves] = [Leaves(), Leaves(text: "second", number: 2)]
        var tuples: [Tuple] = [Tuple(), Tuple(text: "t2")]
        var scalars: [Scalar] = [.bool(true), .int8(-1), .uint128(.max), .none, .text("s")]
        var customs: [Custom] = [Custom(name: "c1", values: [1], flag: nil), Custom(name: "c2", values: [], flag: false)]
        var boxes: [Boxed] = [Boxed(item: Item(id: 5, name: "five", price: 5, quantity: 5, tags: ["v"]))]
        var groups: [[Item]] = [[], [Item(id: 6, name: "six", price: 6, quantity: 6, tags: [])]]
        var repeated = Repeated(first: 1, second: 2)
    }

    struct Item: Codable, Equatable, Sendable {
        var id: Int
        var name: String
        var price: Double
        var quantity: Int
        var tags: [String]
    }

    /// Not `Equatable`: always encoded again.
    struct Point: Encodable {
        var x: Double
        var y: Double
    }

    /// Synthesized `Codable` for associated values: nested keyed containers, `_0` for unlabeled values.
    enum Shape: Codable, Equatable {
        case circle(radius: Double)
        case rect(Double, Double)
        case labeled(_ name: String, sides: Int)
        case empty
    }

    enum Mood: String, Codable, Equatable {
        case happy, sad
    }

    /// No raw value, no associated values: `{"a":{}}`.
    enum Plain: Codable, Equatable {
        case a, b
    }

    /// A custom `encode(to:)` with nested keyed and unkeyed containers, `encodeNil`, and a super encoder.
    struct Custom: Encodable, Equatable {
        var name: String
        var values: [Int]
        var flag: Bool?

        enum Keys: String, CodingKey {
            case meta, name, flag, values, nothing, total, pair
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            var meta = container.nestedContainer(keyedBy: Keys.self, forKey: .meta)
            try meta.encode(name, forKey: .name)
            try meta.encodeIfPresent(flag, forKey: .flag)
            var list = container.nestedUnkeyedContainer(forKey: .values)
            for value in values { try list.encode(value) }
            var pair = list.nestedUnkeyedContainer()
            try pair.encode(values.count)
            try pair.encode(name)
            var tail = list.nestedContainer(keyedBy: Keys.self)
            try tail.encode(flag ?? false, forKey: .flag)
            try container.encodeNil(forKey: .nothing)
            var total = container.superEncoder(forKey: .total).singleValueContainer()
            try total.encode(values.reduce(0, +))
        }
    }

    /// A class hierarchy: the subclass writes the superclass under `"super"`.
    class Animal: Encodable {
        var name: String
        var legs: Int

        init(name: String, legs: Int) {
            self.name = name
            self.legs = legs
        }
    }

    final class Dog: Animal {
        var breed: String
        var tricks: [String]

        init(name: String, legs: Int, breed: String, tricks: [String]) {
            self.breed = breed
            self.tricks = tricks
            super.init(name: name, legs: legs)
        }

        private enum Keys: String, CodingKey {
            case breed, tricks
        }

        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(breed, forKey: .breed)
            try container.encode(tricks, forKey: .tricks)
            try super.encode(to: container.superEncoder())
        }
    }

    /// A single value, `Equatable`.
    struct Celsius: Encodable, Equatable {
        var value: Double

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(value)
        }
    }

    /// A single value holding a struct.
    struct Boxed: Encodable, Equatable {
        var item: Item

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(item)
        }
    }

    /// Heterogeneous members: `[String: any Encodable]`-like, whose types can change between states.
    struct Bag: Encodable {
        var entries: [(String, any Encodable & Sendable)]

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            for (key, value) in entries { try container.encode(value, forKey: Key(stringValue: key)) }
        }
    }

    /// Encodes nothing: `{}` when nested.
    struct Nothing: Encodable {
        func encode(to encoder: any Encoder) throws {}
    }

    /// Every leaf type as a member, in an `Equatable` struct kept in arrays (so its previous
    /// value's children are captured when it changes).
    struct Leaves: Codable, Equatable {
        var flag = true
        var text = "leaves"
        var number = 1.5
        var single: Float = 2.5
        var i8: Int8 = 1, i16: Int16 = 2, i32: Int32 = 3, i64: Int64 = 4, i128: Int128 = 5
        var u: UInt = 6, u8: UInt8 = 7, u16: UInt16 = 8, u32: UInt32 = 9, u64: UInt64 = 10, u128: UInt128 = 11
        var date = Date(timeIntervalSinceReferenceDate: 0)
        var data = Data([9])
        var url = URL(string: "https://example.com")!
        var decimal = Decimal(1)
        var maybe: Int? = nil
        var nothing: String? = nil
        var shape = Shape.empty

        init(text: String = "leaves", number: Double = 1.5) {
            self.text = text
            self.number = number
        }

        func encode(to encoder: any Encoder) throws {
            enum Keys: String, CodingKey {
                case flag, text, number, single, i8, i16, i32, i64, i128, u, u8, u16, u32, u64, u128, date, data, url, decimal, maybe, nothing, shape
            }
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(flag, forKey: .flag)
            try c.encode(text, forKey: .text)
            try c.encode(number, forKey: .number)
            try c.encode(single, forKey: .single)
            try c.encode(i8, forKey: .i8)
            try c.encode(i16, forKey: .i16)
            try c.encode(i32, forKey: .i32)
            try c.encode(i64, forKey: .i64)
            try c.encode(i128, forKey: .i128)
            try c.encode(u, forKey: .u)
            try c.encode(u8, forKey: .u8)
            try c.encode(u16, forKey: .u16)
            try c.encode(u32, forKey: .u32)
            try c.encode(u64, forKey: .u64)
            try c.encode(u128, forKey: .u128)
            try c.encode(date, forKey: .date)
            try c.encode(data, forKey: .data)
            try c.encode(url, forKey: .url)
            try c.encode(decimal, forKey: .decimal)
            try c.encodeIfPresent(maybe, forKey: .maybe)
            if nothing == nil { try c.encodeNil(forKey: .nothing) } else { try c.encode(nothing, forKey: .nothing) }
            try c.encode(shape, forKey: .shape)
        }
    }

    /// An unkeyed container with every leaf type, `nil`, nested containers and a super encoder.
    struct Tuple: Encodable, Equatable {
        var text = "tuple"
        var count: Int8 = 3
        var ratio = 0.25
        var items: [Item] = []

        func encode(to encoder: any Encoder) throws {
            var c = encoder.unkeyedContainer()
            try c.encode(true)
            try c.encode(text)
            try c.encode(ratio)
            try c.encode(Float(ratio))
            try c.encode(Int(count))
            try c.encode(count)
            try c.encode(Int16(count))
            try c.encode(Int32(count))
            try c.encode(Int64(count))
            try c.encode(Int128(count))
            try c.encode(UInt(count))
            try c.encode(UInt8(count))
            try c.encode(UInt16(count))
            try c.encode(UInt32(count))
            try c.encode(UInt64(count))
            try c.encode(UInt128(count))
            try c.encodeNil()
            try c.encode(items)
            var pair = c.nestedUnkeyedContainer()
            try pair.encode(text)
            enum Keys: String, CodingKey { case count, text }
            var keyed = c.nestedContainer(keyedBy: Keys.self)
            try keyed.encode(count, forKey: .count)
            var superValue = c.superEncoder().singleValueContainer()
            try superValue.encode(text + "!")
        }
    }

    /// A single value of any leaf type, or `null`.
    enum Scalar: Encodable, Equatable {
        case bool(Bool), text(String), double(Double), float(Float)
        case int(Int), int8(Int8), int16(Int16), int32(Int32), int64(Int64), int128(Int128)
        case uint(UInt), uint8(UInt8), uint16(UInt16), uint32(UInt32), uint64(UInt64), uint128(UInt128)
        case none

        func encode(to encoder: any Encoder) throws {
            var c = encoder.singleValueContainer()
            switch self {
            case .bool(let v): try c.encode(v)
            case .text(let v): try c.encode(v)
            case .double(let v): try c.encode(v)
            case .float(let v): try c.encode(v)
            case .int(let v): try c.encode(v)
            case .int8(let v): try c.encode(v)
            case .int16(let v): try c.encode(v)
            case .int32(let v): try c.encode(v)
            case .int64(let v): try c.encode(v)
            case .int128(let v): try c.encode(v)
            case .uint(let v): try c.encode(v)
            case .uint8(let v): try c.encode(v)
            case .uint16(let v): try c.encode(v)
            case .uint32(let v): try c.encode(v)
            case .uint64(let v): try c.encode(v)
            case .uint128(let v): try c.encode(v)
            case .none: try c.encodeNil()
            }
        }
    }

    /// Writes the same key twice (the last value wins) and asks twice for the same nested container.
    struct Repeated: Encodable {
        var first: Int
        var second: Int

        func encode(to encoder: any Encoder) throws {
            enum Keys: String, CodingKey { case x, n, a, b }
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode([first], forKey: .x)
            try c.encode(second, forKey: .x)
            var n1 = c.nestedContainer(keyedBy: Keys.self, forKey: .n)
            try n1.encode(first, forKey: .a)
            var n2 = c.nestedContainer(keyedBy: Keys.self, forKey: .n)
            try n2.encode(second, forKey: .b)
            try c.encode(first, forKey: .a)
            try c.encode(Item(id: first, name: "", price: 0, quantity: second, tags: []), forKey: .b)
            try c.encode(Item(id: second, name: "", price: 0, quantity: first, tags: []), forKey: .b)
        }
    }

    // MARK: - The cart

    struct Cart: Codable, Equatable, Sendable {
        var items: [Item]
        var note: String
        var coupon: String?

        static func make(count: Int) -> Cart {
            Cart(
                items: (0..<count).map {
                    Item(id: $0, name: "Product \($0)", price: Double($0 % 97) + 0.99, quantity: 1 + $0 % 3, tags: ["tag\($0 % 7)", "sale"])
                },
                note: "deliver after 6pm", coupon: nil)
        }
    }

    /// SplitMix64: a small deterministic generator, so that every seed replays the same sequence.
    struct SeededGenerator: RandomNumberGenerator {
        private var state: UInt64

        init(seed: UInt64) { state = seed }

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }

        /// A number in `0..<bound`; `bound` must be positive.
        mutating func next(below bound: Int) -> Int {
            Int(next() % UInt64(bound))
        }
    }
}
