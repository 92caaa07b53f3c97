import Foundation
import Testing
@testable import ActionLog

@Suite("JSONValueEncoder")
struct JSONValueEncoderTests {
    typealias Model = EncodingModel

    /// Encodes `value` both ways and checks that the results agree: equivalent (numbers by value),
    /// and in fact equal, number texts included, but for negative zero, which is written `0`.
    func expectSameAsJSONEncoder<T: Encodable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let direct = try JSONValueEncoder().encode(value)
        let viaText = try JSONValue(encoding: value)
        #expect(direct.isEquivalent(to: viaText), "\(direct.canonicalText)\n≠ \(viaText.canonicalText)", sourceLocation: sourceLocation)
        #expect(direct.canonicalText == viaText.writingNegativeZeroAsZero.canonicalText, sourceLocation: sourceLocation)
    }

    @Test("the broad model encodes as JSONEncoder encodes it")
    func broadModel() throws {
        try expectSameAsJSONEncoder(Model.Everything())
    }

    @Test("every mutation of the broad model still encodes as JSONEncoder encodes it")
    func mutatedModels() throws {
        for seed in 0..<20 as Range<UInt64> {
            var random = Model.SeededGenerator(seed: seed)
            var state = Model.Everything()
            for _ in 0..<25 {
                state.mutate(using: &random)
                try expectSameAsJSONEncoder(state)
            }
        }
    }

    @Test("each part on its own, and at the top level")
    func parts() throws {
        let everything = Model.Everything()
        try expectSameAsJSONEncoder(everything.date)
        try expectSameAsJSONEncoder(everything.data)
        try expectSameAsJSONEncoder(everything.url)
        try expectSameAsJSONEncoder(everything.relativeURL)
        try expectSameAsJSONEncoder(everything.decimal)
        try expectSameAsJSONEncoder(everything.shapes)
        try expectSameAsJSONEncoder(everything.byNumber)
        try expectSameAsJSONEncoder(everything.custom)
        try expectSameAsJSONEncoder(everything.pet)
        try expectSameAsJSONEncoder(everything.boxed)
        try expectSameAsJSONEncoder(everything.bag)
        try expectSameAsJSONEncoder(everything.items)  // a top-level array
        try expectSameAsJSONEncoder(42)  // top-level single values
        try expectSameAsJSONEncoder("text")
        try expectSameAsJSONEncoder(Int?.none)
        try expectSameAsJSONEncoder(Model.Celsius(value: -0.0))
        try expectSameAsJSONEncoder([Model.Nothing()])
        try expectSameAsJSONEncoder([Int8(1): "a", 2: "b"])  // non-String, non-Int keys: an array of pairs
    }

    @Test("number texts are JSONEncoder's, byte for byte")
    func numberTexts() throws {
        let doubles = [0.1, 1, -0.0, 1e-7, 1e16, 1e21, 1.2345678901234568e20, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 1.5e300, 100]
        try expectSameAsJSONEncoder(doubles)
        #expect(try JSONValueEncoder().encode(doubles).canonicalText
            == "[0.1,1,0,1e-07,1e+16,1e+21,1.2345678901234568e+20,5e-324,1.7976931348623157e+308,1.5e+300,100]")
        #expect(try JSONValue(encoding: doubles)[2] == .number("-0"))  // the one difference
        try expectSameAsJSONEncoder([Float(0.1), 1e-7, 3.4e38, 16_777_216, -1])
        try expectSameAsJSONEncoder([Int64.min, Int64.max])
        try expectSameAsJSONEncoder([UInt64.max])
        try expectSameAsJSONEncoder([Int128.min, Int128.max])
        try expectSameAsJSONEncoder([Decimal(string: "-0.000001")!, Decimal(string: "1e30")!, 0, Decimal(string: "12345678901234567890.5")!])
    }

    @Test("leaves: Date as journals write it, Data, URL and Decimal as JSONEncoder writes them")
    func leaves() throws {
        let encoder = JSONValueEncoder()
        #expect(try encoder.encode(Date(timeIntervalSinceReferenceDate: 123.456)) == .string("2001-01-01T00:02:03.456000Z"))
        #expect(try JSONValueEncoder(dates: .referenceSeconds).encode(Date(timeIntervalSinceReferenceDate: 123.456)) == .number("123.456"))
        #expect(try encoder.encode(Data([1, 2, 3, 255])) == .string("AQID/w=="))
        #expect(try encoder.encode(Model.Everything().relativeURL) == .string("https://example.com/base/sub/page"))
        #expect(try encoder.encode(Decimal(string: "123.4500")!) == .number("123.45"))
    }

    @Test("optionals: a nil member is left out, an explicit nil is null")
    func optionals() throws {
        struct Holder: Encodable {
            var absent: Int? = nil
            var present: Int? = 3
            var list: [Int?] = [nil]
        }
        #expect(try JSONValueEncoder().encode(Holder()).canonicalText == #"{"list":[null],"present":3}"#)
        #expect(try JSONValueEncoder().encode(Model.Custom(name: "n", values: [], flag: nil)).canonicalText
            == #"{"meta":{"name":"n"},"nothing":null,"total":0,"values":[[0,"n"],{"flag":false}]}"#)
    }

    @Test("enums, super encoders and empty values as JSONEncoder writes them")
    func shapesOfValues() throws {
        let encoder = JSONValueEncoder()
        #expect(try encoder.encode([Model.Shape.rect(1, 2), .labeled("t", sides: 3), .empty]).canonicalText
            == #"[{"rect":{"_0":1,"_1":2}},{"labeled":{"_0":"t","sides":3}},{"empty":{}}]"#)
        #expect(try encoder.encode(Model.Everything().pet).canonicalText
            == #"{"breed":"collie","super":{"legs":4,"name":"Rex"},"tricks":["sit"]}"#)
        #expect(try encoder.encode([Model.Nothing()]).canonicalText == "[{}]")
        #expect(try encoder.encode([1: true]).canonicalText == #"{"1":true}"#)
    }

    @Test("a container asked for twice is the same container, and a key written twice keeps the last value")
    func repeatedRequests() throws {
        struct Twice: Encodable {
            enum Keys: String, CodingKey { case a, b, x, y }
            func encode(to encoder: any Encoder) throws {
                var first = encoder.container(keyedBy: Keys.self)
                try first.encode(1, forKey: .a)
                var second = encoder.container(keyedBy: Keys.self)
                try second.encode(2, forKey: .b)
                try second.encode(3, forKey: .a)
                var nested = first.nestedContainer(keyedBy: Keys.self, forKey: .x)
                try nested.encode(1, forKey: .x)
                var again = first.nestedContainer(keyedBy: Keys.self, forKey: .x)
                try again.encode(2, forKey: .y)
            }
        }
        try expectSameAsJSONEncoder(Twice())
        #expect(try JSONValueEncoder().encode(Twice()).canonicalText == #"{"a":3,"b":2,"x":{"x":1,"y":2}}"#)
    }

    @Test("coding paths are JSONEncoder's: keys, Index n, super")
    func codingPaths() throws {
        struct Echo: Encodable {
            /// JSONEncoder gives a super encoder of a nested unkeyed container the path of the
            /// container's parent (`a/Index 1/Index 2`, without `list`); ours includes it.
            var superOfNestedList = true
            enum Keys: String, CodingKey { case here, nested, list, count }
            func encode(to encoder: any Encoder) throws {
                func text(_ path: [any CodingKey]) -> String { path.map(\.stringValue).joined(separator: "/") }
                var c = encoder.container(keyedBy: Keys.self)
                try c.encode(text(encoder.codingPath) + " | " + text(c.codingPath), forKey: .here)
                var nested = c.nestedContainer(keyedBy: Keys.self, forKey: .nested)
                try nested.encode(text(nested.codingPath), forKey: .here)
                var list = c.nestedUnkeyedContainer(forKey: .list)
                try list.encode(text(list.codingPath))
                try list.encode(list.count)
                if superOfNestedList {
                    let superEncoder = list.superEncoder()
                    var single = superEncoder.singleValueContainer()
                    try single.encode(text(superEncoder.codingPath) + " | " + text(single.codingPath))
                }
                let keyedSuper = c.superEncoder()
                var keyedSingle = keyedSuper.singleValueContainer()
                try keyedSingle.encode(text(keyedSuper.codingPath))
            }
        }
        try expectSameAsJSONEncoder(["a": [Echo(superOfNestedList: false), Echo(superOfNestedList: false)]])
        let value = try JSONValueEncoder().encode(["a": [Echo(), Echo()]])
        #expect(value["a"]?[1]?["list"]?[2] == "a/Index 1/list/Index 2 | a/Index 1/list/Index 2")
    }

    @Test("userInfo reaches encode(to:)")
    func userInfo() throws {
        let key = CodingUserInfoKey(rawValue: "mode")!
        struct Reader: Encodable {
            let key: CodingUserInfoKey
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(encoder.userInfo[key] as? String ?? "none")
            }
        }
        #expect(try JSONValueEncoder(userInfo: [key: "short"]).encode(Reader(key: key)) == .string("short"))
    }

    // MARK: - Errors

    @Test("a NaN or infinite float throws EncodingError.invalidValue at its coding path, as JSONEncoder does")
    func nonFiniteFloats() throws {
        var state = Model.Everything()
        state.items[3].price = .nan
        let error = try #require(throws: EncodingError.self) { try JSONValueEncoder().encode(state) }
        #expect(throws: EncodingError.self) { try JSONValue(encoding: state) }
        guard case .invalidValue(_, let context) = error else {
            Issue.record("expected invalidValue, got \(error)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["items", "Index 3", "price"])
        #expect(context.debugDescription == "Unable to encode Double.nan directly in JSON.")

        #expect(throws: EncodingError.self) { try JSONValueEncoder().encode([Float.infinity]) }
        #expect(throws: EncodingError.self) { try JSONValueEncoder().encode(Model.Celsius(value: -.infinity)) }
        #expect(throws: EncodingError.self) { try JSONValueEncoder().encode(Date(timeIntervalSinceReferenceDate: .nan)) }
    }

    @Test("a NaN Decimal throws (JSONEncoder writes NaN, which is not JSON)")
    func nanDecimal() throws {
        #expect(throws: EncodingError.self) { try JSONValueEncoder().encode(["d": Decimal.nan]) }
    }

    @Test("a top-level value that encodes nothing throws, as with JSONEncoder")
    func emptyTopLevel() throws {
        let error = try #require(throws: EncodingError.self) { try JSONValueEncoder().encode(Model.Nothing()) }
        #expect(throws: EncodingError.self) { try JSONEncoder().encode(Model.Nothing()) }
        guard case .invalidValue(_, let context) = error else {
            Issue.record("expected invalidValue, got \(error)")
            return
        }
        #expect(context.debugDescription == "Top-level Nothing did not encode any values.")
    }

    @Test("an error thrown by encode(to:) comes through unchanged")
    func customError() throws {
        struct Refused: Error, Equatable {}
        struct Refusing: Encodable {
            func encode(to encoder: any Encoder) throws { throw Refused() }
        }
        #expect(throws: Refused()) { try JSONValueEncoder().encode(["a": [Refusing()]]) }
    }
}

extension JSONValue {
    /// The value with every `-0` number written `0`, as ``JSONValueEncoder`` writes negative zero.
    var writingNegativeZeroAsZero: JSONValue {
        switch self {
        case .number("-0"): .number("0")
        case .array(let elements): .array(elements.map(\.writingNegativeZeroAsZero))
        case .object(let members): .object(members.mapValues(\.writingNegativeZeroAsZero))
        default: self
        }
    }
}
