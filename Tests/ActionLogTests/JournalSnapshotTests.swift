import Foundation
import Testing
@testable import ActionLog

@Suite("Journal: readers of several statements read one snapshot")
struct JournalSnapshotTests {
    let directory = TemporaryDirectory()

    typealias PoisonRecorder = Recorder<Counter, PoisonableAction, CounterEffect>

    /// Records on its own thread, until stopped, actions of which every seventh does not encode: each
    /// becomes a gap entry and adds to the session's dropped count, in the same transaction.
    final class BusyRecorder: Sendable {
        let recorder: PoisonRecorder
        private let stopped = Locked(false)
        private let done = DispatchSemaphore(value: 0)
        let recorded = Locked(0)

        init(path: String) throws {
            recorder = try PoisonRecorder(path: path, sessionName: "busy", initialState: Counter(), configuration: configuration(ErrorLog()) {
                $0.batchSize = 8
                $0.batchInterval = .milliseconds(1)
                $0.backpressure = .wait(timeout: .seconds(1))
            })
            let thread = Thread { [self] in
                var state = Counter()
                // Bounded (about five seconds), should the test never stop it.
                var index = 0
                while index < 20_000, !stopped.withLock({ $0 }) {
                    defer { index += 1 }
                    // The state stays small: no history.
                    let action: CounterAction = index % 7 == 6 ? .poison : .increment
                    if action == .increment { state.count += 1 }
                    recorder.record(action: PoisonableAction(action), state: state, effect: nil)
                    recorded.withLock { $0 += 1 }
                    // At an app's pace, so that the writer commits small batches as they come.
                    if index % 4 == 3 { Thread.sleep(forTimeInterval: 0.001) }
                }
                done.signal()
            }
            thread.start()
        }

        /// Returns once the session holds a few hundred entries (or after about 30 seconds), so that
        /// each read takes long enough for the recorder to commit while it runs.
        func waitForEntries(in journal: Journal) throws {
            var polls = 0
            while polls < 3_000, try journal.session(recorder.sessionID).entryCount < 400 {
                Thread.sleep(forTimeInterval: 0.01)
                polls += 1
            }
        }

        func stop() {
            stopped.withLock { $0 = true }
            done.wait()
            recorder.close()
        }
    }

    @Test("verify while a recorder writes gaps finds nothing: the dropped count and the gaps are read together")
    func verifyWhileRecording() throws {
        let path = directory.path("busy.actionlog")
        let busy = try BusyRecorder(path: path)
        let journal = try Journal(path: path)
        try busy.waitForEntries(in: journal)
        var findings: [JournalFinding] = []
        var entryCounts: [Int] = []
        // 30 verifies, and more (up to 300) until one has seen the recorder commit: on a loaded
        // host the writer can go a few verifies without committing.
        while entryCounts.count < 30 || (entryCounts.count < 300 && entryCounts.last == entryCounts.first) {
            let result = try journal.verify()
            findings += result.findings
            entryCounts.append(result.entries)
        }
        busy.stop()
        print("verify while recording: entries seen by the \(entryCounts.count) verifies \(entryCounts), recorded \(busy.recorded.withLock { $0 })")
        #expect(findings == [])
        #expect(entryCounts.last ?? 0 > entryCounts.first ?? 0, "the recorder wrote while the verifies ran")
        let closed = try journal.verify()
        #expect(closed.findings == [])
        #expect(try journal.session(busy.recorder.sessionID).droppedCount > 0)
    }

    @Test("a recorded session and an export read while a recorder writes hold the entries their header counts")
    func readersWhileRecording() throws {
        let path = directory.path("busy.actionlog")
        let busy = try BusyRecorder(path: path)
        let journal = try Journal(path: path)
        try busy.waitForEntries(in: journal)
        var problems: [String] = []
        for round in 0..<10 {
            let recorded = try journal.recordedSession(busy.recorder.sessionID)
            let gaps = recorded.entries.reduce(0) { $0 + ($1.content.gap?.dropped ?? 0) }
            if recorded.session.entryCount != recorded.entries.count || recorded.session.droppedCount != gaps {
                problems.append("round \(round): header \(recorded.session.entryCount) entries, \(recorded.session.droppedCount) dropped; read \(recorded.entries.count) entries, \(gaps) in gaps")
            }
            let pipe = Pipe()
            let reading = Thread { _ = pipe.fileHandleForReading.readDataToEndOfFile() }
            reading.start()
            do {
                // Checks the gaps against the header's dropped count as it writes.
                try journal.exportJSONL(busy.recorder.sessionID, to: pipe.fileHandleForWriting)
            } catch {
                problems.append("round \(round): export: \(error)")
            }
            try pipe.fileHandleForWriting.close()
        }
        busy.stop()
        #expect(problems == [])
    }
}
