import Foundation
import Testing
@testable import ActionLog

#if canImport(Glibc)
import Glibc
#endif

/// A process that records and dies by SIGKILL, at random moments, leaves a journal that SQLite
/// finds intact, whose session reads `interrupted` and holds every entry up to the last flush the
/// process saw return, valid, without holes.
///
/// The child is `actionlog-crash-child` (built by `swift test` beside the test bundle). Each
/// iteration starts one on a journal shared by ten iterations, so each also finds the sessions of the
/// children killed before it (a new journal every ten keeps a long run's checks linear). `ACTIONLOG_CRASH_ITERATIONS` sets how many kills (default 20, a few seconds);
/// `ACTIONLOG_CRASH_SEED` replays a run (its seed is printed).
@Suite("Recorder: a process killed while recording leaves its committed entries intact")
struct CrashDurabilityTests {
    let directory = TemporaryDirectory()

    @Test("SIGKILLed at random moments: integrity ok, the session interrupted, every entry up to the last flush there and valid")
    func killedAtRandomMoments() throws {
        let environment = ProcessInfo.processInfo.environment
        let iterations = environment["ACTIONLOG_CRASH_ITERATIONS"].flatMap { Int($0) } ?? 20
        let seed = environment["ACTIONLOG_CRASH_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 1...999_999_999)
        print("CrashDurabilityTests: \(iterations) kills, ACTIONLOG_CRASH_SEED=\(seed)")
        var random = EncodingModel.SeededGenerator(seed: seed)
        let child = try crashChildBinary()
        var flushedTotal = 0
        var foundTotal = 0
        for iteration in 0..<iterations {
            let path = directory.path("crash-\(iteration / 10).actionlog")
            // One kill in five may land while the recorder starts: anywhere in its first 40 ms.
            let duringStart = random.next() % 5 == 0
            let delay = Duration.milliseconds(Int(random.next() % (duringStart ? 40 : 250)))
            let run = try runAndKill(child, [path, String(random.next() % 1_000_000_000)], after: delay, waitingForSession: !duringStart)
            let context = "iteration \(iteration), killed \(delay) after \(duringStart ? "it was spawned" : "its session started") (ACTIONLOG_CRASH_SEED=\(seed))"
            guard let session = run.session else {
                if !duringStart {
                    Issue.record("the child printed no session: \(context); it said: \(run.errors)")
                    return
                }
                try checkStart(path: path, context)
                continue
            }
            flushedTotal += run.lastFlushed ?? 0
            foundTotal += try check(path: path, session: session, lastFlushed: run.lastFlushed ?? 0, "session \(session), \(context)")
        }
        print("CrashDurabilityTests: \(iterations) kills; \(flushedTotal) entries were flushed before them, \(foundTotal) found intact")
    }

    @Test("a process that ends without closing its recorder still commits what it handed over, and closes the session")
    func exitWithoutClose() throws {
        let path = directory.path("left-open.actionlog")
        let process = Process()
        process.executableURL = try crashChildBinary()
        // A batch interval of a minute: nothing is committed before the process's end.
        process.arguments = [path, "--exit-without-close", "500"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(printed == "recorded 500\n")
        let journal = try Journal(path: path)
        let session = try journal.session(1)
        #expect(session.status == .closed)
        #expect(session.entryCount == 501)
        #expect(try journal.verify().findings.map(\.description) == [])
        #expect(try journal.state(at: 500, in: 1)["count"] == .number("500"))
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"), "closed as close() closes: one file")
    }

    /// A child killed before it said its session started: the journal, if there is one yet, is intact,
    /// and holds no session the child could have half made (the session and its entry 0 commit together).
    private func checkStart(path: String, _ context: String) throws {
        guard FileManager.default.fileExists(atPath: path) else { return }
        // Killed while it made the journal or switched it to WAL: the change it did not finish is
        // in a hot rollback journal, which a reader names and opening to write rolls back (as the
        // next recorder does).
        do throws(ActionLogError) {
            _ = try Journal(path: path)
        } catch where JournalFile.isUnfinishedWrite(error) {
            let name = URL(fileURLWithPath: path).lastPathComponent
            #expect(
                error.sqliteCode != JournalFile.hotJournalCode
                    || error.description == "\(name): \(name)-journal holds a change its writer did not finish (it stopped while writing), "
                        + "which a reader cannot roll back; opening the journal to write does: `replay-cli vacuum \(name)`, or the next recorder",
                "\(context)")
            _ = try Journal(path: path, mode: .readWrite)
        } catch {
            // Killed before the schema was committed: what is left is checked below.
        }
        let integrity = try Connection(path: path, mode: .readOnly).prepare("PRAGMA integrity_check").rows { $0.text(0) ?? "" }
        #expect(integrity == ["ok"], "\(context)")
        guard let journal = try? Journal(path: path) else { return }  // Killed before the schema was committed.
        #expect(try journal.verify().findings.map(\.description) == [], "\(context)")
        #expect(try journal.sessions().allSatisfy { $0.status != .recording }, "\(context)")
    }

    /// What the killed session must look like. Returns the number of actions it holds.
    private func check(path: String, session: JournalSession.ID, lastFlushed: Int, _ context: String) throws -> Int {
        // Killed while it wrote the log's index: a reader names it, and opening to write rebuilds it
        // (as the next recorder does).
        if case .failure(let error) = Result(catching: { () throws(ActionLogError) in try Journal(path: path) }), JournalFile.isUnfinishedWrite(error) {
            let name = URL(fileURLWithPath: path).lastPathComponent
            #expect(error.description.hasPrefix("\(name): \(name)-"), "\(context)")
            _ = try Journal(path: path, mode: .readWrite)
        }
        let integrity = try Connection(path: path, mode: .readOnly).prepare("PRAGMA integrity_check").rows { $0.text(0) ?? "" }
        #expect(integrity == ["ok"], "\(context)")
        let journal = try Journal(path: path)
        #expect(try journal.session(session).status == .interrupted, "\(context)")
        #expect(try journal.verify().findings.map(\.description) == [], "\(context)")
        var cursor = try journal.entryCursor(in: session)
        var states = StateWalk(file: journal.fileName, session: session)
        var seq = -1
        while let entry = try cursor.next() {
            try states.advance(past: entry)
            #expect(entry.seq == seq + 1, "\(context)")
            seq = entry.seq
            // The child's state after entry N counts N (see `CrashState`).
            #expect(states.state?["count"] == .number(String(seq)), "entry \(seq): \(context)")
        }
        #expect(seq >= lastFlushed, "entries up to \(lastFlushed) were flushed, the session ends at \(seq): \(context)")
        return max(0, seq)
    }
}

// MARK: - The child

/// What a killed child printed.
private struct ChildRun {
    var session: JournalSession.ID?
    var lastFlushed: Int?
    var errors: String
}

/// Starts `executable`, waits until it printed its session (when `waitingForSession`), lets it run
/// `delay`, kills it with SIGKILL and returns what it printed (every line it wrote before it died is
/// still in the pipe).
private func runAndKill(_ executable: URL, _ arguments: [String], after delay: Duration, waitingForSession: Bool) throws -> ChildRun {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    try process.run()
    try? output.fileHandleForWriting.close()
    try? errors.fileHandleForWriting.close()
    let lines = LineReader(output.fileHandleForReading)
    let errorText = LineReader(errors.fileHandleForReading)
    // The clock starts once the session exists: a kill before that tests nothing of the recorder's.
    let started = !waitingForSession || lines.waitForFirstLine(timeout: .seconds(60))
    if started {
        Thread.sleep(forTimeInterval: delay.timeInterval)
    }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    var run = ChildRun(errors: errorText.all().joined(separator: "\n"))
    for line in lines.all() {
        let fields = line.split(separator: " ")
        guard fields.count == 2, let value = Int64(fields[1]) else { continue }
        if fields[0] == "session" { run.session = value }
        if fields[0] == "flushed" { run.lastFlushed = Int(value) }
    }
    return run
}

/// Reads a pipe to its end on its own thread, line by line.
private final class LineReader: Sendable {
    private let lines = Locked<[String]>([])
    private let firstLine = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        let thread = Thread { [self] in
            var pending = Data()
            var signalled = false
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                pending += chunk
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending = Data(pending[(newline + 1)...])
                    lines.withLock { $0.append(line) }
                    if !signalled {
                        signalled = true
                        firstLine.signal()
                    }
                }
            }
            if !signalled { firstLine.signal() }
            done.signal()
        }
        thread.start()
    }

    /// Waits for the first line (or the end of the pipe); `false` when neither came in time.
    func waitForFirstLine(timeout: Duration) -> Bool {
        firstLine.wait(timeout: .now() + timeout.timeInterval) == .success && !lines.withLock(\.isEmpty)
    }

    /// Every line, once the pipe has ended.
    func all() -> [String] {
        done.wait()
        return lines.withLock { $0 }
    }
}

/// The `actionlog-crash-child` binary that `swift test` built next to the test bundle (also for
/// ``ExitFromErrorHandlerTests``).
func crashChildBinary() throws -> URL {
    var directories = [Bundle.main.bundleURL]
    directories += Bundle.allBundles
        .filter { $0.bundleURL.pathExtension == "xctest" }
        .map { $0.bundleURL.deletingLastPathComponent() }
    for directory in directories {
        let candidate = directory.appendingPathComponent("actionlog-crash-child")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    throw FaultSetupError(description: """
        actionlog-crash-child not found; looked in: \(directories.map(\.path).joined(separator: ", ")). \
        ActionLogTests must depend on the actionlog-crash-child target so that `swift test` builds it.
        """)
}
