import Foundation
import Testing
@testable import ActionLog

/// A counter whose encoding takes a millisecond: a writer slower than the app, by construction.
struct SlowCounter: Codable, Equatable, Sendable {
    var count = 0
    var history: [Int] = Array(0..<50)

    private enum CodingKeys: String, CodingKey { case count, history }

    init(count: Int = 0) { self.count = count }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        count = try container.decode(Int.self, forKey: .count)
        history = try container.decode([Int].self, forKey: .history)
    }

    func encode(to encoder: any Encoder) throws {
        Thread.sleep(forTimeInterval: 0.001)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(count, forKey: .count)
        try container.encode(history, forKey: .history)
    }
}

@Suite("Recorder: back-pressure keeps its promise")
struct RecorderBackpressureTests {
    let directory = TemporaryDirectory()

    @Test("queued states are bounded by bytes: each counts for the encoded size of the last keyframe (entry 0 at first)")
    func boundedByBytes() throws {
        let path = directory.path("bytes.actionlog")
        let initial = Counter(count: 0, history: Array(0..<1_000))
        let size = try JSONValueEncoder().encode(initial).canonicalText.utf8.count
        // Room for three states and a half; a writer that takes nothing until a flush.
        let recorder = try CounterRecorder(path: path, sessionName: "s", initialState: initial, configuration: configuration(ErrorLog()) {
            $0.queueCapacity = 100
            $0.queueByteCapacity = size * 7 / 2
            $0.writerWaitsForFlush = true
            $0.backpressure = .drop
        })
        var state = initial
        for _ in 1...10 {
            state.count += 1
            recorder.record(action: .increment, state: state, effect: nil)
        }
        #expect(recorder.statistics.dropped == 7)
        recorder.close()
        let entries = try Journal(path: path).entries(in: recorder.sessionID)
        #expect(entries.map { $0.content.gap?.dropped } == [nil, nil, nil, nil, 7])
    }

    @Test("the writer commits once its encoded rows hold the byte capacity, long before the batch is due")
    func commitsByBytes() throws {
        let path = directory.path("commit-bytes.actionlog")
        let initial = Counter(count: 0, history: Array(0..<1_000))
        let size = try JSONValueEncoder().encode(initial).canonicalText.utf8.count
        // Every state a keyframe of `size` bytes; a batch due in an hour, or after 10,000 entries.
        let recorder = try CounterRecorder(path: path, sessionName: "s", initialState: initial, configuration: configuration(ErrorLog()) {
            $0.queueByteCapacity = size * 5 / 2
            $0.batchSize = 10_000
            $0.batchInterval = .seconds(3600)
            $0.keyframes = .keyframesOnly
            $0.backpressure = .block
        })
        var state = initial
        for _ in 1...3 {
            state.count += 1
            recorder.record(action: .increment, state: state, effect: nil)
        }
        // No flush: the third row brings the held bytes past the capacity, and the writer commits.
        let deadline = ContinuousClock.now.advanced(by: .seconds(30))
        while recorder.statistics.committed < 4, ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        #expect(recorder.statistics.committed == 4)
        #expect(try Journal(path: path).session(recorder.sessionID).entryCount == 4)
        recorder.close()
    }

    @Test(".wait(timeout:) under a slow writer: the caller waits at most about the timeout, and what it drops is counted as gaps")
    func waitUnderSlowWriter() throws {
        let path = directory.path("wait.actionlog")
        let recorder = try Recorder<SlowCounter, CounterAction, Never>(path: path, sessionName: "s", initialState: SlowCounter(), configuration: configuration(ErrorLog()) {
            // The writer takes the 32 queued at once and needs over 32 ms to encode them: the queue
            // stays full longer than the caller waits.
            $0.queueCapacity = 32
            $0.backpressure = .wait(timeout: .milliseconds(10))
        })
        let clock = ContinuousClock()
        var times: [Duration] = []
        for count in 1...200 {
            let start = clock.now
            recorder.record(action: .increment, state: SlowCounter(count: count))
            times.append(start.duration(to: clock.now))
        }
        recorder.close()
        let sorted = times.sorted()
        print("record under a slow writer with .wait(10 ms), 200 calls: max \(sorted[199]), p99 \(sorted[197]), median \(sorted[100])")
        let statistics = recorder.statistics
        #expect(statistics.dropped > 0, "the writer was not slow enough to fill the queue")
        #expect(statistics.recorded + statistics.dropped == 201)
        let journal = try Journal(path: path)
        #expect(try journal.verify().isValid)
        let gaps = try journal.entries(in: recorder.sessionID).reduce(0) { $0 + ($1.content.gap?.dropped ?? 0) }
        #expect(gaps == statistics.dropped)
    }

    @Test(".block never drops: every action is in the file, in order, however slow the writer")
    func blockNeverDrops() throws {
        let path = directory.path("block.actionlog")
        let log = ErrorLog()
        let recorder = try Recorder<SlowCounter, CounterAction, Never>(path: path, sessionName: "s", initialState: SlowCounter(), configuration: configuration(log) {
            $0.queueCapacity = 2
            $0.backpressure = .block
        })
        let clock = ContinuousClock()
        var longest = Duration.zero
        for count in 1...100 {
            let start = clock.now
            recorder.record(action: .increment, state: SlowCounter(count: count))
            longest = max(longest, start.duration(to: clock.now))
        }
        recorder.close()
        print("record under a slow writer with .block, 100 calls: the longest waited \(longest)")
        #expect(recorder.statistics == RecorderStatistics(recorded: 101, dropped: 0, committed: 101, lost: 0, pending: 0))
        #expect(log.all.isEmpty)
        let journal = try Journal(path: path)
        var states = StateWalk(file: journal.fileName, session: recorder.sessionID)
        var counts: [Int] = []
        for entry in try journal.entries(in: recorder.sessionID) {
            try states.advance(past: entry)
            counts.append(try states.state?.decode(SlowCounter.self).count ?? -1)
        }
        #expect(counts == Array(0...100))
    }
}
