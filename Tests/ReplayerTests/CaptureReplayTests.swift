import ActionLog
import Foundation
@testable import Replayer
import Testing

@Suite("A captured session replays from its entry 0, the state at the window's start")
struct CaptureReplayTests {
    let directory = TemporaryDirectory()

    @Test("Replay of a captured session matches, and gives back the app's states")
    func replaysCapturedSession() throws {
        let path = directory.path("captured.actionlog")
        var configuration = RecorderConfiguration()
        configuration.backpressure = .block
        configuration.capture = CaptureWindow(entries: 20, duration: .seconds(3600), followingEntries: 3, followingDuration: .seconds(3600))
        let recorder = try Recorder<Diary, Diary.Action, Never>(path: path, sessionName: "diary", initialState: Diary(), configuration: configuration)
        let reduce = recorder.recording(Diary.reduce)
        var diary = Diary()
        var states = [diary]
        for day in 0..<60 {
            if day == 50 { recorder.capture(reason: "a bug") }
            reduce(&diary, .note(Date(timeIntervalSince1970: Double(day) * 86_400)))
            states.append(diary)
        }
        recorder.close()
        let journal = try Journal(path: path)
        let session = try #require(try journal.sessions().first)
        #expect(session.entryCount == 1 + 20 + 3)
        #expect(session.metadata["actionlog.dates"] == "iso8601")
        let replay = Replay(journal: journal, session: session.id, reducer: Diary.reduce)
        let report = try replay.run()
        #expect(report.isMatch, "\(report)")
        #expect(report.entriesReplayed == 23)
        #expect(try replay.state(at: 0) == states[30])
        #expect(try replay.state(at: 23) == states[53])
    }
}
