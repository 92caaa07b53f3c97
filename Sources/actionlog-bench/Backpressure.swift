import ActionLog
import Foundation

// What `record` costs the dispatching thread when the writer falls behind, under each back-pressure
// policy: how long the slowest calls block (max, p99), what was dropped, what the queued states took
// in memory, and how long `close()` took to drain the queue.

/// A state whose writer is slow by construction: encoding it sleeps `encodeDelay` first, and its
/// payload and text set its encoded size.
struct SlowState: Encodable, Sendable {
    var count: Int
    var payload: [Int]
    var text: String
    var encodeDelay: Duration

    private enum CodingKeys: String, CodingKey { case count, payload, text }

    func encode(to encoder: any Encoder) throws {
        if encodeDelay > .zero { Thread.sleep(forTimeInterval: encodeDelay.seconds) }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(count, forKey: .count)
        try container.encode(payload, forKey: .payload)
        try container.encode(text, forKey: .text)
    }
}

enum SlowAction: Encodable, Sendable { case next }

/// One scenario: the state each dispatch produces, how many dispatches, and the queue.
struct BackpressureScenario {
    var name: String
    var dispatches: Int
    var queueCapacity: Int
    var queueByteCapacity = RecorderConfiguration().queueByteCapacity
    /// The policies measured; all three when `nil`.
    var policies: [String]?
    /// The state after dispatch `index`.
    var state: (Int) -> SlowState
}

struct BackpressureResult {
    var scenario: String
    var policy: String
    /// Each `record` call's time, in seconds.
    var times: [Double]
    var dropped: Int
    var lost: Int
    var peakResidentBytes: Int
    var close: Double
}

/// The resident memory of this process now, from `/proc/self/statm` (0 where there is none).
func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// Dispatches back to back, timing each `record` call alone.
func measureBackpressure(_ scenario: BackpressureScenario, policy: RecorderConfiguration.Backpressure, label: String, directory: String) throws -> BackpressureResult {
    let path = "\(directory)/backpressure-\(scenario.name.filter { $0.isLetter || $0.isNumber })-\(label.filter { $0.isLetter || $0.isNumber }).actionlog"
    var configuration = RecorderConfiguration()
    configuration.queueCapacity = scenario.queueCapacity
    configuration.queueByteCapacity = scenario.queueByteCapacity
    configuration.backpressure = policy
    configuration.onError = { _ in }
    let recorder = try Recorder<SlowState, SlowAction, Never>(path: path, sessionName: scenario.name, initialState: scenario.state(0), configuration: configuration)
    var times: [Double] = []
    times.reserveCapacity(scenario.dispatches)
    var peak = residentBytes()
    for index in 1...scenario.dispatches {
        let state = scenario.state(index)
        let start = clock.now
        recorder.record(action: .next, state: state)
        times.append(start.duration(to: clock.now).seconds)
        if index % 8 == 0 { peak = max(peak, residentBytes()) }
    }
    let closeStart = clock.now
    recorder.close()
    let close = closeStart.duration(to: clock.now).seconds
    let statistics = recorder.statistics
    removeDatabase(path)
    return BackpressureResult(
        scenario: scenario.name, policy: label, times: times, dropped: statistics.dropped, lost: statistics.lost,
        peakResidentBytes: peak, close: close)
}

/// The `--backpressure` report: a writer slowed by its encoding (2 ms a state, a queue of 64) and a
/// writer slowed by 2 MB states replaced by every dispatch (the default queue: 4096 entries, 32 MiB),
/// each under `.wait(50 ms)` (the default), `.drop` and `.block`; then the 2 MB states with the
/// queue bounded by count only, as it was before the byte bound.
func backpressureReport(quick: Bool, directory: String, progress: (String) -> Void) throws -> String {
    let scale = quick ? 4 : 1
    let small = Array(0..<100)
    let body = String(repeating: "lorem ipsum ", count: 2_000_000 / 12)  // About 2 MB of JSON.
    let scenarios = [
        BackpressureScenario(name: "2 ms per state, queue of 64", dispatches: 2_000 / scale, queueCapacity: 64) { index in
            SlowState(count: index, payload: small, text: "", encodeDelay: .milliseconds(2))
        },
        BackpressureScenario(name: "2 MB states, default queue", dispatches: 1_000 / scale, queueCapacity: RecorderConfiguration().queueCapacity) { index in
            // A new text each time (as a document reloaded): each queued state holds its own 2 MB.
            SlowState(count: index, payload: small, text: "\(index) " + body, encodeDelay: .zero)
        },
        // What the byte bound prevents: 4096 entries of room, so nothing waits, and everything queues.
        BackpressureScenario(
            name: "2 MB states, count bound only", dispatches: 300 / scale, queueCapacity: RecorderConfiguration().queueCapacity,
            queueByteCapacity: .max, policies: [".wait(50 ms)"]
        ) { index in
            SlowState(count: index, payload: small, text: "\(index) " + body, encodeDelay: .zero)
        },
    ]
    let policies: [(RecorderConfiguration.Backpressure, String)] = [(.wait(timeout: .milliseconds(50)), ".wait(50 ms)"), (.drop, ".drop"), (.block, ".block")]
    var table = Table(["writer", "policy", "calls", "max ms", "p99 ms", "median µs", "calls > 55 ms", "dropped", "peak RSS MB", "close s"], leftAligned: [0, 1])
    let only = ProcessInfo.processInfo.environment["ACTIONLOG_BENCH_SCENARIO"].flatMap(Int.init)
    for (number, scenario) in scenarios.enumerated() where only == nil || only == number {
        for (policy, label) in policies where scenario.policies?.contains(label) ?? true {
            progress("back-pressure: \(scenario.name), \(label)")
            let result = try measureBackpressure(scenario, policy: policy, label: label, directory: directory)
            let sorted = result.times.sorted()
            let p99 = sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
            table.add([
                result.scenario, result.policy, grouped(result.times.count), fixed((sorted.last ?? 0) * 1e3, decimals: 1), fixed(p99 * 1e3, decimals: 1),
                fixed(median(result.times) * 1e6, decimals: 1), grouped(result.times.filter { $0 > 0.055 }.count), grouped(result.dropped + result.lost),
                fixed(Double(result.peakResidentBytes) / 1e6, decimals: 0), fixed(result.close, decimals: 2),
            ])
        }
    }
    return [
        table.render(),
        "Dispatches back to back, faster than the writer: each `record` call timed alone. max and p99: the slowest calls; under",
        ".wait(50 ms) no call should block much past 50 ms (what it exceeds by is the time the system took to run the thread",
        "again). dropped: entries dropped (each run of them a gap). peak RSS: this process's resident memory, sampled every",
        "8 calls. close: draining what was queued. 2 MB states each hold a new 2 MB string; the byte bound (32 MiB) holds 16.",
        "count bound only: queueByteCapacity = .max, so 4096 entries of room and nothing waits: every state queues.",
    ].joined(separator: "\n")
}
