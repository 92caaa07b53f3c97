import Foundation
import Testing
@testable import ActionLog

@Suite("Canonical text written directly: patches, strings, integers")
struct CanonicalWritingTests {
    static let awkward = ["", "a", "a/b", "m~n", "~1", "/", "quote\"d", "back\\slash", "tab\tnew\nline\r", "\u{01}\u{1F}\u{7F}", "ünï", "🎉", "a string longer than fifteen bytes"]

    @Test("a patch's text is its JSON's canonical text, for every operation and awkward paths")
    func patchText() {
        let value: JSONValue = ["b": [1, "x", nil_], "a": "é\"\n"]
        var operations: [JSONPatch.Operation] = []
        for token in Self.awkward {
            let path = JSONPointer(tokens: ["items", token, "7"])
            let from = JSONPointer(tokens: [token])
            operations += [
                .add(path: path, value: value), .remove(path: path), .replace(path: path, value: .string(token)),
                .move(from: from, path: path), .copy(from: from, path: path), .test(path: path, value: .null),
            ]
        }
        operations.append(.replace(path: .root, value: 3))
        for count in [0, 1, 2, operations.count] {
            let patch = JSONPatch(operations: Array(operations.prefix(count)))
            #expect(patch.canonicalText == patch.jsonValue.canonicalText)
        }
    }

    @Test("strings are escaped as before: quotes, backslashes and control characters, nothing else")
    func strings() {
        for string in Self.awkward + [String(repeating: "long run ", count: 40) + "\"end\""] {
            var bytes: [UInt8] = []
            JSONValue.writeString(string, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == reference(string))
        }
        var bytes: [UInt8] = []
        JSONValue.writeString("\u{08}\u{0C}\u{00}", to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == #""\b\f\u0000""#)
    }

    @Test("object members are written in code-point order, one member or many")
    func memberOrder() {
        let keys = Self.awkward + ["B", "b", "ab", "Zulu", "é", "z"]
        let object = JSONValue.object(Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, JSONValue(integerLiteral: $0)) }))
        let sorted = keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let expected = "{" + sorted.map { reference($0) + ":" + String(keys.firstIndex(of: $0)!) }.joined(separator: ",") + "}"
        #expect(object.canonicalText == expected)
        #expect(JSONValue.object(["only": [true]]).canonicalText == #"{"only":[true]}"#)
        #expect(JSONValue.object([:]).canonicalText == "{}")
    }

    @Test("integers are written as String(_:) writes them")
    func integers() {
        var values: [Int] = [0, 1, -1, 9, 10, -10, 99, 100, 255, 256, 1_000_000, Int.max, Int.min, Int.max - 1, Int.min + 1]
        var power = 1
        for _ in 0..<18 {
            power *= 10
            values += [power - 1, power, power + 1, -power]
        }
        for value in values {
            #expect(JSONLeaf.decimal(value) == String(value))
            #expect(JSONLeaf.integer(value) == .number(String(value)))
        }
        #expect(JSONLeaf.integer(UInt64.max) == .number("18446744073709551615"))
        #expect(JSONLeaf.integer(Int8.min) == .number("-128"))
        #expect(JSONLeaf.integer(Int128.min) == .number("-170141183460469231731687303715884105728"))
    }

    /// The JSON string the writer wrote before it copied runs of bytes: byte by byte.
    private func reference(_ string: String) -> String {
        var text = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case "\u{08}": text += "\\b"
            case "\u{0C}": text += "\\f"
            case _ where scalar.value < 0x20: text += String(format: "\\u%04x", scalar.value)
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }
}

private let nil_ = JSONValue.null
