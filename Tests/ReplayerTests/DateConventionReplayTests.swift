import ActionLog
import Foundation
@testable import Replayer
import Testing

/// A diary whose state and actions hold dates.
struct Diary: Codable, Sendable, Equatable {
    var days: [Date] = []
    var next: Date?

    enum Action: Codable, Sendable {
        case note(Date)
    }

    static func reduce(_ diary: inout Diary, _ action: Action) {
        guard case .note(let date) = action else { return }
        diary.days.append(date)
        diary.next = date.addingTimeInterval(86_400.25)
    }
}

@Suite("Dates replay in the convention their session was recorded in")
struct DateConventionReplayTests {
    let directory = TemporaryDirectory()

    /// A golden written before dates were ISO 8601: times and dates as numbers, no `"actionlog.dates"`.
    static let oldGolden = """
        {"actionlog":"session","format":1,"name":"diary","status":"closed","startedAt":0.0,"endedAt":0.0,"libraryVersion":"0.1.0","stateType":"ReplayerTests.Diary","actionType":"ReplayerTests.Diary.Action","dropped":0,"metadata":{}}
        {"seq":0,"kind":"keyframe","time":0.0,"state":{"days":[]}}
        {"seq":1,"kind":"keyframe","label":"note","time":0.0,"action":{"note":{"_0":816934801.123456}},"state":{"days":[816934801.123456],"next":817021201.373456}}
        {"seq":2,"kind":"delta","label":"note","time":0.0,"action":{"note":{"_0":-978307200}},"patch":[{"op":"add","path":"/days/1","value":-978307200},{"op":"replace","path":"/next","value":-978220799.75}]}

        """

    @Test("an old golden, numbers for dates and times, replays unchanged; re-recording it keeps its numbers")
    func oldGolden() throws {
        let path = directory.path("diary.jsonl")
        try Self.oldGolden.write(toFile: path, atomically: true, encoding: .utf8)
        let report = try Replay(recording: RecordedSession(contentsOfJSONL: URL(fileURLWithPath: path)), reducer: Diary.reduce).run()
        #expect(report.isMatch, "\(report)")
        #expect(report.entriesReplayed == 2)
        let golden = verifyReplay(golden: path, of: .reducer(Diary.reduce), record: .never, environment: [:])
        #expect(golden.message == nil)

        _ = verifyReplay(golden: path, of: .reducer(Diary.reduce), record: .all, environment: [:])
        let rerecorded = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!rerecorded.contains("actionlog.dates"))
        #expect(rerecorded.contains(#""state":{"days":[816934801.123456],"next":817021201.373456}"#), "\(rerecorded)")
        #expect(rerecorded.contains(#""time":"1970-01-01T00:00:00.000000Z""#), "the text form's own times are ISO 8601 now")
    }

    @Test("a new recording writes ISO 8601 dates, replays, and gives each date back to the microsecond")
    func newRecording() throws {
        let dates = [Date(timeIntervalSince1970: 1_795_242_001.123456), Date(timeIntervalSince1970: -0.000001)]
        let (journal, id) = try record(directory.path("diary.actionlog"), session: "diary", initial: Diary(), dates.map(Diary.Action.note),
                                       reduce: Diary.reduce)
        let recorded = try journal.recordedSession(id)
        #expect(recorded.session.metadata["actionlog.dates"] == "iso8601")
        #expect(recorded.entries[2].action?.canonicalText == #"{"note":{"_0":"1969-12-31T23:59:59.999999Z"}}"#)
        let replay = Replay(journal: journal, session: id, reducer: Diary.reduce)
        let report = try replay.run()
        #expect(report.isMatch, "\(report)")
        let last = try replay.state(at: 2)
        #expect(last.days.map(JournalDate.text) == ["2026-11-21T06:20:01.123456Z", "1969-12-31T23:59:59.999999Z"])
        #expect(zip(last.days, dates).allSatisfy { abs($0.timeIntervalSince($1)) < 0.000_000_5 })
        #expect(last.next.flatMap(JournalDate.text) == "1970-01-02T00:00:00.249999Z")

        // A golden of the new recording says so and replays.
        let golden = directory.path("diary.jsonl")
        try recorded.jsonl().write(toFile: golden, atomically: true, encoding: .utf8)
        #expect(verifyReplay(golden: golden, of: .reducer(Diary.reduce), record: .never, environment: [:]).message == nil)
        #expect(try String(contentsOfFile: golden, encoding: .utf8).contains(#""state":{"days":["2026-11-21T06:20:01.123456Z"],"next":"2026-11-22T06:20:01.373456Z"}"#))
    }
}
