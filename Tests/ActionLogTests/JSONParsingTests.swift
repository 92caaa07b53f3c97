import Foundation
import Testing
@testable import ActionLog

/// The parser's fast paths (strings scanned eight bytes at a time and built in one piece, containers
/// sized up front) against what the plain byte-by-byte reading gives: same values, same errors at
/// the same offsets.
@Suite("JSON parsing")
struct JSONParsingTests {
    /// The parse error's full description for `bytes`, or `nil` when they parse.
    static func failure(_ bytes: [UInt8]) -> String? {
        do {
            _ = try JSONValue(parsing: bytes)
            return nil
        } catch {
            return "\(error)"
        }
    }

    static func failure(_ text: String) -> String? {
        failure(Array(text.utf8))
    }

    /// `bytes` between quotes, as a JSON document.
    static func quoted(_ bytes: [UInt8]) -> [UInt8] {
        [0x22] + bytes + [0x22]
    }

    // MARK: - Strings

    @Test("multi-byte UTF-8 is kept as is, at every position around the eight-byte scan", arguments: ["é", "日", "🎉", "e\u{301}"])
    func multiByteCharacters(character: String) throws {
        for prefix in 0...17 {
            for suffix in [0, 1, 7, 8, 9] {
                let text = String(repeating: "a", count: prefix) + character + String(repeating: "b", count: suffix)
                #expect(try JSONValue(parsing: "\"\(text)\"") == .string(text), "\(prefix) + \(suffix)")
                #expect(try JSONValue(parsing: "{\"\(text)\":\"\(text)\"}") == .object([text: .string(text)]))
            }
        }
        let mixed = "Größe 日本語 🎉 naïve café"
        #expect(try JSONValue(parsing: Array("[\"\(mixed)\",\"x\"]".utf8)) == .array([.string(mixed), "x"]))
    }

    @Test("escapes at the start, in the middle and at the end of a string", arguments: [
        (#""\nabc""#, "\nabc"),
        (#""ab\ncd""#, "ab\ncd"),
        (#""abc\n""#, "abc\n"),
        (#""\\""#, "\\"),
        (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{08}\u{0C}\n\r\t"),
        (#""é\"日\"🎉""#, "é\"日\"🎉"),
        (#""a long run of plain text before \t and after it, longer than eight bytes""#,
         "a long run of plain text before \t and after it, longer than eight bytes"),
        (#""\u00e9\u00C9x\u0000y""#, "éÉx\u{0}y"),
        (#""\ud83c\udf89""#, "🎉"),
        (#""a\uD83C\uDF89b\ud83d\ude00""#, "a🎉b😀"),
        (#""\uffff\u0041""#, "\u{FFFF}A"),
    ])
    func escapes(text: String, expected: String) throws {
        #expect(try JSONValue(parsing: text) == .string(expected))
        #expect(try JSONValue(parsing: "{\(text):\(text)}") == .object([expected: .string(expected)]))
    }

    @Test("bad escapes and unpaired surrogates are refused where today's parser refuses them", arguments: [
        (#""\q""#, #"invalid JSON at byte 2: invalid escape"#),
        (#""abc\"#, "invalid JSON at byte 5: unexpected end of text"),
        (#""\u12""#, "invalid JSON at byte 3: unexpected end of text"),
        (#""\u12g4""#, #"invalid JSON at byte 5: unexpected character "g""#),
        (#""\udc00""#, #"invalid JSON at byte 7: unpaired surrogate \udc00"#),
        (#""\ud800x""#, #"invalid JSON at byte 7: unpaired surrogate \ud800"#),
        (#""\ud800\n""#, #"invalid JSON at byte 7: unpaired surrogate \ud800"#),
        (#""\ud800\u0041""#, #"invalid JSON at byte 13: unpaired surrogate \ud800"#),
        (#""\ud800\ud800""#, #"invalid JSON at byte 13: unpaired surrogate \ud800"#),
        (#""\ud800\u00""#, "invalid JSON at byte 9: unexpected end of text"),
        (#""\ud800"#, #"invalid JSON at byte 7: unpaired surrogate \ud800"#),
        (#"{"a\x":1}"#, #"invalid JSON at byte 4: invalid escape"#),
    ])
    func badEscapes(text: String, message: String) {
        #expect(Self.failure(text) == message)
    }

    @Test("invalid UTF-8 is refused at the start of the run that holds it", arguments: [
        ([0x61, 0xFF], "invalid JSON at byte 1: invalid UTF-8 in a string"),
        ([0xC3], "invalid JSON at byte 1: invalid UTF-8 in a string"),
        ([0x61, 0x62, 0xE2, 0x82], "invalid JSON at byte 1: invalid UTF-8 in a string"),
        ([0xC0, 0xAF], "invalid JSON at byte 1: invalid UTF-8 in a string"),
        ([0xE0, 0x80, 0xAF], "invalid JSON at byte 1: invalid UTF-8 in a string"),
        ([0xED, 0xA0, 0x80], "invalid JSON at byte 1: invalid UTF-8 in a string"),
        ([0xF0, 0x80, 0x80, 0xAF], "invalid JSON at byte 1: invalid UTF-8 in a string"),
        ([0xF4, 0x90, 0x80, 0x80], "invalid JSON at byte 1: invalid UTF-8 in a string"),
        ([0xF5, 0x80, 0x80, 0x80], "invalid JSON at byte 1: invalid UTF-8 in a string"),
        ([0x80], "invalid JSON at byte 1: invalid UTF-8 in a string"),
        (Array("abcdefghijklmnop".utf8) + [0xFF] + Array("qrstuvwxyz".utf8), "invalid JSON at byte 1: invalid UTF-8 in a string"),
        // After an escape, the run starts after it; before one, the run is checked when the escape is reached.
        (Array(#"ab\n"#.utf8) + [0xC3, 0x28], "invalid JSON at byte 5: invalid UTF-8 in a string"),
        (Array(#"\u00e9xyz"#.utf8) + [0xFF], "invalid JSON at byte 7: invalid UTF-8 in a string"),
        ([0x61, 0xFF] + Array(#"\q"#.utf8), "invalid JSON at byte 1: invalid UTF-8 in a string"),
        ([0xC3] + Array(#"\u00a9"#.utf8), "invalid JSON at byte 1: invalid UTF-8 in a string"),
    ] as [([UInt8], String)])
    func invalidUTF8(content: [UInt8], message: String) {
        #expect(Self.failure(Self.quoted(content)) == message)
    }

    @Test("invalid UTF-8 in a key, and what wins over it")
    func invalidUTF8Precedence() {
        #expect(Self.failure([0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D]) == "invalid JSON at byte 2: invalid UTF-8 in a string")
        // A control character is found while scanning, before the run is validated.
        #expect(Self.failure([0x22, 0xFF, 0x01, 0x22]) == "invalid JSON at byte 2: unescaped control character in a string")
        // So is the end of the text.
        #expect(Self.failure([0x22, 0xFF]) == "invalid JSON at byte 2: unterminated string")
        // Bytes outside strings are not UTF-8-checked: they are unexpected.
        #expect(Self.failure([0xFF]) == "invalid JSON at byte 0: unexpected byte 0xff")
        #expect(Self.failure([0x5B, 0x31, 0x2C, 0xC3, 0xA9, 0x5D]) == "invalid JSON at byte 3: unexpected byte 0xc3")
    }

    @Test("every short byte sequence is accepted exactly when it is valid UTF-8")
    func utf8AgreesWithTheStandardLibrary() {
        var mismatches: [[UInt8]] = []
        let refused = ActionLogError(invalidJSON: "invalid UTF-8 in a string", offset: 1)
        func check(_ content: [UInt8]) {
            // Bytes that end a string or are refused before validation are tested elsewhere.
            guard !content.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) else { return }
            let expected = String(validating: content, as: UTF8.self)
            do {
                if try JSONValue(parsing: Self.quoted(content)) != expected.map(JSONValue.string) { mismatches.append(content) }
            } catch {
                if expected != nil || error != refused { mismatches.append(content) }
            }
        }
        for first in UInt8(0x20)...0xFF {
            check([first])
            for second in UInt8(0x20)...0xFF {
                check([first, second])
            }
        }
        // Longer sequences: every lead and second byte, then the bytes at the edges of the continuation range.
        let edges: [UInt8] = [0x41, 0x7F, 0x80, 0xBF, 0xC0, 0xFF]
        for first in UInt8(0xC0)...0xF7 {
            for second in UInt8(0x20)...0xFF {
                for third in edges {
                    check([first, second, third])
                    if first >= 0xF0 {
                        for fourth in edges { check([first, second, third, fourth]) }
                    }
                }
            }
        }
        for sequence in ["\u{7FF}", "\u{800}", "\u{D7FF}", "\u{E000}", "\u{FFFF}", "\u{10000}", "\u{10FFFF}"] {
            check(Array(sequence.utf8))
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }

    @Test("control characters in a string are refused where they are, at every position")
    func controlCharacters() throws {
        for byte in UInt8(0x00)..<0x20 {
            for position in [0, 3, 7, 8, 9, 20] {
                let content = Array(repeating: UInt8(ascii: "a"), count: position) + [byte] + Array("tail text".utf8)
                #expect(
                    Self.failure(Self.quoted(content)) == "invalid JSON at byte \(position + 1): unescaped control character in a string",
                    "0x\(String(byte, radix: 16)) at \(position)"
                )
            }
            // After an escape too.
            #expect(Self.failure(Self.quoted(Array(#"a\nbc"#.utf8) + [byte])) == "invalid JSON at byte 6: unescaped control character in a string")
        }
        #expect(try JSONValue(parsing: "\"a\u{7F}b\"") == .string("a\u{7F}b"))
    }

    @Test("long strings, plain, multi-byte and escaped")
    func longStrings() throws {
        let plain = String(repeating: "abcdefghij", count: 10_000)
        #expect(try JSONValue(parsing: "\"\(plain)\"") == .string(plain))
        let multiByte = String(repeating: "日本語 🎉 é ", count: 5_000)
        #expect(try JSONValue(parsing: "[\"\(multiByte)\"]") == .array([.string(multiByte)]))
        let escaped = String(repeating: #"line \"quoted\"\n"#, count: 5_000)
        #expect(try JSONValue(parsing: "\"\(escaped)\"") == .string(String(repeating: "line \"quoted\"\n", count: 5_000)))
        #expect(Self.failure("\"" + plain) == "invalid JSON at byte 100001: unterminated string")
        #expect(Self.failure("\"" + plain + "\\") == "invalid JSON at byte 100002: unexpected end of text")
        #expect(Self.failure(Self.quoted(Array(plain.utf8) + [0xFF])) == "invalid JSON at byte 1: invalid UTF-8 in a string")
    }

    // MARK: - Numbers

    @Test("numbers keep their text", arguments: ["0", "-0", "7", "-12", "3.25", "-0.5", "1e5", "1E+30", "2.5e-3", "-1.0E-10", "12345678901234567890"])
    func numbers(text: String) throws {
        #expect(try JSONValue(parsing: text) == .number(text))
        #expect(try JSONValue(parsing: "[\(text),\(text)]") == .array([.number(text), .number(text)]))
        #expect(try JSONValue(parsing: "{\"n\":\(text)}") == .object(["n": .number(text)]))
    }

    @Test("a one-character string or number is that character, for every printable ASCII character")
    func oneCharacter() throws {
        for code in UInt8(0x20)...0x7E where code != UInt8(ascii: "\"") && code != UInt8(ascii: "\\") {
            let character = String(Unicode.Scalar(code))
            let parsed = try JSONValue(parsing: "[\"\(character)\",\"\(character)\"]")
            #expect(parsed == .array([.string(character), .string(character)]))
            #expect(parsed.canonicalText == "[\"\(character)\",\"\(character)\"]")
        }
        for digit in 0...9 {
            #expect(try JSONValue(parsing: "{\"d\":\(digit)}") == .object(["d": .number(String(digit))]))
        }
    }

    @Test("malformed numbers are refused", arguments: [
        ("01", "invalid JSON at byte 1: unexpected text after the document"),
        ("-01", "invalid JSON at byte 2: unexpected text after the document"),
        ("[01]", #"invalid JSON at byte 2: unexpected character "1""#),
        ("-", "invalid JSON at byte 1: unexpected end of text"),
        ("-a", #"invalid JSON at byte 1: unexpected character "a""#),
        ("+1", #"invalid JSON at byte 0: unexpected character "+""#),
        (".5", #"invalid JSON at byte 0: unexpected character ".""#),
        ("1.", "invalid JSON at byte 2: unexpected end of text"),
        ("1.e5", #"invalid JSON at byte 2: unexpected character "e""#),
        ("1e", "invalid JSON at byte 2: unexpected end of text"),
        ("1e+", "invalid JSON at byte 3: unexpected end of text"),
        ("[-]", #"invalid JSON at byte 2: unexpected character "]""#),
        ("1.5.2", "invalid JSON at byte 3: unexpected text after the document"),
    ])
    func badNumbers(text: String, message: String) {
        #expect(Self.failure(text) == message)
    }

    // MARK: - Containers

    @Test("objects and arrays of every size, a repeated key keeping its last value")
    func containers() throws {
        #expect(try JSONValue(parsing: "{}") == .object([:]))
        #expect(try JSONValue(parsing: "[ ]") == .array([]))
        #expect(try JSONValue(parsing: #"{"a":1}"#) == ["a": 1])
        #expect(try JSONValue(parsing: "[1]") == [1])
        #expect(try JSONValue(parsing: #"{"a":1,"a":2}"#) == ["a": 2])
        #expect(try JSONValue(parsing: #"{"a":1,"b":2,"a":3,"c":[],"a":{"x":null}}"#) == ["a": ["x": .null], "b": 2, "c": []])
        for count in [1, 2, 3, 4, 5, 7, 8, 9, 11, 100] {
            let keys = (0..<count).map { "key\($0)" }
            let text = "{" + keys.map { "\"\($0)\": [\"\($0)\"]" }.joined(separator: " , ") + "}"
            #expect(try JSONValue(parsing: text) == .object(Dictionary(uniqueKeysWithValues: keys.map { ($0, [.string($0)]) })))
            let array = " [ " + (0..<count).map(String.init).joined(separator: ",\n\t") + " ] "
            #expect(try JSONValue(parsing: array) == .array((0..<count).map { .number(String($0)) }))
        }
        let text = #" { "items" : [ { "id" : "item-0001" , "tags" : [ "a" , "b" ] , "ok" : true , "gone" : null } ] , "total" : "12.50" } "#
        #expect(try JSONValue(parsing: text) == ["items": [["id": "item-0001", "tags": ["a", "b"], "ok": true, "gone": .null]], "total": "12.50"])
    }

    @Test("malformed containers are refused after the first member and after later ones", arguments: [
        (#"{"a":1"#, "invalid JSON at byte 6: unexpected end of text"),
        (#"{"a":1]"#, #"invalid JSON at byte 6: unexpected character "]""#),
        (#"{"a":1 "b":2}"#, #"invalid JSON at byte 7: unexpected character """"#),
        (#"{"a":1,"b":2"#, "invalid JSON at byte 12: unexpected end of text"),
        (#"{"a":1,"b":2]"#, #"invalid JSON at byte 12: unexpected character "]""#),
        (#"{"a":1,}"#, #"invalid JSON at byte 7: unexpected character "}""#),
        (#"{"a" 1}"#, #"invalid JSON at byte 5: unexpected character "1""#),
        (#"{1:2}"#, #"invalid JSON at byte 1: unexpected character "1""#),
        (#"{"a":}"#, #"invalid JSON at byte 5: unexpected character "}""#),
        ("[1", "invalid JSON at byte 2: unexpected end of text"),
        ("[1}", #"invalid JSON at byte 2: unexpected character "}""#),
        ("[1,2", "invalid JSON at byte 4: unexpected end of text"),
        ("[1,2 3]", #"invalid JSON at byte 5: unexpected character "3""#),
        ("[1,]", #"invalid JSON at byte 3: unexpected character "]""#),
        ("[1,2,3", "invalid JSON at byte 6: unexpected end of text"),
        ("[1,2,3}", #"invalid JSON at byte 6: unexpected character "}""#),
        ("[1,2,]", #"invalid JSON at byte 5: unexpected character "]""#),
        ("[1,2,3,]", #"invalid JSON at byte 7: unexpected character "]""#),
        ("[1,2,3,4 5]", #"invalid JSON at byte 9: unexpected character "5""#),
        ("[1,2,3,4,5}", #"invalid JSON at byte 10: unexpected character "}""#),
        ("[,1]", #"invalid JSON at byte 1: unexpected character ",""#),
        ("[nul]", #"invalid JSON at byte 4: unexpected character "]""#),
        ("[nulx]", #"invalid JSON at byte 4: unexpected character "x""#),
        ("[tru", "invalid JSON at byte 1: unexpected end of text"),
        ("[\u{1}]", "invalid JSON at byte 1: unexpected byte 0x1"),
        ("{\"a\":1}\u{0}", "invalid JSON at byte 7: unexpected text after the document"),
    ])
    func badContainers(text: String, message: String) {
        #expect(Self.failure(text) == message)
    }

    @Test("nesting up to the limit is read; one level deeper is refused where it starts")
    func depthLimit() throws {
        let limit = JSONValue.maximumDepth
        let arrays = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        var expected: JSONValue = []
        for _ in 1..<limit { expected = [expected] }
        #expect(try JSONValue(parsing: arrays) == expected)
        let tooDeep = String(repeating: "[", count: limit) + "0" + String(repeating: "]", count: limit)
        #expect(Self.failure(tooDeep) == "invalid JSON at byte 512: nesting deeper than 512 levels")
        let objects = String(repeating: #"{"a":"#, count: limit) + "1" + String(repeating: "}", count: limit)
        #expect(Self.failure(objects) == "invalid JSON at byte 2560: nesting deeper than 512 levels")
        let shallowEnough = String(repeating: #"{"a":"#, count: limit - 1) + "1" + String(repeating: "}", count: limit - 1)
        #expect(throws: Never.self) { try JSONValue(parsing: shallowEnough) }
    }

    @Test("a document parses the same from a String and from bytes")
    func bothEntryPoints() throws {
        let text = #"{"s":"é\n🎉","n":[-1.5e3,0],"b":[true,false,null],"o":{}}"#
        #expect(try JSONValue(parsing: text) == JSONValue(parsing: Array(text.utf8)))
        #expect(try JSONValue(parsing: text).canonicalText == #"{"b":[true,false,null],"n":[-1.5e3,0],"o":{},"s":"é\n🎉"}"#)
    }

    // MARK: - Keys read again

    /// Expects the array of `elements` (JSON texts) to parse as each element parsed alone; returns it.
    @discardableResult
    static func expectArrayReadsAsElementsAlone(_ elements: [String]) throws -> JSONValue {
        let whole = try JSONValue(parsing: "[" + elements.joined(separator: ", ") + "]")
        let alone = try elements.map { try JSONValue(parsing: $0) }
        #expect(whole == .array(alone))
        return whole
    }

    /// A seeded linear congruential generator: the same numbers on every run and platform.
    struct SeededNumbers {
        var seed: UInt64

        /// A number in `0..<bound`.
        mutating func next(_ bound: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(bound))
        }
    }

    /// Objects whose keys are drawn from keys that share prefixes, differ in length by one, are
    /// written with an escape, are 16 or 17 bytes long, or are not ASCII: what a parser that reuses
    /// the key it read at the same position of an earlier object must not confuse.
    static let lookalikeKeys = [
        #""id""#, #""idx""#, #""i""#, #""name""#, #""nam""#, #""names""#, #""\u0069d""#, #""n\"ame""#,
        #""sixteen-bytes-ab""#, #""seventeen-bytes-a""#, #""é""#, #""日本""#, #""""#,
    ]

    @Test("keys repeated by position read the same as each object read alone, whatever the keys around them")
    func repeatedKeys() throws {
        var numbers = SeededNumbers(seed: 7)
        func next(_ bound: Int) -> Int { numbers.next(bound) }
        var objects: [String] = []
        for index in 0..<400 {
            // Runs of the same shape warm the keys; then the shape changes under them.
            let shape = index / 25 % 3
            let count = 1 + (shape == 0 ? 9 : next(10))
            let members = (0..<count).map { position -> String in
                let key = shape == 0 ? Self.lookalikeKeys[position % 4] : Self.lookalikeKeys[next(Self.lookalikeKeys.count)]
                return "\(key):\(position)"
            }
            objects.append("{" + members.joined(separator: ",") + "}")
        }
        let whole = try Self.expectArrayReadsAsElementsAlone(objects)
        #expect(whole[10]?["\u{69}d"] == 8 && whole[10]?["idx"] == 9)
    }

    @Test("objects read against the keys of the objects before them read the same as each object alone")
    func shapedObjects() throws {
        var numbers = SeededNumbers(seed: 11)
        func next(_ bound: Int) -> Int { numbers.next(bound) }
        let keys = [#""id""#, #""name""#, #""price""#, #""tags""#]
        // What an element may be, beside an object with exactly `keys`: each differs from the shape
        // at a different place, or is not an object at all.
        let variants: [([String]) -> String] = [
            { $0.joined(separator: ",") },                                  // the shape
            { $0.dropLast().joined(separator: ",") },                       // ends early
            { ($0 + [#""extra":9"#]).joined(separator: ",") },             // one more key
            { ($0 + [#""id":"again""#]).joined(separator: ",") },          // a shape key repeated after the others
            { [$0[1], $0[0]] .joined(separator: ",") },                     // another order
            { ([$0[0], #""\u0069d":7"#] + $0[2...]).joined(separator: ",") },  // an escape spelling the same key
            { ([#""idx":1"#] + $0[1...]).joined(separator: ",") },          // a key the shape's is a prefix of
            { ([#""i":1"#] + $0[1...]).joined(separator: ",") },            // a prefix of the shape's key
            { $0.joined(separator: ",").replacingOccurrences(of: #""name""#, with: #""nick""#) },  // as long, other bytes
            { $0.joined(separator: ",").replacingOccurrences(of: #""price""#, with: #""priced""#) },  // longer, same start
            { ([$0[0], #""name":{"id":1,"name":[]}"#] + $0[2...]).joined(separator: ",") },  // an object inside
            { ($0[..<3] + [#""tags":[{"id":1,"name":2},{"id":3,"name":4},{"id":5}]"#]).joined(separator: ",") },  // objects in an array inside
            { _ in "" },                                                     // empty
        ]
        var elements: [String] = []
        for _ in 0..<600 {
            let members = keys.enumerated().map { position, key in "\(key): [\(position), \(next(100))]" }
            // Few enough that the array keeps its shape to the end (a miss is one object in ten).
            let variant = next(10) == 0 ? next(variants.count) : 0
            switch next(20) {
            case 0: elements.append("[\"not an object\"]")
            case 1: elements.append("\(next(9))")
            default: elements.append("{" + variants[variant](members) + "}")
            }
        }
        try Self.expectArrayReadsAsElementsAlone(elements)
        #expect(try JSONValue(parsing: #"[{"a":1,"b":2},{"a":3,"b":4},{"a":5},{"b":6,"a":7},{"a":8,"b":9,"a":10}]"#)
            == [["a": 1, "b": 2], ["a": 3, "b": 4], ["a": 5], ["b": 6, "a": 7], ["a": 10, "b": 9]])
    }

    @Test("a key that fails after the keys are warm fails as it does alone, at the same offset", arguments: [
        #"{"id":1,"na\#u{FF}me":2}"#, #"{"id":1,"name"#, #"{"id":1,"na"#, #"{"id":1,"name":"#, #"{"id":1,"name\#u{1}":2}"#,
        #"{"id":1,"nam\u12":2}"#, #"{"i"#,
    ])
    func failingKeyAfterWarmKeys(bad: String) throws {
        // `\u{FF}` stands for the lone byte 0xFF (invalid UTF-8), not for "ÿ".
        func bytes(_ text: String) -> [UInt8] {
            text.unicodeScalars.flatMap { $0.value == 0xFF ? [0xFF] : Array(String($0).utf8) }
        }
        let warm: [UInt8] = Array(("[" + String(repeating: #"{"id":1,"name":2,"idx":3},"#, count: 20)).utf8)
        let aloneMessage = try #require(Self.failure(bytes(bad)))
        let prefix = "invalid JSON at byte "
        let (offset, reason) = try #require(aloneMessage.dropFirst(prefix.count).split(separator: ":", maxSplits: 1).map(String.init).pair)
        let aloneOffset: Int = try #require(Int(offset))
        let expected: String = prefix + String(aloneOffset + warm.count) + ":" + reason
        #expect(Self.failure(warm + bytes(bad)) == expected)
    }
}

private extension Array {
    /// The two elements of a two-element array.
    var pair: (Element, Element)? { count == 2 ? (self[0], self[1]) : nil }
}
