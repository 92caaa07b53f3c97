// `actionlog-crash-child JOURNAL SEED`: records into JOURNAL until it is killed. Test support for
// `CrashDurabilityTests`, which SIGKILLs it at random moments and checks what it left (and, with
// `--exit-without-close N`, what a process that ends without closing its recorder leaves).
//
// It prints, unbuffered, `session ID` once the session has started (entry 0 is committed), then
// `flushed SEQ` each time a `flush()` returned: entries 0...SEQ are committed. Entry SEQ's state is
// `CrashState(seq:)`, so the test can check every entry without being told what was recorded. SEED
// picks how many actions go between flushes and when the child pauses, so that kills land while it
// encodes, while it commits, and while it is idle.
//
// `actionlog-crash-child JOURNAL --exit-from-error-handler encoding|committer N K`: records N
// actions and never returns from `main`; the recorder's error handler ends the process with
// `exit(0)` on the writer's thread once all N were handed over. `encoding`: the state of action K
// does not encode (the encoding thread reports it). `committer`: the file refuses writes until the
// handler runs, with batches of K (the committing thread reports the first failed commit).

import ActionLog
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The state after entry `seq`: its count, the last 64 counts, and now and then a note of 12 KB, so
/// that some rows span several pages.
struct CrashState: Codable, Sendable {
    var count: Int
    var recent: [Int]
    var note: String?

    init(seq: Int) {
        count = seq
        recent = Array(max(0, seq - 63)...seq)
        note = seq % 37 == 0 ? String(repeating: "n", count: 12_000) : nil
    }
}

enum CrashAction: Codable, Sendable { case step }

/// SplitMix64.
struct Generator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

func say(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    var written = 0
    while written < bytes.count {
        let count = bytes[written...].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { exit(3) }
        written += count
    }
}

let arguments = CommandLine.arguments

// `actionlog-crash-child JOURNAL --exit-without-close N`: records N actions, with a batch interval
// of a minute so that none is committed by then, and returns from `main` without `flush()` or
// `close()`: what the process's end does with a recorder left open.
if arguments.count == 4, arguments[2] == "--exit-without-close", let count = Int(arguments[3]), count >= 0 {
    var configuration = RecorderConfiguration()
    configuration.batchInterval = .seconds(60)
    configuration.batchSize = 1_000_000
    do {
        let recorder = try Recorder<CrashState, CrashAction, Never>(
            path: arguments[1], sessionName: "left open", initialState: CrashState(seq: 0), configuration: configuration)
        for seq in stride(from: 1, through: count, by: 1) { recorder.record(action: .step, state: CrashState(seq: seq)) }
        say("recorded \(count)")
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("actionlog-crash-child: \(error)\n".utf8))
        exit(1)
    }
}

/// The state after action `count`: its count; it throws from `encode(to:)` at `failsAt`.
struct ExitState: Encodable, Sendable {
    var count: Int
    var failsAt: Int

    enum CodingKeys: String, CodingKey { case count }

    func encode(to encoder: any Encoder) throws {
        if count == failsAt {
            throw EncodingError.invalidValue(count, EncodingError.Context(codingPath: [], debugDescription: "action \(count) fails on purpose"))
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(count, forKey: .count)
    }
}

if arguments.count == 6, arguments[2] == "--exit-from-error-handler", ["encoding", "committer"].contains(arguments[3]),
    let count = Int(arguments[4]), let failing = Int(arguments[5]), count >= failing, failing > 0
{
    let onCommitter = arguments[3] == "committer"
    let allHandedOver = DispatchSemaphore(value: 0)
    let faults = WriteFaults()
    var configuration = RecorderConfiguration()
    configuration.batchInterval = .seconds(60)
    configuration.batchSize = onCommitter ? failing : 1_000_000
    configuration.writeFaults = faults
    configuration.onError = { _ in
        faults.set(nil)  // The file accepts writes again: what the end of the process writes goes in.
        allHandedOver.wait()
        exit(0)
    }
    do {
        let recorder = try Recorder<ExitState, CrashAction, Never>(
            path: arguments[1], sessionName: "exit from the error handler", initialState: ExitState(count: 0, failsAt: -1),
            configuration: configuration)
        if onCommitter { faults.set(.readOnly) }
        for seq in stride(from: 1, through: count, by: 1) {
            recorder.record(action: .step, state: ExitState(count: seq, failsAt: onCommitter ? -1 : failing))
        }
        say("recorded \(count)")
        allHandedOver.signal()
        while true { pause() }
    } catch {
        FileHandle.standardError.write(Data("actionlog-crash-child: \(error)\n".utf8))
        exit(1)
    }
}

guard arguments.count == 3, let seed = UInt64(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: actionlog-crash-child JOURNAL SEED | JOURNAL --exit-without-close N | JOURNAL --exit-from-error-handler encoding|committer N K\n".utf8))
    exit(64)
}
var random = Generator(state: seed)
var configuration = RecorderConfiguration()
configuration.batchSize = 1 + Int(random.next() % 64)
configuration.batchInterval = .milliseconds(1 + Int(random.next() % 20))
configuration.backpressure = .block
let recorder: Recorder<CrashState, CrashAction, Never>
do {
    recorder = try Recorder(path: arguments[1], sessionName: "crash \(seed)", initialState: CrashState(seq: 0), configuration: configuration)
} catch {
    FileHandle.standardError.write(Data("actionlog-crash-child: \(error)\n".utf8))
    exit(1)
}
say("session \(recorder.sessionID)")
var seq = 0
while true {
    for _ in 0..<(1 + Int(random.next() % 40)) {
        seq += 1
        recorder.record(action: .step, state: CrashState(seq: seq))
    }
    switch random.next() % 4 {
    case 0:
        recorder.flush()
        say("flushed \(seq)")
    case 1:
        usleep(UInt32(random.next() % 3_000))
    default:
        break
    }
}
