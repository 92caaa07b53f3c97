import Foundation
import Testing
@testable import ActionLog

@Suite("Dates in journals: ISO 8601 in UTC with microseconds, the old numbers still read")
struct JournalDateTests {
    private func text(_ secondsSince1970: Double) -> String? {
        JournalDate.text(Date(timeIntervalSince1970: secondsSince1970))
    }

    @Test("the formatter's edge cases: 1970, before 1970, leap years, the first and last second it writes")
    func edgeCases() {
        #expect(text(0) == "1970-01-01T00:00:00.000000Z")
        #expect(text(-1.5) == "1969-12-31T23:59:58.500000Z")
        #expect(text(1_709_208_000) == "2024-02-29T12:00:00.000000Z")
        #expect(text(951_782_400) == "2000-02-29T00:00:00.000000Z", "2000 is a leap year (divisible by 400)")
        #expect(text(-2_203_891_200) == "1900-03-01T00:00:00.000000Z", "1900 is not (divisible by 100): no 29 February")
        #expect(text(1_795_242_001.123456) == "2026-11-21T06:20:01.123456Z")
        #expect(JournalDate.text(Date(timeIntervalSinceReferenceDate: 0)) == "2001-01-01T00:00:00.000000Z")
        #expect(JournalDate.text(Date(timeIntervalSinceReferenceDate: -0.0000004)) == "2001-01-01T00:00:00.000000Z")
        #expect(JournalDate.text(Date(timeIntervalSinceReferenceDate: 0.9999996)) == "2001-01-01T00:00:01.000000Z")
        #expect(text(253_402_300_799) == "9999-12-31T23:59:59.000000Z")
        #expect(text(-62_135_596_800) == "0001-01-01T00:00:00.000000Z")
        #expect(text(253_402_300_800) == nil, "year 10000")
        #expect(text(-62_135_596_801) == nil, "year 0")
        #expect(JournalDate.text(Date(timeIntervalSinceReferenceDate: .infinity)) == nil)
        #expect(JournalDate.text(Date(timeIntervalSinceReferenceDate: .nan)) == nil)
    }

    @Test("parsing takes 0 to 9 digits of a second, and refuses impossible dates and other shapes")
    func parsing() {
        func again(_ text: String) -> String? { JournalDate.date(text).flatMap(JournalDate.text) }
        #expect(again("2026-11-28T12:31:00Z") == "2026-11-28T12:31:00.000000Z")
        #expect(again("2026-11-28T12:31:00.5Z") == "2026-11-28T12:31:00.500000Z")
        #expect(again("2026-11-28T12:31:00.1234565Z") == "2026-11-28T12:31:00.123457Z")
        #expect(again("2026-11-28T12:31:00.123456789Z") == "2026-11-28T12:31:00.123457Z")
        #expect(again("2024-02-29T23:59:59.999999Z") == "2024-02-29T23:59:59.999999Z")
        #expect(again("1969-12-31T23:59:59.999999Z") == "1969-12-31T23:59:59.999999Z")
        #expect(again("9999-12-31T23:59:59.000000Z") == "9999-12-31T23:59:59.000000Z")
        for bad in [
            "2026-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-11-31T00:00:00Z",
            "2026-11-28T24:00:00Z", "2026-11-28T12:60:00Z", "2026-11-28T12:31:60Z", "0000-01-01T00:00:00Z",
            "2026-11-28 12:31:00Z", "2026-11-28T12:31:00", "2026-11-28T12:31:00.Z", "2026-11-28T12:31:00.1234567890Z",
            "2026-11-28T12:31:00+01:00", "+2026-11-28T12:31:00Z", "2026-1a-28T12:31:00Z", "",
        ] {
            #expect(JournalDate.date(bad) == nil, "\(bad)")
        }
    }

    @Test("formatting is idempotent through parsing, to the microsecond, from 1900 to 2100")
    func idempotent() throws {
        var seed: UInt64 = 0x2026_1128
        for _ in 0..<20_000 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            // Microseconds from 1900-03-01 to 2100-02-28.
            let micros = -2_203_891_200_000_000 + Int64(seed >> 11) % 6_311_347_200_000_000
            let date = Date(timeIntervalSince1970: Double(micros) / 1_000_000)
            let text = try #require(JournalDate.text(date))
            let parsed = try #require(JournalDate.date(text))
            #expect(JournalDate.text(parsed) == text)
            #expect(abs(parsed.timeIntervalSince(date)) < 0.000_000_5, "\(text)")
        }
    }

    struct Stamp: Codable, Equatable {
        var when: Date
    }

    @Test("journaled values write dates as ISO 8601; decoding takes that and the old seconds since 2001")
    func encodingAndDecoding() throws {
        let stamp = Stamp(when: Date(timeIntervalSince1970: 1_795_242_001.123456))
        #expect(try JSONValueEncoder().encode(stamp).canonicalText == #"{"when":"2026-11-21T06:20:01.123456Z"}"#)
        #expect(try JSONValueEncoder().encode(stamp) == JSONValue(encoding: stamp))
        #expect(try JSONValueEncoder(dates: .referenceSeconds).encode(stamp) == JSONValue(encoding: stamp, encoder: JSONEncoder()))
        #expect(try JSONValueEncoder().encode(Stamp(when: Date(timeIntervalSince1970: 253_402_300_800))).canonicalText
            == #"{"when":252423993600}"#, "beyond 9999 a date stays a number")
        #expect(throws: EncodingError.self) { try JSONValueEncoder().encode(Stamp(when: Date(timeIntervalSinceReferenceDate: .infinity))) }

        let new: JSONValue = ["when": "2026-11-21T06:20:01.123456Z"]
        #expect(JournalDate.text(try new.decode(Stamp.self).when) == "2026-11-21T06:20:01.123456Z")
        let old: JSONValue = ["when": .number("816934801.123456")]
        #expect(try old.decode(Stamp.self).when == Date(timeIntervalSinceReferenceDate: 816_934_801.123456))
        let bad: JSONValue = ["when": "yesterday"]
        do {
            _ = try bad.decode(Stamp.self)
            Issue.record("decoded \"yesterday\"")
        } catch {
            #expect(JSONValue.describe(error) == #""yesterday" is not an ISO 8601 date in UTC such as "2026-11-28T12:31:00.123456Z" at when"#)
        }
    }

    @Test("a recorder marks its session's metadata and writes ISO 8601 in states, actions and the text form")
    func recording() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("stamps.actionlog")
        let recorder = try Recorder<Stamp, Stamp, Never>(path: path, sessionName: "stamps", initialState: Stamp(when: Date(timeIntervalSince1970: 0)))
        let reduce = recorder.recording { (state: inout Stamp, action: Stamp) in state.when = action.when.addingTimeInterval(0.25) }
        var state = Stamp(when: Date(timeIntervalSince1970: 0))
        reduce(&state, Stamp(when: Date(timeIntervalSince1970: 1_795_242_001.123456)))
        recorder.close()
        let journal = try Journal(path: path)
        let recorded = try journal.recordedSession(recorder.sessionID)
        #expect(recorded.session.metadata["actionlog.dates"] == "iso8601")
        #expect(recorded.entries[1].action?.canonicalText == #"{"when":"2026-11-21T06:20:01.123456Z"}"#)
        var states = StateWalk(file: "stamps.actionlog", session: recorder.sessionID)
        _ = try states.advance(past: recorded.entries[0])
        #expect(states.state?.canonicalText == #"{"when":"1970-01-01T00:00:00.000000Z"}"#)
        _ = try states.advance(past: recorded.entries[1])
        #expect(states.state?.canonicalText == #"{"when":"2026-11-21T06:20:01.373456Z"}"#)

        let text = recorded.jsonl()
        let lines = text.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { $0.contains(#"Z""#) && !$0.contains(#""time":1"#) && !$0.contains(#""startedAt":1"#) })
        #expect(lines[0].contains(#""startedAt":"20"#))
        // Export -> import -> export gives the same bytes.
        let file = directory.path("stamps.jsonl")
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try Journal.importJSONL(at: URL(fileURLWithPath: file), into: directory.path("copy.actionlog"))
        #expect(try Journal(path: directory.path("copy.actionlog")).recordedSession(imported).jsonl() == text)
    }

    @Test("the text form reads the old times, numbers of seconds since 1970, and names a bad one")
    func oldTextForm() throws {
        let old = """
            {"actionlog":"session","format":1,"name":"old","status":"closed","startedAt":1795242001.330305,"endedAt":1795242001.5,"libraryVersion":"0.1.0","stateType":"S","actionType":"A","dropped":0,"metadata":{}}
            {"seq":0,"kind":"keyframe","time":1795242001.330305,"state":{"when":816934801.123456}}

            """
        let recorded = try RecordedSession(jsonl: old, file: "old.jsonl")
        #expect(recorded.session.startedAt == Date(timeIntervalSince1970: 1_795_242_001.330305))
        #expect(recorded.jsonl() == """
            {"actionlog":"session","format":1,"name":"old","status":"closed","startedAt":"2026-11-21T06:20:01.330305Z","endedAt":"2026-11-21T06:20:01.500000Z","libraryVersion":"0.1.0","stateType":"S","actionType":"A","dropped":0,"metadata":{}}
            {"seq":0,"kind":"keyframe","time":"2026-11-21T06:20:01.330305Z","state":{"when":816934801.123456}}

            """)
        let bad = old.replacingOccurrences(of: #""time":1795242001.330305"#, with: #""time":"21 November 2026""#)
        #expect(throws: ActionLogError.self) { try RecordedSession(jsonl: bad, file: "old.jsonl") }
        do {
            _ = try RecordedSession(jsonl: bad, file: "old.jsonl")
        } catch {
            #expect(error.description == """
                old.jsonl, entry 0: line 2: "time" must be an ISO 8601 time in UTC such as "2026-11-28T12:31:00.123456Z" (or a number of seconds since 1970), not "21 November 2026"
                """)
        }
    }
}
