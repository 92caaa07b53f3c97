import ActionLog
import Foundation
import HostileFileSupport
import Replayer
import Testing

/// The recursion over JSON values (canonical and pretty writing, `==`, hashing, `differences`,
/// `isEquivalent`, decoding) is safe because no value read from a file nests deeper than
/// ``JSONValue/maximumDepth``: the parser refuses deeper text and patches are bounded. These tests
/// run every reader over a session at that depth, on the test's own thread (a Swift Testing
/// cooperative thread) and on a thread with a small stack.
///
/// Measured at 512 levels on x86_64 Linux: an optimized build parses, compares, hashes and diffs
/// within 256 KiB of stack (128 KiB is too little for the parser, `==` and `differences`), so a
/// 512 KiB secondary thread on Apple platforms has room to spare; a debug build's frames are about
/// eight times larger, and the parser needs 2 MiB (1 MiB is too little).
@Suite("Hostile files: the deepest state a journal may hold")
struct StackDepthTests {
    /// `{"d":{"d":…{"d":innermost}…}}`, nested `JSONValue.maximumDepth` levels deep.
    static func deepest(_ innermost: String) -> String {
        let objects = JSONValue.maximumDepth - 1
        return String(repeating: #"{"d":"#, count: objects) + innermost + String(repeating: "}", count: objects)
    }

    /// A node of the deep state, for replay.
    final class Node: Codable, Equatable, Sendable {
        let d: Node?
        init(d: Node?) { self.d = d }
        static func == (lhs: Node, rhs: Node) -> Bool {
            // A loop, not recursion: the test is about the library's stack, not this one's.
            var left: Node? = lhs
            var right: Node? = rhs
            while let l = left, let r = right {
                left = l.d
                right = r.d
            }
            return left == nil && right == nil
        }
    }

    enum Poke: Codable, Sendable {
        /// One node more at the bottom.
        case poke
        case wait
    }

    /// Rebuilds the chain one node longer for `.poke`, in a loop.
    static func reduce(_ node: inout Node, _ action: Poke) {
        guard case .poke = action else { return }
        var length = 0
        var current: Node? = node
        while let next = current {
            length += 1
            current = next.d
        }
        var built: Node? = nil
        for _ in 0...length { built = Node(d: built) }
        if let built { node = built }
    }

    /// Entry 0: the deepest state, `null` innermost; entry 1: a delta replacing that `null` with
    /// `{}`; entry 2: a keyframe with `{}` innermost.
    static func session() throws -> RecordedSession {
        let time = Date(timeIntervalSince1970: 1_800_000_000)
        let action: JSONValue = ["poke": [:]]
        let innermost = String(repeating: "/d", count: JSONValue.maximumDepth - 1)
        let entries = [
            Entry(seq: 0, time: time, label: nil, action: nil, content: .keyframe(try JSONValue(parsing: deepest("null"))), effect: nil),
            Entry(seq: 1, time: time, label: "poke", action: action,
                  content: .delta(try JSONPatch(JSONValue(parsing: #"[{"op":"replace","path":"\#(innermost)","value":{}}]"#))), effect: nil),
            Entry(seq: 2, time: time, label: "wait", action: ["wait": [:]], content: .keyframe(try JSONValue(parsing: deepest("{}"))), effect: nil),
        ]
        let session = SessionHeader(name: "deep", startedAt: time, endedAt: time, status: .closed, libraryVersion: "0.1.0", appVersion: nil,
            stateType: "Node", actionType: "Poke", effectType: nil, metadata: [:], entryCount: 3, droppedCount: 0, lastEntryAt: time)
        return RecordedSession(session: session, entries: entries, source: .textFile("deep.jsonl"))
    }

    /// Every reader over the deepest session; returns what it read, as text, to compare.
    ///
    /// - Parameter replaying: whether to replay too: decoding and encoding `Node`, a recursive type
    ///   of the test's own, recurses as deep as the state in Foundation's and the change encoder's frames.
    static func readEverything(in directory: TemporaryDirectory, replaying: Bool = true) throws -> [String] {
        let path = directory.path("deep-\(UUID().uuidString).actionlog")
        let id = try Journal(path: path, mode: .readWrite).insert(try session())
        let journal = try Journal(path: path)
        var read: [String] = []
        let states = try (0...2).map { try journal.state(at: $0, in: id) }
        read.append("verify: \(try journal.verify().findings)")
        let differences = states[0].differences(to: states[1])
        read.append("differences: \(differences.count), \(differences.first?.path.description.count ?? 0) characters of path")
        read.append("equal: \(states[1] == states[2]), equivalent: \(states[1].isEquivalent(to: states[2])), hashes: \(Set(states).count)")
        read.append("canonical: \(states[0].canonicalText.utf8.count), pretty: \(states[0].prettyText.utf8.count)")
        read.append("reparsed: \(try JSONValue(parsing: states[2].canonicalText) == states[2])")
        let text = directory.url.appendingPathComponent("deep-\(UUID().uuidString).jsonl")
        _ = FileManager.default.createFile(atPath: text.path, contents: nil)
        let handle = try FileHandle(forWritingTo: text)
        try journal.exportJSONL(id, to: handle)
        try handle.close()
        let recorded = try RecordedSession(contentsOfJSONL: text)
        try recorded.checkImportable()
        read.append("text: \(recorded.entries.count) entries, state 1 equal: \(try recorded.state(at: 1) == states[1])")
        try Journal.importJSONL(at: text, into: directory.path("deep-\(UUID().uuidString).actionlog"))
        guard replaying else { return read }
        let replay = Replay(journal: journal, session: id, reducer: reduce)
        let report = try replay.run()
        read.append("replay: \(report.divergences.map(\.seq)), failure: \(report.failure?.description ?? "none"), replayed: \(report.entriesReplayed)")
        read.append("decoded: \((try? replay.state(at: 2)) != nil)")
        return read
    }

    static let expected = [
        "verify: []",
        "differences: 1, 1021 characters of path",
        "equal: true, equivalent: true, hashes: 2",
        "canonical: 3070, pretty: 526845",
        "reparsed: true",
        "text: 3 entries, state 1 equal: true",
        "replay: [], failure: none, replayed: 2",
        "decoded: true",
    ]

    @Test("a state 512 levels deep reads through every reader on the test's thread")
    func onTheTestThread() throws {
        let directory = try TemporaryDirectory()
        let read = try Self.readEverything(in: directory)
        #expect(read == Self.expected)
    }

    /// Half the 8 MiB of a Linux thread in a debug build; a secondary thread's 512 KiB when optimized.
    static var smallStack: Int {
        #if DEBUG
            4 << 20
        #else
            512 << 10
        #endif
    }

    @Test("a state 512 levels deep reads through the library's readers on a thread with a small stack")
    func onASmallStack() throws {
        let directory = try TemporaryDirectory()
        let result = Locked<Result<[String], any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let read = Result { try Self.readEverything(in: directory, replaying: false) }
            result.withLock { $0 = read }
            done.signal()
        }
        thread.stackSize = Self.smallStack
        thread.start()
        done.wait()
        let read = try #require(result.withLock { $0 })
        #expect(try read.get() == Array(Self.expected.prefix(6)))
    }
}
