import Foundation
import Testing
@testable import ActionLog

/// A full disk, a file that turns read-only, a journal deleted or replaced while recording: the app
/// goes on, `onError` hears once per episode, the loss is counted, and what reaches the file is a
/// valid session whose gaps add up to every loss counted. See `FaultyDisk` for how the faults are made.
@Suite("Recorder: faults of the disk and the file are survived and told")
struct RecorderFaultTests {
    let directory = TemporaryDirectory()

    /// A state of about 1 KB (a few entries take a page) whose entries after a keyframe are deltas.
    static func state(_ count: Int) -> Counter {
        Counter(count: count, history: Array(1_000..<1_250))
    }

    /// A configuration that reports into `log` and commits only when a flush or close asks, so that
    /// each batch, and each message, is known.
    static func committingOnFlush(_ log: ErrorLog, _ disk: (any FaultyDisk)? = nil) -> RecorderConfiguration {
        configuration(log) {
            disk?.configure(&$0)
            $0.batchSize = 100_000
            $0.batchInterval = .seconds(3600)
        }
    }

    /// Records `count` increments after `from`; returns the last count.
    @discardableResult
    static func record(_ recorder: CounterRecorder, from: Int, count: Int) -> Int {
        for value in (from + 1)...(from + count) {
            recorder.record(action: .increment, state: state(value), effect: nil)
        }
        return from + count
    }

    /// The checks every fault test ends with: the file verifies, the session is `closed`, entry 0 is
    /// the initial state, and the gaps add up to every loss the statistics count.
    static func expectConsistent(_ path: String, _ recorder: CounterRecorder, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let journal = try Journal(path: path)
        let verification = try journal.verify()
        #expect(verification.findings.map(\.description) == [], sourceLocation: sourceLocation)
        let session = try journal.session(recorder.sessionID)
        #expect(session.status == .closed, sourceLocation: sourceLocation)
        let entries = try journal.entries(in: recorder.sessionID)
        #expect(try entries.first?.content.storedJSON?.decode(Counter.self) == state(0), sourceLocation: sourceLocation)
        let gaps = entries.reduce(0) { $0 + ($1.content.gap?.dropped ?? 0) }
        let statistics = recorder.statistics
        #expect(gaps == statistics.dropped + statistics.lost, sourceLocation: sourceLocation)
        #expect(session.droppedCount == gaps, sourceLocation: sourceLocation)
        #expect(entries.count - entries.filter { $0.content.gap != nil }.count == statistics.committed, sourceLocation: sourceLocation)
    }

    @Test("a disk full from the first batch on: the app goes on, onError hears once, and the gap written once there is room accounts for every loss")
    func diskFullFromTheFirstBatch() throws {
        let disk = makeFillableDisk(in: directory, bytes: 2 << 20)
        let path = disk.path("full.actionlog")
        let log = ErrorLog()
        let recorder = try CounterRecorder(path: path, sessionName: "s", initialState: Self.state(0), configuration: Self.committingOnFlush(log, disk))
        try disk.fill()
        var count = Self.record(recorder, from: 0, count: 40)
        recorder.flush()
        count = Self.record(recorder, from: count, count: 40)
        recorder.flush()
        #expect(recorder.statistics == RecorderStatistics(recorded: 81, dropped: 0, committed: 1, lost: 80, pending: 0))
        try disk.free()
        count = Self.record(recorder, from: count, count: 5)
        recorder.close()

        #expect(log.all.map(\.description) == [
            "full.actionlog, session 1, entry 1: entries 1...40 were not written: SQLite error 13: database or disk is full — while executing COMMIT; "
                + "until a write succeeds again, what is recorded is lost, and then written as a gap"
        ], "faults made by \(disk.kind)")
        #expect(recorder.statistics == RecorderStatistics(recorded: 86, dropped: 0, committed: 6, lost: 80, pending: 0))
        let entries = try Journal(path: path).entries(in: recorder.sessionID)
        #expect(entries.map(\.kind) == [.keyframe, .gap, .keyframe, .delta, .delta, .delta, .delta])
        #expect(entries[1].content.gap?.dropped == 80)
        #expect(try Journal(path: path).state(at: 6, in: recorder.sessionID).decode(Counter.self) == Self.state(85))
        try Self.expectConsistent(path, recorder)
    }

    @Test("a session closed while the disk is still full is closed, with its last loss as a gap, written with the space the session kept in reserve")
    func closedWhileFull() throws {
        let disk = makeFillableDisk(in: directory, bytes: 2 << 20)
        let path = disk.path("still-full.actionlog")
        let log = ErrorLog()
        let recorder = try CounterRecorder(path: path, sessionName: "s", initialState: Self.state(0), configuration: Self.committingOnFlush(log, disk))
        var count = Self.record(recorder, from: 0, count: 10)
        recorder.flush()
        try disk.fill()
        count = Self.record(recorder, from: count, count: 30)
        recorder.flush()
        count = Self.record(recorder, from: count, count: 30)
        recorder.close()

        #expect(log.all.map(\.code) == [.writeFailed], "faults made by \(disk.kind)")
        #expect(recorder.statistics == RecorderStatistics(recorded: 71, dropped: 0, committed: 11, lost: 60, pending: 0))
        let entries = try Journal(path: path).entries(in: recorder.sessionID)
        #expect(entries.count == 12)
        #expect(entries.last?.content.gap?.dropped == 60)
        #expect(entries.last?.content.gap?.note?.hasPrefix("60 actions lost: the write failed (SQLite error 13: database or disk is full") == true)
        try Self.expectConsistent(path, recorder)
        // The lock file and its reserve are gone with the session.
        #expect(!FileManager.default.fileExists(atPath: SessionLock.path(journal: path, session: recorder.sessionID)))
    }

    @Test("each episode of a full disk is told once: again after writes succeeded and the disk filled up again")
    func twoEpisodes() throws {
        // Room, once freed, for the log of the second episode's commits: each writes its entries'
        // pages and the change index's (16 KiB each).
        let disk = makeFillableDisk(in: directory, bytes: 1 << 20)
        let path = disk.path("episodes.actionlog")
        let log = ErrorLog()
        let recorder = try CounterRecorder(path: path, sessionName: "s", initialState: Self.state(0), configuration: Self.committingOnFlush(log, disk))
        var count = 0
        for _ in 0..<2 {
            try disk.fill()
            for _ in 0..<3 {
                count = Self.record(recorder, from: count, count: 10)
                recorder.flush()
            }
            try disk.free()
            count = Self.record(recorder, from: count, count: 2)
            recorder.flush()
        }
        recorder.close()

        #expect(log.all.map(\.code) == [.writeFailed, .writeFailed], "faults made by \(disk.kind)")
        #expect(log.all.map(\.entry) == [1, 4])
        #expect(recorder.statistics == RecorderStatistics(recorded: 65, dropped: 0, committed: 5, lost: 60, pending: 0))
        let entries = try Journal(path: path).entries(in: recorder.sessionID)
        #expect(entries.map { $0.content.gap?.dropped } == [nil, 30, nil, nil, 30, nil, nil])
        try Self.expectConsistent(path, recorder)
    }

    @Test("a disk full when the recorder starts: it throws, naming the file, and leaves no session behind")
    func diskFullAtStart() throws {
        let disk = makeFillableDisk(in: directory, bytes: 2 << 20)
        guard disk is SmallTmpfs else { return print("skipped: needs a real full disk (the seam fails the writer's batches only)") }
        let path = disk.path("start.actionlog")
        try CounterRecorder(path: path, sessionName: "first", initialState: Self.state(0), configuration: configuration(ErrorLog())).close()
        try disk.fill()
        let error = #expect(throws: ActionLogError.self) {
            try CounterRecorder(path: path, sessionName: "second", initialState: Self.state(0), configuration: configuration(ErrorLog()))
        }
        // Opening the journal fails (switching the closed journal back to WAL writes its log, and
        // opening creates the shared-memory file, `-shm`), or committing the new session does,
        // depending on what SQLite's last close left behind.
        #expect([
            "start.actionlog: SQLite error 13: database or disk is full — while executing PRAGMA journal_mode = WAL",
            "start.actionlog: SQLite error 10: disk I/O error — while executing PRAGMA application_id",
            "start.actionlog: SQLite error 13: database or disk is full — while executing COMMIT",
        ].contains(error?.description), "\(error?.description ?? "no error")")
        try disk.free()
        #expect(try Journal(path: path).sessions().map(\.name) == ["first"])
        #expect(try Journal(path: path).verify().isValid)
    }

    @Test("an initial state that does not encode: the recorder throws, naming the file, and starts no session")
    func initialStateDoesNotEncode() throws {
        let path = directory.path("poison.actionlog")
        let error = #expect(throws: ActionLogError.self) {
            try Recorder<PoisonableAction, CounterAction, Never>(path: path, sessionName: "s", initialState: PoisonableAction(.poison), configuration: configuration(ErrorLog()))
        }
        #expect(error?.code == .encodingFailed)
        #expect(error?.description == "poison.actionlog: the initial state does not encode: refused to encode; no session was started")
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("a file that turns read-only: the app goes on, onError hears once, the loss is counted, and the file keeps the valid session it had")
    func readOnly() throws {
        let disk = makeAbortableDisk(in: directory)
        let path = disk.path("readonly.actionlog")
        let log = ErrorLog()
        let recorder = try CounterRecorder(path: path, sessionName: "s", initialState: Self.state(0), configuration: Self.committingOnFlush(log, disk))
        var count = Self.record(recorder, from: 0, count: 10)
        recorder.flush()
        try disk.makeReadOnly()
        count = Self.record(recorder, from: count, count: 20)
        recorder.flush()
        count = Self.record(recorder, from: count, count: 20)
        recorder.close()

        // An aborted ext4 fails SQLite's writes with EIO; the seam answers as a read-only file does.
        let sqlite = disk is SeamDisk ? "SQLite error 8: attempt to write a readonly database — while executing COMMIT" : "SQLite error 10: disk I/O error — while executing COMMIT"
        #expect(log.all.map(\.description) == [
            "readonly.actionlog, session 1, entry 11: entries 11...30 were not written: \(sqlite); until a write succeeds again, what is recorded is lost, and then written as a gap",
            "readonly.actionlog, session 1: the session could not be marked closed (\(sqlite)); it will read as interrupted, without the gap of its last 40 lost actions",
        ], "faults made by \(disk.kind)")
        #expect(recorder.statistics == RecorderStatistics(recorded: 51, dropped: 0, committed: 11, lost: 40, pending: 0))
        let journal = try Journal(path: path)
        #expect(try journal.verify().findings.map(\.description) == [])
        #expect(try journal.session(recorder.sessionID).status == .interrupted)
        #expect(try journal.entries(in: recorder.sessionID).count == 11)
    }

    @Test("a journal deleted while recording: told once, everything after counted as lost, nothing recreated at the path")
    func deleted() throws {
        let path = directory.path("deleted.actionlog")
        let log = ErrorLog()
        let recorder = try CounterRecorder(path: path, sessionName: "s", initialState: Self.state(0), configuration: Self.committingOnFlush(log))
        var count = Self.record(recorder, from: 0, count: 10)
        recorder.flush()
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        count = Self.record(recorder, from: count, count: 3_000)
        recorder.flush()
        count = Self.record(recorder, from: count, count: 100)
        recorder.close()

        #expect(log.all.map(\.description) == [
            "deleted.actionlog, session 1, entry 11: the journal was deleted or moved away while recording: entries 11...3010 were lost with it, and nothing more is written to this session"
        ])
        #expect(recorder.statistics == RecorderStatistics(recorded: 3_111, dropped: 0, committed: 11, lost: 3_100, pending: 0))
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(!FileManager.default.fileExists(atPath: SessionLock.path(journal: path, session: recorder.sessionID)))
    }

    @Test("a journal deleted while the recorder is idle: close tells it once and marks nothing")
    func deletedWhileIdle() throws {
        let path = directory.path("idle.actionlog")
        let log = ErrorLog()
        let recorder = try CounterRecorder(path: path, sessionName: "s", initialState: Self.state(0), configuration: Self.committingOnFlush(log))
        Self.record(recorder, from: 0, count: 5)
        recorder.flush()
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        recorder.close()

        #expect(log.all.map(\.description) == [
            "idle.actionlog, session 1: the journal was deleted or moved away while recording: the session was not marked closed, and nothing more is written to this session"
        ])
        #expect(recorder.statistics == RecorderStatistics(recorded: 6, dropped: 0, committed: 6, lost: 0, pending: 0))
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("a journal replaced by another file while recording: told once, the new file is left alone, everything after counted as lost")
    func replaced() throws {
        let path = directory.path("replaced.actionlog")
        let other = directory.path("other.actionlog")
        try CounterRecorder(path: other, sessionName: "other", initialState: Self.state(0), configuration: configuration(ErrorLog())).close()
        let before = try Journal(path: other).sessions()
        let log = ErrorLog()
        let recorder = try CounterRecorder(path: path, sessionName: "s", initialState: Self.state(0), configuration: Self.committingOnFlush(log))
        var count = Self.record(recorder, from: 0, count: 10)
        recorder.flush()
        try? FileManager.default.removeItem(atPath: path + "-wal")
        try? FileManager.default.removeItem(atPath: path + "-shm")
        guard rename(other, path) == 0 else { throw FaultSetupError(description: "rename failed") }
        count = Self.record(recorder, from: count, count: 50)
        recorder.close()

        #expect(log.all.map(\.description) == [
            "replaced.actionlog, session 1, entry 11: another file replaced the journal while recording: entries 11...60 were lost with it, and nothing more is written to this session"
        ])
        #expect(recorder.statistics == RecorderStatistics(recorded: 61, dropped: 0, committed: 11, lost: 50, pending: 0))
        let journal = try Journal(path: path)
        #expect(try journal.sessions() == before)
        #expect(try journal.verify().isValid)
    }
}
