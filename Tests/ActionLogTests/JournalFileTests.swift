import Foundation
import Testing
@testable import ActionLog

@Suite("Journal files: one file at rest, readers that never write, private modes, copies")
struct JournalFileTests {
    let directory = TemporaryDirectory()

    /// Starts a session named `name` in the journal at `path` and records `count` increments; returns
    /// the recorder, flushed and still open.
    func record(_ path: String, _ name: String, count: Int) throws -> CounterRecorder {
        let recorder = try CounterRecorder(path: path, sessionName: name, initialState: Counter(), configuration: configuration(ErrorLog()))
        var state = Counter()
        let reduce = recorder.recording(reduceCounter)
        for _ in 0..<count { _ = reduce(&state, .increment) }
        recorder.flush()
        return recorder
    }

    func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    // MARK: - One file at rest

    @Test("after close the journal is one file: the .actionlog copied alone holds every session and entry")
    func oneFileAfterClose() throws {
        let path = directory.path("app.actionlog")
        let first = try record(path, "first", count: 40)
        let second = try record(path, "second", count: 25)
        first.close()
        #expect(exists(path + "-wal"), "the second recorder has the file open: it stays in WAL mode")
        second.close()
        #expect(!exists(path + "-wal"))
        #expect(!exists(path + "-shm"))
        #expect(try !headerSaysWAL(path))
        #expect(fileNames(in: directory.url.path) == ["app.actionlog"])

        let elsewhere = TemporaryDirectory()
        let copy = elsewhere.path("app.actionlog")
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        let original = try Journal(path: path)
        let copied = try Journal(path: copy)
        #expect(try copied.sessions().map(\.entryCount) == [41, 26])
        #expect(try copied.sessions().map(\.status) == [.closed, .closed])
        for id in [first.sessionID, second.sessionID] {
            #expect(try copied.recordedSession(id) == original.recordedSession(id))
        }
        #expect(try copied.state(at: 40, in: first.sessionID).decode(Counter.self) == Counter(count: 40, history: Array(1...40)))
        #expect(try copied.verify().isValid)
        #expect(fileNames(in: elsewhere.url.path) == ["app.actionlog"])
    }

    @Test("a journal this library creates has 16 KiB pages; one created with other pages keeps them when recorded into")
    func pageSize() throws {
        let path = directory.path("new.actionlog")
        try record(path, "first", count: 3).close()
        #expect(try Connection(path: path, mode: .readOnly).scalarInt("PRAGMA page_size") == 16_384)

        // A journal made elsewhere with SQLite's default pages: an empty file SQLite has written to.
        let older = directory.path("older.actionlog")
        let connection = try Connection(path: older, mode: .readWrite)
        try connection.execute("PRAGMA page_size = 4096; CREATE TABLE scratch (x); DROP TABLE scratch")
        connection.close()
        try record(older, "first", count: 3).close()
        let reopened = try Connection(path: older, mode: .readOnly)
        #expect(try reopened.scalarInt("PRAGMA page_size") == 4_096)
        #expect(try Journal(path: older).sessions().map(\.entryCount) == [4])
        #expect(try Journal(path: older).verify().isValid)
    }

    @Test("a recorder reopening a closed journal switches it to WAL while it records, and back when it closes")
    func walWhileRecording() throws {
        let path = directory.path("app.actionlog")
        try record(path, "first", count: 3).close()
        #expect(try !headerSaysWAL(path))
        let recorder = try record(path, "second", count: 3)
        #expect(try headerSaysWAL(path))
        #expect(exists(path + "-wal") && exists(path + "-shm"))
        recorder.close()
        #expect(try !headerSaysWAL(path))
        #expect(fileNames(in: directory.url.path) == ["app.actionlog"])
        #expect(try Journal(path: path).sessions().map(\.entryCount) == [4, 4])
    }

    @Test("a recorder closing while a reader has the journal open leaves the log files, but the file alone holds everything")
    func closeWhileRead() throws {
        let path = directory.path("app.actionlog")
        let recorder = try record(path, "s", count: 30)
        let reader = try Journal(path: path)
        #expect(try reader.session(recorder.sessionID).entryCount == 31)
        recorder.close()
        #expect(exists(path + "-wal"), "the reader's connection keeps the file in WAL mode")
        #expect(try reader.session(recorder.sessionID).status == .closed)

        let elsewhere = TemporaryDirectory()
        try FileManager.default.copyItem(atPath: path, toPath: elsewhere.path("copy.actionlog"))
        let copied = try Journal(path: elsewhere.path("copy.actionlog"))
        #expect(try copied.session(recorder.sessionID).status == .closed)
        #expect(try copied.entries(in: recorder.sessionID).count == 31)
        #expect(fileNames(in: elsewhere.url.path) == ["copy.actionlog"])
    }

    // MARK: - Readers never write

    @Test("reading a closed journal creates no file beside it, whatever the reader")
    func readersCreateNothing() throws {
        let path = directory.path("app.actionlog")
        let recorder = try record(path, "s", count: 10)
        recorder.close()
        #expect(fileNames(in: directory.url.path) == ["app.actionlog"])
        let journal = try Journal(path: path)
        #expect(try journal.sessions().count == 1)
        #expect(try journal.entries(in: recorder.sessionID).count == 11)
        #expect(try journal.state(at: 5, in: recorder.sessionID).decode(Counter.self).count == 5)
        #expect(try journal.recordedSession(recorder.sessionID).entries.count == 11)
        #expect(try journal.verify().isValid)
        let sink = try #require(FileHandle(forWritingAtPath: "/dev/null"))
        try journal.exportJSONL(recorder.sessionID, to: sink)
        #expect(fileNames(in: directory.url.path) == ["app.actionlog"])
    }

    @Test("a journal left in WAL mode without its log is read as it is, creates nothing, and a recorder starting on it is seen")
    func walModeWithoutLog() throws {
        let path = directory.path("old.actionlog")
        try record(path, "old", count: 5).close()
        try leaveInWALModeWithoutLog(path)
        #expect(try headerSaysWAL(path))
        #expect(fileNames(in: directory.url.path) == ["old.actionlog"])

        let journal = try Journal(path: path)
        #expect(try journal.sessions().map(\.name) == ["old"])
        #expect(try journal.verify().isValid)
        #expect(try journal.recordedSession(1).entries.count == 6)
        #expect(fileNames(in: directory.url.path) == ["old.actionlog"])

        let recorder = try record(path, "new", count: 2)
        #expect(try journal.sessions().map(\.name) == ["old", "new"])
        #expect(try journal.session(recorder.sessionID).status == .recording)
        recorder.close()
        #expect(try journal.session(recorder.sessionID).status == .closed)
        #expect(try journal.entries(in: recorder.sessionID).count == 3)
    }

    @Test("a log without its shared-memory file is refused rather than created, naming both files; a writer folds it")
    func logWithoutSharedMemory() throws {
        let path = directory.path("odd.actionlog")
        try record(path, "s", count: 2).close()
        try leaveInWALModeWithoutLog(path)
        #expect(FileManager.default.createFile(atPath: path + "-wal", contents: Data()))
        let error = #expect(throws: ActionLogError.self) { try Journal(path: path) }
        #expect(error?.description == """
            odd.actionlog: its write-ahead log odd.actionlog-wal has no odd.actionlog-shm beside it, and a reader creates no file; \
            open the journal for writing once (a recorder, or Journal(path:mode: .readWrite)) to fold the log into the file
            """)
        #expect(error?.code == .fileSystem)
        #expect(fileNames(in: directory.url.path) == ["odd.actionlog", "odd.actionlog-wal"])

        _ = try Journal(path: path, mode: .readWrite)
        #expect(fileNames(in: directory.url.path) == ["odd.actionlog"])
        #expect(try Journal(path: path).sessions().map(\.entryCount) == [3])
    }

    @Test("on a read-only file system every reader works: a closed journal, one left in WAL mode, one whose recorder died")
    func readOnlyFileSystem() throws {
        let mount: ScratchMount
        switch ScratchMount.make() {
        case .success(let made): mount = made
        case .failure(let reason):
            print("Skipped: cannot mount a file system to make read-only here: \(reason)")
            return
        }
        try withExtendedLifetime(mount) {
            let closed = mount.file("closed.actionlog")
            let old = mount.file("old.actionlog")
            let crashed = mount.file("crashed.actionlog")
            try record(closed, "s", count: 10).close()
            try record(old, "s", count: 10).close()
            try leaveInWALModeWithoutLog(old)
            // What a recorder that died leaves: the journal with its log and shared memory.
            let live = directory.path("live.actionlog")
            let recorder = try record(live, "s", count: 10)
            for suffix in ["", "-wal", "-shm"] {
                try FileManager.default.copyItem(atPath: live + suffix, toPath: crashed + suffix)
            }
            recorder.close()
            let files = fileNames(in: mount.path)
            #expect(files == ["closed.actionlog", "crashed.actionlog", "crashed.actionlog-shm", "crashed.actionlog-wal", "old.actionlog"])
            try mount.remountReadOnly()

            for path in [closed, old, crashed] {
                let name = JournalFile.displayName(path)
                let journal = try Journal(path: path)
                #expect(try journal.sessions().map(\.entryCount) == [11], "\(name)")
                #expect(try journal.verify().findings == [], "\(name)")
                #expect(try journal.recordedSession(1).entries.count == 11, "\(name)")
                #expect(try journal.state(at: 10, in: 1).decode(Counter.self).count == 10, "\(name)")
                try journal.copy(to: directory.path("copy-of-" + name))
                #expect(try Journal(path: directory.path("copy-of-" + name)).entries(in: 1).count == 11, "\(name)")
            }
            #expect(fileNames(in: mount.path) == files)
        }
    }

    // MARK: - Private files

    @Test("every file created is private (0600) under umask 022: the journal, its -wal and -shm, the session lock, copies")
    func privateFiles() throws {
        try withUmask(0o022) {
            let path = directory.path("private.actionlog")
            let recorder = try record(path, "s", count: 3)
            let lock = SessionLock.path(journal: path, session: recorder.sessionID)
            #expect([path, path + "-wal", path + "-shm", lock].map(permissions) == [0o600, 0o600, 0o600, 0o600])
            try Journal(path: path).copy(to: directory.path("copy.actionlog"))
            recorder.close()
            #expect(permissions(path) == 0o600)
            #expect(permissions(directory.path("copy.actionlog")) == 0o600)
            try Journal(path: path).copy(to: directory.path("copy.actionlog"), replacing: true)
            #expect(permissions(directory.path("copy.actionlog")) == 0o600)
            _ = try Journal(path: directory.path("new.actionlog"), mode: .readWrite)
            #expect(permissions(directory.path("new.actionlog")) == 0o600)
        }
    }

    @Test("a journal its owner chose to share keeps its mode, and its -wal and -shm get the same")
    func sharedJournalKeepsItsMode() throws {
        let path = directory.path("shared.actionlog")
        try record(path, "first", count: 1).close()
        #expect(chmod(path, 0o640) == 0)
        let recorder = try record(path, "second", count: 1)
        #expect([path, path + "-wal", path + "-shm"].map(permissions) == [0o640, 0o640, 0o640])
        recorder.close()
        #expect(permissions(path) == 0o640)
    }

    // MARK: - Copies

    @Test("copy writes one self-contained file, of a journal being recorded too, and replaces a file only when asked")
    func copies() throws {
        let path = directory.path("live.actionlog")
        let recorder = try record(path, "live", count: 20)
        let journal = try Journal(path: path)
        let destination = directory.path("copy.actionlog")
        try journal.copy(to: destination)
        #expect(try !headerSaysWAL(destination))
        let copied = try Journal(path: destination)
        #expect(try copied.entries(in: recorder.sessionID).count == 21)
        #expect(try copied.verify().isValid)
        // No recorder holds the session in the copy.
        #expect(try copied.session(recorder.sessionID).status == .interrupted)

        let error = #expect(throws: ActionLogError.self) { try journal.copy(to: destination) }
        #expect(error?.description == "live.actionlog: cannot copy to \(destination): the file exists; pass replacing: true to replace it")
        recorder.close()
        try journal.copy(to: destination, replacing: true)
        #expect(try Journal(path: destination).session(recorder.sessionID).status == .closed)
        #expect(fileNames(in: directory.url.path).filter { $0.hasPrefix(".") } == [], "no temporary file is left")
    }

    @Test("copy never writes over the journal itself through any path or link, a directory, or a journal with a log beside it")
    func copyRefusals() throws {
        let path = directory.path("app.actionlog")
        try record(path, "s", count: 2).close()
        let journal = try Journal(path: path)
        let hardLink = directory.path("hard.actionlog")
        try FileManager.default.linkItem(atPath: path, toPath: hardLink)
        let symbolicLink = directory.path("soft.actionlog")
        try FileManager.default.createSymbolicLink(atPath: symbolicLink, withDestinationPath: path)
        for destination in [path, directory.url.path + "/./app.actionlog", hardLink, symbolicLink] {
            let error = #expect(throws: ActionLogError.self) { try journal.copy(to: destination, replacing: true) }
            #expect(error?.description == "app.actionlog: cannot copy to \(destination): it is the journal being copied, or a file of it")
        }
        let folder = directory.path("folder")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let directoryError = #expect(throws: ActionLogError.self) { try journal.copy(to: folder, replacing: true) }
        #expect(directoryError?.description == "app.actionlog: cannot copy to \(folder): it is a directory")

        let other = directory.path("other.actionlog")
        let recorder = try record(other, "other", count: 1)
        let openError = #expect(throws: ActionLogError.self) { try journal.copy(to: other, replacing: true) }
        let message = "a write-ahead log other.actionlog-wal is beside it (the journal there may be open, or its log was left behind); move it away first"
        #expect(openError?.description == "app.actionlog: cannot copy to \(other): \(message)")
        recorder.close()
        // A log left beside a name that holds no journal any more would be read into the copy.
        let gone = directory.path("gone.actionlog")
        #expect(FileManager.default.createFile(atPath: gone + "-wal", contents: Data()))
        let leftError = #expect(throws: ActionLogError.self) { try journal.copy(to: gone) }
        #expect(leftError?.description == "app.actionlog: cannot copy to \(gone): \(message.replacingOccurrences(of: "other", with: "gone"))")
        try FileManager.default.removeItem(atPath: gone + "-wal")
        #expect(try Journal(path: other).sessions().map(\.name) == ["other"])
        #expect(try journal.verify().isValid)
        #expect(fileNames(in: directory.url.path) == ["app.actionlog", "folder", "hard.actionlog", "other.actionlog", "soft.actionlog"])
    }
}
