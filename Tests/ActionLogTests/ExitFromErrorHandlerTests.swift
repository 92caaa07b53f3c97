import Foundation
import Testing
@testable import ActionLog

/// A process whose recorder's error handler calls `exit` (on one of the writer's own threads, which
/// the end of the process cannot wait for) still closes the session, and its file accounts for every
/// action handed over: committed, or counted in a gap (and in the session's `dropped`).
///
/// The child is `actionlog-crash-child --exit-from-error-handler` (see its `main.swift`): it hands
/// over every action before the handler exits, so what the file must hold is known.
@Suite("Recorder: exit from the error handler, on a writer thread")
struct ExitFromErrorHandlerTests {
    let directory = TemporaryDirectory()

    @Test("exit on the encoding thread: the rows it encoded are committed, the rest counted in a gap, the session closed")
    func exitOnEncodingThread() throws {
        let path = directory.path("encoding.actionlog")
        try runChild(path, "encoding", actions: 500, failing: 200)
        let journal = try Journal(path: path)
        let session = try journal.session(1)
        #expect(session.status == .closed)
        #expect(session.entryCount == 202)
        #expect(session.droppedCount == 301)
        #expect(try journal.verify().findings.map(\.description) == [])
        #expect(try journal.state(at: 199, in: 1)["count"] == .number("199"))
        let tail = try journal.entries(in: 1).suffix(2).map(\.content)
        #expect(tail == [
            .gap(dropped: 1, note: #""step" does not encode: action 200 fails on purpose"#),
            .gap(dropped: 300, note: "300 actions lost: the process ended on the recorder's writer thread (exit from its error handler) before they were written"),
        ])
        try expectEveryActionAccountedFor(journal, actions: 500)
    }

    @Test("exit on the committing thread: it goes on committing there, and the session is closed with every action accounted for")
    func exitOnCommittingThread() throws {
        let path = directory.path("committer.actionlog")
        try runChild(path, "committer", actions: 500, failing: 100)
        let journal = try Journal(path: path)
        let session = try journal.session(1)
        #expect(session.status == .closed)
        #expect(try journal.verify().findings.map(\.description) == [])
        // The first batch (actions 1...100) was refused; which later batches the encoding half had
        // begun before it knew depends on timing, so only the start of the gap's note is fixed.
        let first = try journal.entries(in: 1).dropFirst().first?.content
        guard case .gap(let dropped, let note)? = first else {
            Issue.record("entry 1 is not a gap: \(String(describing: first))")
            return
        }
        #expect(dropped >= 100)
        #expect(note?.hasPrefix("\(dropped) actions lost: the write failed (SQLite error 8: attempt to write a readonly database") == true, "\(note ?? "nil")")
        let gaps = try journal.entries(in: 1).reduce(0) { total, entry in
            guard case .gap(let dropped, _) = entry.content else { return total }
            return total + dropped
        }
        #expect(session.droppedCount == gaps)
        try expectEveryActionAccountedFor(journal, actions: 500)
    }

    /// Runs the child until its handler exits, and checks that it exited as the handler said.
    private func runChild(_ path: String, _ thread: String, actions: Int, failing: Int) throws {
        let process = Process()
        process.executableURL = try crashChildBinary()
        process.arguments = [path, "--exit-from-error-handler", thread, String(actions), String(failing)]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let complaints = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(complaints)")
        #expect(printed == "recorded \(actions)\n")
    }

    /// Each entry stands for one action and a gap for what it counts; each state holds the number of
    /// the action after which it was recorded; together they stand for every action handed over.
    private func expectEveryActionAccountedFor(_ journal: Journal, actions: Int) throws {
        var states = StateWalk(file: journal.fileName, session: 1)
        var accounted = -1  // Entry 0 is the initial state, no action.
        for entry in try journal.entries(in: 1) {
            try states.advance(past: entry)
            if case .gap(let dropped, _) = entry.content {
                accounted += dropped
            } else {
                accounted += 1
                #expect(states.state?["count"] == .number(String(accounted)), "entry \(entry.seq)")
            }
        }
        #expect(accounted == actions)
    }
}
