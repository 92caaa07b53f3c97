import Foundation
import Testing
@testable import ActionLog

/// A chat whose state grows by one message with every action: what made each gap's keyframe cost
/// the whole history.
struct Chat: Codable, Equatable, Sendable {
    var messages: [String] = []
}

enum ChatAction: Codable, Equatable, Sendable {
    case post(String)
}

@Suite("Gaps cost a gap: the entry after dropped actions is a delta")
struct GapDeltaTests {
    let directory = TemporaryDirectory()

    /// Records `actions` posts into a session of its own in `path`. With `cycle`, drops are made
    /// deterministic: the writer takes nothing until the test flushes, after every `kept + dropped`
    /// dispatches, and the queue holds `kept`, so each run of dispatches keeps its first `kept`
    /// and drops the rest. Without, the queue holds them all, and nothing is dropped.
    private func record(_ path: String, actions: Int, cycle: (kept: Int, dropped: Int)?) throws -> (JournalSession.ID, RecorderStatistics) {
        let log = ErrorLog()
        let recorder = try Recorder<Chat, ChatAction, Never>(
            path: path, sessionName: cycle == nil ? "no drops" : "drops", initialState: Chat(),
            configuration: configuration(log) {
                $0.writerWaitsForFlush = true
                $0.queueCapacity = cycle?.kept ?? actions + 1
                $0.queueByteCapacity = 1 << 40
                $0.backpressure = .drop
            })
        var state = Chat()
        for number in 1...actions {
            state.messages.append("message \(number) from the burst")
            recorder.record(action: .post("message \(number)"), state: state)
            if let cycle, number % (cycle.kept + cycle.dropped) == 0 { recorder.flush() }
        }
        recorder.close()
        #expect(log.all.allSatisfy { $0.code == .dropped }, "\(log.all)")
        return (recorder.sessionID, recorder.statistics)
    }

    @Test("a burst that drops actions writes what changed after each gap, within 2x the bytes of the session without drops, and every state is the one recorded without them")
    func burstCostsItsGaps() throws {
        let actions = 1_500
        let plainPath = directory.path("plain.actionlog")
        let dropsPath = directory.path("drops.actionlog")
        let (plainID, plainStatistics) = try record(plainPath, actions: actions, cycle: nil)
        let (dropsID, dropsStatistics) = try record(dropsPath, actions: actions, cycle: (kept: 24, dropped: 8))
        #expect(plainStatistics.dropped == 0)
        #expect(dropsStatistics.dropped == actions / 32 * 8 + (actions % 32 > 24 ? actions % 32 - 24 : 0))

        let plain = try Journal(path: plainPath)
        let drops = try Journal(path: dropsPath)
        let plainStats = try plain.statistics(in: plainID)
        let dropsStats = try drops.statistics(in: dropsID)
        #expect(plainStats.gaps == 0)
        // 46 runs of 32 drop their last 8; the last 28 dispatches keep 24 and drop 4, a gap at the end.
        #expect(dropsStats.gaps == 47)
        #expect(dropsStats.droppedActions == dropsStatistics.dropped)
        // The gaps force no keyframe: the policy alone decides, as without drops.
        #expect(dropsStats.keyframes <= plainStats.keyframes)
        let ratio = Double(dropsStats.bytes.total) / Double(plainStats.bytes.total)
        #expect(ratio < 2, "entry bytes with drops \(dropsStats.bytes.total), without \(plainStats.bytes.total)")
        let (dropsFile, plainFile) = (try fileSize(dropsPath), try fileSize(plainPath))
        #expect(Double(dropsFile) / Double(plainFile) < 2, "file bytes with drops \(dropsFile), without \(plainFile)")

        // Every entry's state, in order, against the session without drops at the same action; the
        // entries after gaps are deltas, from the state before the gap.
        let numbers = try drops.actionNumbers(in: dropsID)
        var plainCursor = try plain.entryCursor(in: plainID)
        var plainStates = StateWalk(file: plain.fileName, session: plainID)
        var dropsCursor = try drops.entryCursor(in: dropsID)
        var dropsStates = StateWalk(file: drops.fileName, session: dropsID)
        var previousWasGap = false
        var afterGaps: [Int] = []
        var deltasAfterGaps = 0
        while let entry = try dropsCursor.next() {
            try dropsStates.advance(past: entry)
            defer { previousWasGap = entry.kind == .gap }
            guard entry.kind != .gap else {
                #expect(dropsStates.state == nil)
                continue
            }
            if previousWasGap {
                afterGaps.append(entry.seq)
                if entry.kind == .delta { deltasAfterGaps += 1 }
            }
            let action = numbers.action(ofEntry: entry.seq)
            while plainStates.entryCount <= action, let plainEntry = try plainCursor.next() {
                try plainStates.advance(past: plainEntry)
            }
            #expect(dropsStates.state == plainStates.state, "entry \(entry.seq), action \(action)")
            #expect(dropsStates.state?.value(at: JSONPointer("/messages")!)?.arrayCount == action)
        }
        #expect(afterGaps.count == 46)
        // Deltas but where the keyframe policy asks for a keyframe (a delta holding the lost
        // actions' messages may end the policy's byte budget): a keyframe for every gap before.
        #expect(deltasAfterGaps >= 40, "\(deltasAfterGaps) deltas after \(afterGaps.count) gaps")
        // The same states by random access (a chain back to the keyframe, across the gaps) and
        // through the text form, imported into a journal of its own.
        for seq in afterGaps.prefix(10) + afterGaps.suffix(3) {
            #expect(try drops.state(at: seq, in: dropsID) == plain.state(at: numbers.action(ofEntry: seq), in: plainID))
        }
        let text = try drops.recordedSession(dropsID).jsonl()
        let importedPath = directory.path("imported.actionlog")
        let importedID = try Journal(path: importedPath, mode: .readWrite).insert(try RecordedSession(jsonl: text, file: "drops.jsonl"))
        let imported = try Journal(path: importedPath)
        #expect(try imported.recordedSession(importedID).jsonl() == text)
        for seq in afterGaps.prefix(3) {
            #expect(try imported.state(at: seq, in: importedID) == drops.state(at: seq, in: dropsID))
        }
        #expect(try drops.verify().isValid)
    }

    private func fileSize(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
    }
}

extension JSONValue {
    /// The count of an array; `nil` for anything else.
    fileprivate var arrayCount: Int? {
        if case .array(let elements) = self { elements.count } else { nil }
    }
}
