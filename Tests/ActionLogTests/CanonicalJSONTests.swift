import Foundation
import Testing
@testable import ActionLog

@Suite("Canonical JSON")
struct CanonicalJSONTests {
    struct Profile: Codable {
        var zeta = 1
        var alpha = "a"
        var Zulu = true
        var élan = 2.5
        var _under: String? = nil
        var emoji = "🎉 \"quoted\"\n\\ / <tab>\t"
        var tags: [String: Int] = ["b": 2, "a": 1, "B": 3, "é": 4, "ab": 5]
    }

    @Test("keys are sorted by code point, the same way on every platform")
    func sortsKeysByCodePoint() throws {
        let json = try JSONValue(encoding: Profile())
        #expect(json.canonicalText == #"{"Zulu":true,"alpha":"a","emoji":"🎉 \"quoted\"\n\\ / <tab>\t","tags":{"B":3,"a":1,"ab":5,"b":2,"é":4},"zeta":1,"élan":2.5}"#)
    }

    @Test("equal states give equal bytes, however often they are encoded")
    func equalStatesEqualBytes() throws {
        let reference = try JSONValue(encoding: Profile()).canonicalBytes
        for _ in 0..<50 {
            // Dictionaries are hashed with a per-process seed: JSONEncoder's own order varies.
            var profile = Profile()
            profile.tags = Dictionary(uniqueKeysWithValues: profile.tags.shuffled())
            #expect(try JSONValue(encoding: profile).canonicalBytes == reference)
        }
    }

    @Test("parsing then writing keeps the canonical text byte for byte, numbers included")
    func roundTrips() throws {
        let text = #"{"a":[1,-0.5,1e+30,12345678901234567890,null,false],"b":{"":"\u0001"},"c":"\ud83c\udf89"}"#
        let value = try JSONValue(parsing: text)
        #expect(value["a"]?[3] == .number("12345678901234567890"))
        #expect(value.canonicalText == #"{"a":[1,-0.5,1e+30,12345678901234567890,null,false],"b":{"":"\u0001"},"c":"🎉"}"#)
        #expect(try JSONValue(parsing: value.canonicalText) == value)
    }

    @Test("bad JSON is refused with the byte offset", arguments: [
        ("", "invalid JSON at byte 0: unexpected end of text"),
        ("{\"a\":}", "invalid JSON at byte 5: unexpected character \"}\""),
        ("[1,]", "invalid JSON at byte 3: unexpected character \"]\""),
        ("01", "invalid JSON at byte 1: unexpected text after the document"),
        ("\"abc", "invalid JSON at byte 4: unterminated string"),
        ("{\"a\":1} x", "invalid JSON at byte 8: unexpected text after the document"),
        ("\"\\ud800\"", "invalid JSON at byte 7: unpaired surrogate \\ud800"),
        ("tru", "invalid JSON at byte 0: unexpected end of text"),
    ])
    func refusesBadJSON(text: String, message: String) {
        #expect(throws: ActionLogError.self) { try JSONValue(parsing: text) }
        do {
            _ = try JSONValue(parsing: text)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("nesting deeper than the limit is refused, not recursed into")
    func depthLimit() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: ActionLogError(invalidJSON: "nesting deeper than 512 levels", offset: 512)) { try JSONValue(parsing: deep) }
    }

    @Test("invalid UTF-8 in a string is refused")
    func invalidUTF8() {
        let bytes: [UInt8] = [0x22, 0x61, 0xFF, 0x22]
        #expect(throws: ActionLogError(invalidJSON: "invalid UTF-8 in a string", offset: 1)) { try JSONValue(parsing: bytes) }
    }

    @Test("differences name each changed leaf by its path")
    func differences() throws {
        let recorded: JSONValue = ["cart": ["items": [["quantity": 2], ["quantity": 1]]], "name": "a", "gone": true]
        let replayed: JSONValue = ["cart": ["items": [["quantity": 2], ["quantity": 3], ["quantity": 1]]], "name": "a", "my key": 1]
        // An element inserted in the middle is one difference, at its index in the replayed array.
        #expect(recorded.differences(to: replayed).map(\.description) == [
            "cart.items[1]: (absent) → {\"quantity\":3}",
            "gone: true → (absent)",
            "[\"my key\"]: (absent) → 1",
        ])
        // Elements removed from the middle, at their indexes in the recorded array; a change between
        // the ends shared, element by element; an element appended.
        let items: JSONValue = ["items": [1, 2, 3, 4, 5, 6]]
        #expect(items.differences(to: ["items": [1, 4, 5, 6]]).map(\.description) == ["items[1]: 2 → (absent)", "items[2]: 3 → (absent)"])
        #expect(items.differences(to: ["items": [1, 2, 30, 40, 5, 6]]).map(\.description) == ["items[2]: 3 → 30", "items[3]: 4 → 40"])
        #expect(items.differences(to: ["items": [1, 2, 3, 4, 5, 6, 7]]).map(\.description) == ["items[6]: (absent) → 7"])
        #expect(items.differences(to: ["items": []]).count == 6)
        #expect(recorded.differences(to: recorded).isEmpty)
        #expect(FieldPath([.key("a/b"), .key("c~d"), .index(0)]).jsonPointer == "/a~1b/c~0d/0")
    }
}

@Suite("Action labels")
struct ActionLabelTests {
    enum Inner: Sendable { case queryChanged(String), onAppear }
    enum Outer: Sendable { case input(Inner), feedback(id: Int, ok: Bool), plain }
    struct Command: Sendable { var name: String }

    @Test("enum case names, nested payloads joined with dots, other types by name")
    func labels() {
        #expect(ActionLabel.of(Outer.input(.queryChanged("par"))) == "input.queryChanged")
        #expect(ActionLabel.of(Outer.input(.onAppear)) == "input.onAppear")
        #expect(ActionLabel.of(Outer.feedback(id: 1, ok: true)) == "feedback")
        #expect(ActionLabel.of(Outer.plain) == "plain")
        #expect(ActionLabel.of(Command(name: "x")) == "Command")
        #expect(ActionLabel.of(PoisonableAction(.add(3))) == "add")
    }
}
