import Foundation
import Testing
@testable import ActionLog

@Suite("Journal.statistics: a session summarised with SQL aggregates")
struct SessionStatisticsTests {
    let directory = TemporaryDirectory()

    @Test("nearest-rank percentiles: the value at rank ⌈p·n/100⌉, never past the end, without overflow")
    func nearestRanks() {
        #expect(nearestRank(50, of: 1) == 1)
        #expect(nearestRank(99, of: 1) == 1)
        #expect(nearestRank(50, of: 14) == 7)
        #expect(nearestRank(99, of: 14) == 14)
        #expect(nearestRank(50, of: 15) == 8)
        #expect(nearestRank(99, of: 100) == 99)
        #expect(nearestRank(99, of: 101) == 100)
        #expect(nearestRank(100, of: 7) == 7)
        #expect(nearestRank(50, of: Int.max) == Int.max / 2 + 1)
    }

    @Test("a recorded session: kinds, bytes as prune counts them, labels, durations and the slowest entries")
    func recordedSession() throws {
        let path = directory.path("stats.actionlog")
        let recorder = try CounterRecorder(path: path, sessionName: "counter", initialState: Counter(), configuration: configuration(ErrorLog()))
        for value in 1...4 { recorder.record(action: .increment, state: Counter(count: value), effect: nil) }
        recorder.close()
        let id = recorder.sessionID
        try sql(path, "UPDATE entries SET checksum = NULL, duration_ns = CASE seq WHEN 2 THEN 900 WHEN 4 THEN 900 ELSE seq * 100 END WHERE seq > 0")
        let journal = try Journal(path: path)
        let stats = try journal.statistics(in: id, slowest: 3)
        #expect(stats.entries == 5)
        #expect(stats.keyframes + stats.deltas == 5)
        #expect(stats.gaps == 0 && stats.droppedActions == 0)
        #expect(stats.distinctLabels == 1)
        #expect(stats.labels == [SessionStatistics.LabelCount(label: "increment", entries: 4)])
        let reducer = try #require(stats.reducer)
        #expect(reducer.entries == 4)
        #expect([reducer.p50, reducer.p99, reducer.max] == [.nanoseconds(300), .nanoseconds(900), .nanoseconds(900)])
        #expect(reducer.slowest.map(\.seq) == [2, 4, 3])
        let removal = try #require(journal.prune(RetentionPolicy(maximumSessions: 0), dryRun: true).removed.first)
        #expect(stats.bytes.total == removal.bytes)
        #expect(stats.bytesPerEntry == removal.bytes / 5)
    }

    @Test("an unknown session is an error naming the file and the session")
    func unknownSession() throws {
        let path = directory.path("none.actionlog")
        let recorder = try CounterRecorder(path: path, sessionName: "one", initialState: Counter(), configuration: configuration(ErrorLog()))
        recorder.close()
        #expect {
            try Journal(path: path).statistics(in: 42)
        } throws: { error in
            (error as? ActionLogError)?.description == "none.actionlog, session 42: no such session"
        }
    }
}
