import Foundation
import Testing
@testable import ActionLog

@Suite("replay-cli on a session written by capture mode")
struct ReplayCLICaptureTests {
    /// A counter recorded in capture mode: 30 actions, a capture, 10 more (of which 2 are written).
    private func recordCapture(in directory: URL) throws {
        var configuration = RecorderConfiguration()
        configuration.backpressure = .block
        configuration.capture = CaptureWindow(entries: 5, duration: .seconds(3600), followingEntries: 2, followingDuration: .seconds(3600))
        let recorder = try Recorder<[String: Int], Int, Never>(
            path: directory.appendingPathComponent("captured.actionlog").path, sessionName: "counter", initialState: ["count": 0], configuration: configuration)
        var count = 0
        for step in 1...40 {
            if step == 31 { recorder.capture(reason: "count passed 30") }
            count += step
            recorder.record(action: step, state: ["count": count])
        }
        recorder.close()
    }

    @Test("sessions, log, state and why read a captured session; verify finds it whole")
    func readsCapturedSession() throws {
        try withTemporaryDirectory { directory in
            try recordCapture(in: directory)
            let sessions = try runCLI(["sessions", "captured.actionlog", "--json"], in: directory)
            #expect(sessions.status == 0, "\(sessions.stderr)")
            #expect(sessions.stdout.contains(#""entries": 8,"#), "\(sessions.stdout)")
            #expect(sessions.stdout.contains(#""status": "closed","#), "\(sessions.stdout)")
            let session = try #require(try Journal(url: directory.appendingPathComponent("captured.actionlog")).sessions().first)
            #expect(session.metadata["actionlog.capture"] == ["reason": "count passed 30", "actionsBefore": .number("25")])

            let state0 = try runCLI(["state", "captured.actionlog", "--session", "1", "--at", "0"], in: directory)
            #expect(state0.status == 0, "\(state0.stderr)")
            #expect(state0.stdout == "{\n  \"count\": 325\n}\n")   // 1 + 2 + ... + 25: the state before the window
            let last = try runCLI(["state", "captured.actionlog", "--session", "1", "--at", "7"], in: directory)
            #expect(last.stdout == "{\n  \"count\": 528\n}\n")   // ... + 32: two entries after the trigger

            let log = try runCLI(["log", "captured.actionlog", "--session", "1"], in: directory)
            #expect(log.status == 0, "\(log.stderr)")
            // Entry 1 is action 26 of the run (25 came before the window), numbered 1 in the capture.
            #expect(lines(log.stdout).dropFirst().map { $0.split(separator: " ").last.map(String.init) } == ["state)"] + (26...32).map { "\($0)" })
            let why = try runCLI(["why", "captured.actionlog", "--session", "1", "/count"], in: directory)
            #expect(why.status == 0, "\(why.stderr)")
            #expect(Array(lines(why.stdout).prefix(4)) == [
                #"/count in session 1 "counter", newest first:"#,
                "entry  action  label  old → new  through",
                "7      7       Int    496 → 528",
                "6      6       Int    465 → 496",
            ])
            let verify = try runCLI(["verify", "captured.actionlog"], in: directory)
            #expect(verify.stdout == "captured.actionlog: 1 session, 8 entries: OK\n")
        }
    }
}
