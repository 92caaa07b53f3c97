import Foundation
import Testing
@testable import ActionLog

@Suite("Text from files is escaped before it reaches a terminal")
struct DisplayEscapedTests {
    @Test("controls, DEL, C1 and bidirectional controls become \\u{…}", arguments: [
        ("\u{1B}]0;pwned\u{07}", #"\u{1B}]0;pwned\u{7}"#),
        ("a\rb\nc\td", #"a\u{D}b\u{A}c\u{9}d"#),
        ("\u{0}\u{1F}\u{7F}", #"\u{0}\u{1F}\u{7F}"#),
        ("\u{80}\u{85}\u{9B}\u{9F}", #"\u{80}\u{85}\u{9B}\u{9F}"#),
        ("\u{202A}\u{202B}\u{202C}\u{202D}\u{202E}", #"\u{202A}\u{202B}\u{202C}\u{202D}\u{202E}"#),
        ("\u{2066}\u{2067}\u{2068}\u{2069}\u{200E}\u{200F}\u{061C}", #"\u{2066}\u{2067}\u{2068}\u{2069}\u{200E}\u{200F}\u{61C}"#),
        ("line\u{2028}para\u{2029}", #"line\u{2028}para\u{2029}"#),
    ])
    func escaped(raw: String, shown: String) {
        #expect(raw.displayEscaped == shown)
    }

    @Test("other text is left as it is, non-ASCII and JSON escapes included", arguments: [
        "checkout", "Grüße, ° − → … 日本", #"{"a":"\u001b\n\"x\""}"#, #"C:\path\to"#, "", #"trailing\"#, "\u{A0}\u{2030}\u{2070}",
    ])
    func unchanged(text: String) {
        #expect(text.displayEscaped == text)
    }

    @Test("a backslash that would begin \\u{ is escaped, so the escaped text reads back one way")
    func backslash() {
        // A name that holds the six characters `\u{1B}` must not show as one that holds ESC.
        #expect(#"a\u{1B}"#.displayEscaped == #"a\u{5C}u{1B}"#)
        #expect("a\u{1B}".displayEscaped == #"a\u{1B}"#)
        #expect(#"\\u{"#.displayEscaped == #"\\u{5C}u{"#)
        #expect(#"\u"#.displayEscaped == #"\u"#)
        #expect(#"\u1B"#.displayEscaped == #"\u1B"#)
    }

    @Test("the byte-level escaping agrees with a character-by-character one on mixed text of every length")
    func agreesWithReference() {
        let pool: [String] = [
            "a", "Z", " ", "\\", "u", "{", "}", "\u{1B}", "\n", "\r", "\t", "\u{7F}", "\u{80}", "\u{85}", "\u{9F}", "\u{A0}", "é",
            "\u{600}", "\u{61C}", "\u{200D}", "\u{200E}", "\u{2028}", "\u{202E}", "\u{2030}", "\u{2066}", "\u{2069}", "\u{206A}", "日", "😀",
        ]
        func reference(_ text: String, json: Bool) -> String {
            let scalars = Array(text.unicodeScalars)
            var result = ""
            for (index, scalar) in scalars.enumerated() {
                let backslashU = !json && scalar == "\\" && index + 2 < scalars.count && scalars[index + 1] == "u" && scalars[index + 2] == "{"
                if json, scalar.value >= 0x7F, DisplayEscaping.isUnsafe(scalar) {
                    let hex = String(scalar.value, radix: 16)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else if !json, DisplayEscaping.isUnsafe(scalar) || backslashU {
                    result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
            return result
        }
        var seed: UInt64 = 0x5EED
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        for _ in 0..<3000 {
            // Long runs of one character put the rare ones at every offset of an eight-byte word.
            let text = (0..<next(40)).map { _ in String(repeating: pool[next(pool.count)], count: 1 + next(3) * next(6)) }.joined()
            #expect(text.displayEscaped == reference(text, json: false), "\(Array(text.unicodeScalars))")
            #expect(text.jsonDisplayEscaped == reference(text, json: true), "\(Array(text.unicodeScalars))")
        }
    }

    @Test("JSON text keeps its value: raw DEL, C1 and bidirectional controls become JSON escapes")
    func json() throws {
        let value = JSONValue.object([
            "name\u{202E}": .string("a\u{7F}b\u{85}c\u{2066}\u{061C}\u{2028}"), "ok": .string("Grüße → \u{1B}"),
        ])
        let text = value.prettyText
        let safe = text.jsonDisplayEscaped
        #expect(safe == #"""
            {
              "name\u202e": "a\u007fb\u0085c\u2066\u061c\u2028",
              "ok": "Grüße → \u001b"
            }
            """#)
        #expect(try JSONValue(parsing: safe) == value)
        #expect(safe.unicodeScalars.allSatisfy { $0 == "\n" || !DisplayEscaping.isUnsafe($0) })
        #expect(#"{"a":"plain"}"#.jsonDisplayEscaped == #"{"a":"plain"}"#)
    }

    @Test("ActionLogError and JournalFinding descriptions escape what they quote; their fields stay raw")
    func errorDescriptions() {
        let error = ActionLogError(.sessionNotFound, file: "evil\u{1B}[31m.actionlog", session: 3, entry: 4, reason: "no session named \"\u{202E}x\r\n\"")
        #expect(error.description == #"evil\u{1B}[31m.actionlog, session 3, entry 4: no session named "\u{202E}x\u{D}\u{A}""#)
        #expect(error.file == "evil\u{1B}[31m.actionlog")
        #expect(error.reason == "no session named \"\u{202E}x\r\n\"")

        let finding = JournalFinding(session: 2, entry: 1, problem: "label \"a\u{07}\"")
        #expect(finding.description == #"session 2, entry 1: label "a\u{7}""#)
    }

    @Test("an SQLite error's statement reads on one line")
    func sqliteOneLine() {
        let error = SQLiteError(code: 19, message: "constraint failed", sql: "INSERT INTO t (a)\n    VALUES (?1)")
        #expect(error.description == "SQLite error 19: constraint failed — while executing INSERT INTO t (a) VALUES (?1)")
    }
}
