import Foundation
import Testing
@testable import ActionLog

@Suite("Retention: pruning old sessions, never a live one, and vacuum")
struct RetentionTests {
    let directory = TemporaryDirectory()

    /// Records closed sessions named `s1`, `s2`, … with `actions` increments each; returns their ids.
    @discardableResult
    private func closedSessions(_ count: Int, at path: String, actions: Int = 3) throws -> [JournalSession.ID] {
        try (1...count).map { index in
            let recorder = try CounterRecorder(path: path, sessionName: "s\(index)", initialState: Counter(), configuration: configuration(ErrorLog()))
            for value in 1...actions { recorder.record(action: .increment, state: Counter(count: value, history: Array(1...value)), effect: nil) }
            recorder.close()
            return recorder.sessionID
        }
    }

    private func names(_ path: String) throws -> [String] {
        try Journal(path: path).sessions().map(\.name)
    }

    @Test("a recorder applies its retention when it opens the journal: its own new session counts and stays")
    func recorderAppliesRetention() throws {
        let path = directory.path("open.actionlog")
        try closedSessions(3, at: path)
        let log = ErrorLog()
        let recorder = try CounterRecorder(path: path, sessionName: "new", initialState: Counter(), configuration: configuration(log) {
            $0.retention = RetentionPolicy(maximumSessions: 2)
        })
        recorder.flush()  // The writer applies the policy before it takes the first entry.
        #expect(try names(path) == ["s3", "new"])
        recorder.record(action: .increment, state: Counter(count: 1), effect: nil)
        recorder.close()
        #expect(try Journal(path: path).sessions().last?.entryCount == 2)
        #expect(log.all.isEmpty)
    }

    @Test("a live session is never removed: not by a recorder opening, nor by prune, whatever the limits")
    func liveSessionSurvives() throws {
        let path = directory.path("live.actionlog")
        let live = try CounterRecorder(path: path, sessionName: "live", initialState: Counter(), configuration: configuration(ErrorLog()))
        live.flush()
        try closedSessions(2, at: path)
        let second = try CounterRecorder(path: path, sessionName: "second", initialState: Counter(), configuration: configuration(ErrorLog()) {
            $0.retention = RetentionPolicy(maximumSessions: 1)
        })
        second.flush()
        #expect(try names(path) == ["live", "second"], "the closed ones went; both live ones stayed")

        let journal = try Journal(path: path, mode: .readWrite)
        let report = try journal.prune(RetentionPolicy(maximumSessions: 0, maximumBytes: 0, maximumAge: .zero), now: Date().addingTimeInterval(3600))
        #expect(report.removed.isEmpty)
        #expect(report.keptLive == [live.sessionID, second.sessionID])
        #expect(report.remainingSessions == 2)
        live.record(action: .increment, state: Counter(count: 1), effect: nil)
        live.close()
        second.close()
        #expect(try journal.session(live.sessionID).entryCount == 2, "the live session kept recording")
        #expect(try journal.prune(RetentionPolicy(maximumSessions: 0)).removed.map(\.name) == ["live", "second"], "once closed, they can go")
    }

    @Test("the age limit removes sessions that ended before the cutoff; an interrupted session ended at its last entry")
    func age() throws {
        let path = directory.path("age.actionlog")
        let ids = try closedSessions(3, at: path)
        let crashed = try CounterRecorder(path: path, sessionName: "crashed", initialState: Counter(), configuration: configuration(ErrorLog()))
        crashed.record(action: .increment, state: Counter(count: 1), effect: nil)
        crashed.flush()
        crashed.abandon()
        // Session 1 ended ten days ago; the crashed one's last entry was eight days ago.
        try sql(path, """
            UPDATE sessions SET started_at = started_at - 864000, ended_at = ended_at - 864000 WHERE id = \(ids[0]);
            UPDATE entries SET checksum = NULL, time = time - 691200 WHERE session_id = \(crashed.sessionID);
            UPDATE sessions SET started_at = started_at - 691200 WHERE id = \(crashed.sessionID);
            """)
        let journal = try Journal(path: path, mode: .readWrite)
        let report = try journal.prune(RetentionPolicy(maximumAge: .seconds(7 * 86_400)))
        #expect(report.removed.map(\.name) == ["s1", "crashed"])
        #expect(report.removed.map(\.status) == [.closed, .interrupted])
        #expect(report.removed.map(\.reason) == [.age, .age])
        #expect(report.removed.map(\.entryCount) == [4, 2])
        #expect(try names(path) == ["s2", "s3"])
        #expect(!FileManager.default.fileExists(atPath: SessionLock.path(journal: path, session: crashed.sessionID)))
    }

    @Test("the bytes limit counts the entries' texts and removes the oldest sessions until the rest fit")
    func bytes() throws {
        let path = directory.path("bytes.actionlog")
        try closedSessions(4, at: path, actions: 40)
        let texts = try Connection(path: path, mode: .readOnly).prepare("""
            SELECT sum(length(CAST(coalesce(label, '') AS BLOB)) + length(CAST(coalesce(action, '') AS BLOB))
                       + length(CAST(coalesce(state, '') AS BLOB)) + length(CAST(coalesce(effect, '') AS BLOB))
                       + length(CAST(coalesce(note, '') AS BLOB)))
            FROM entries GROUP BY session_id ORDER BY session_id
            """).rows { Int($0.int(0)) }
        #expect(texts.count == 4)
        let journal = try Journal(path: path, mode: .readWrite)
        // Room for the newest two and a byte less than the second oldest: the two oldest go.
        let limit = texts[2] + texts[3] + texts[1] - 1
        let dryRun = try journal.prune(RetentionPolicy(maximumBytes: limit), dryRun: true)
        #expect(dryRun.removed.map(\.name) == ["s1", "s2"])
        #expect(dryRun.removed.map(\.bytes) == [texts[0], texts[1]])
        #expect(dryRun.remainingBytes == texts[2] + texts[3])
        #expect(try names(path) == ["s1", "s2", "s3", "s4"], "a dry run changes nothing")
        let report = try journal.prune(RetentionPolicy(maximumBytes: limit))
        #expect(report.removed == dryRun.removed)
        #expect(try names(path) == ["s3", "s4"])
        #expect(try journal.prune(RetentionPolicy(maximumBytes: limit)).removed.isEmpty)
    }

    @Test("limits combine, oldest first, and a dry run works on a journal opened read-only; a real one refuses")
    func combinedAndReadOnly() throws {
        let path = directory.path("both.actionlog")
        let ids = try closedSessions(5, at: path)
        try sql(path, "UPDATE sessions SET ended_at = ended_at - 864000 WHERE id = \(ids[3]);")
        let readOnly = try Journal(path: path)
        let policy = RetentionPolicy(maximumSessions: 3, maximumAge: .seconds(86_400))
        let report = try readOnly.prune(policy, dryRun: true)
        #expect(report.removed.map(\.name) == ["s1", "s4"])
        #expect(report.removed.map(\.reason) == [.count, .age])
        #expect(report.remainingSessions == 3)
        #expect(report.dryRun)
        #expect {
            _ = try readOnly.prune(policy)
        } throws: { error in
            (error as? ActionLogError)?.description == "both.actionlog: opened read-only, so no session can be removed; open it with mode: .readWrite"
        }
        #expect(try names(path) == ["s1", "s2", "s3", "s4", "s5"])
    }

    @Test("vacuum refuses a journal with a live recorder, and afterwards gives the space back")
    func vacuum() throws {
        let path = directory.path("vacuum.actionlog")
        try closedSessions(3, at: path, actions: 300)
        let live = try CounterRecorder(path: path, sessionName: "live", initialState: Counter(), configuration: configuration(ErrorLog()))
        live.flush()
        let journal = try Journal(path: path, mode: .readWrite)
        _ = try journal.prune(RetentionPolicy(maximumSessions: 2))
        #expect {
            _ = try journal.vacuum()
        } throws: { error in
            (error as? ActionLogError)?.description == """
                vacuum.actionlog, session 4: a recorder is writing this session now; vacuum rewrites the whole file \
                and would hold up its writes, so nothing was done: vacuum when no app records into the journal
                """
        }
        live.close()
        let sizes = try journal.vacuum()
        print("vacuum: \(sizes.bytesBefore) bytes before, \(sizes.bytesAfter) after")
        #expect(sizes.bytesAfter < sizes.bytesBefore)
        #expect(try names(path) == ["s3", "live"])
        #expect(try journal.verify().isValid)
    }
}
