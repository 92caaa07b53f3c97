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

    @Test("JournalError and JournalFinding descriptions escape what they quote; their fields stay raw")
    func errorDescriptions() {
        let error = JournalError(.sessionNotFound, file: "evil\u{1B}[31m.actionlog", session: 3, entry: 4, reason: "no session named \"\u{202E}x\r\n\"")
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
