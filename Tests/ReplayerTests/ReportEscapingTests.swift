import ActionLog
import Foundation
import Replayer
import Testing

/// A state without `Equatable`, so reports list the differing fields.
private struct Note: Codable {
    var text: String
}

private enum Edit: Codable {
    case set(String)
}

/// A session named with a terminal title sequence, CR, LF and RLO, whose entry 1 sets the text to an
/// escape sequence under a label holding one, and whose entry 2 holds an action that no longer decodes.
private let hostileJSONL = #"""
    {"actionlog":"session","format":1,"name":"\u001b]0;pwned\u0007\r\n\u202eevil","status":"closed","startedAt":1000,"endedAt":1001,"libraryVersion":"0.1.0","stateType":"Note","actionType":"Edit","dropped":0,"metadata":{}}
    {"seq":0,"kind":"keyframe","time":1000,"state":{"text":""}}
    {"seq":1,"kind":"keyframe","label":"set\u001b[2J","time":1000,"action":{"set":{"_0":"\u001b]0;x\u0007\u202e"}},"state":{"text":"\u001b]0;x\u0007\u202e"}}
    {"seq":2,"kind":"keyframe","label":"gone\r\n","time":1000,"action":{"gone\r\n":{}},"state":{"text":""}}

    """#

@Suite("Replay reports and errors escape what comes from the file")
struct ReportEscapingTests {
    let directory = TemporaryDirectory()

    private func recorded() throws -> RecordedSession {
        try RecordedSession(jsonl: hostileJSONL, file: "evil\u{1B}[31m.jsonl")
    }

    @Test("a divergence report escapes the session name, the action and the values")
    func divergence() throws {
        let report = try Replay(recording: recorded()) { (note: inout Note, edit: Edit) in
            if case .set(let text) = edit { note.text = text + "!" }
        }.run()
        #expect(report.description == #"""
            Replay diverged at entry 1 of session "\u001b]0;pwned\u0007\r\n\u{202E}evil" of evil\u{1B}[31m.jsonl (set("\u{1B}]0;x\u{7}\u{202E}")).

              State:
                − text: "\u001b]0;x\u0007\u{202E}"
                + text: "\u001b]0;x\u0007\u{202E}!"

            (Recorded: −, Replayed: +)
            """#)
        #expect(report.description.unicodeScalars.allSatisfy { $0 == "\n" || !DisplayEscaping.isUnsafe($0) })
    }

    @Test("a failure names the action without letting its controls through; the fields stay raw")
    func failure() throws {
        let report = try Replay(recording: recorded()) { (note: inout Note, edit: Edit) in
            if case .set(let text) = edit { note.text = text }
        }.run()
        let failure = try #require(report.failure)
        #expect(failure.label == "gone\r\n")
        #expect(failure.description == #"""
            evil\u{1B}[31m.jsonl, session "\u001b]0;pwned\u0007\r\n\u{202E}evil", entry 2: action "gone\u{D}\u{A}" no longer decodes: \#
            Edit has no case "gone\u{D}\u{A}"
            """#)
    }

    @Test("a golden error escapes the names it quotes")
    func goldenError() throws {
        let path = directory.path("hostile.jsonl")
        try hostileJSONL.write(toFile: path, atomically: true, encoding: .utf8)
        let report = verifyReplay(golden: path, of: .reducer { (note: inout Note, edit: Edit) in }, sessionName: "checkout", record: .never)
        #expect(report.message == #"""
            Cannot check the golden \#(path): \#(path) holds session "\u{1B}]0;pwned\u{7}\u{D}\u{A}\u{202E}evil", not "checkout"
            """#)
        #expect(ReplayError(.unknownRecordMode, "ACTIONLOG_RECORD=\u{1B}[5m is not a record mode").description == #"ACTIONLOG_RECORD=\u{1B}[5m is not a record mode"#)
    }
}
