import Foundation
import Testing
@testable import ActionLog

@Suite("ChunkedArray: an array whose copies share all but what changed")
struct ChunkedArrayTests {
    struct Line: Codable, Equatable, Hashable, Sendable {
        var id: Int
        var memo: String
        var amountCents: Int
    }

    struct Ledger: Codable, Equatable, Sendable {
        var balanceCents = 0
        var history: ChunkedArray<Line> = []
    }

    /// The same ledger with a plain array: what the chunked one must encode exactly like.
    struct PlainLedger: Codable, Equatable {
        var balanceCents = 0
        var history: [Line] = []
    }

    static func line(_ id: Int) -> Line {
        Line(id: id, memo: "memo #\(id)", amountCents: id * 7 % 1_000 - 500)
    }

    @Test("behaves as an Array under appends, removals, replacements and edits in the middle, across leaves and groups")
    func behavesAsArray() {
        var generator = EncodingModel.SeededGenerator(seed: 20_261_124)
        var chunked = ChunkedArray<Int>()
        var plain: [Int] = []
        for step in 0..<1_500 {
            switch generator.next(below: 10) {
            case 0..<6:
                let count = generator.next(below: 50) + 1
                let values = (0..<count).map { step * 100 + $0 }
                chunked.append(contentsOf: values)
                plain.append(contentsOf: values)
            case 6 where !plain.isEmpty:
                #expect(chunked.removeLast() == plain.removeLast())
            case 7 where !plain.isEmpty:
                let index = generator.next(below: plain.count)
                chunked[index] = -step
                plain[index] = -step
            case 8 where !plain.isEmpty:
                let lower = generator.next(below: plain.count)
                let upper = lower + generator.next(below: Swift.min(plain.count - lower, 200) + 1)
                let replacement = (0..<generator.next(below: 5)).map { step * 1_000 + $0 }
                chunked.replaceSubrange(lower..<upper, with: replacement)
                plain.replaceSubrange(lower..<upper, with: replacement)
            default:
                let index = generator.next(below: plain.count + 1)
                chunked.insert(step, at: index)
                plain.insert(step, at: index)
            }
            if step % 250 == 0 { #expect(Array(chunked) == plain, "step \(step)") }
        }
        #expect(plain.count > 4_096 * 2, "the walk reached a third group")
        #expect(Array(chunked) == plain)
        #expect(chunked.count == plain.count)
        #expect(chunked == ChunkedArray(plain))
        #expect(chunked.hashValue == ChunkedArray(plain).hashValue)
        chunked.removeSubrange(100...)
        plain.removeSubrange(100...)
        #expect(Array(chunked) == plain)
        chunked.removeAll()
        #expect(chunked.isEmpty && chunked == [])
    }

    @Test("a copy shares every leaf; appending to one copies only its last leaf, and the copy keeps its elements")
    func copiesShare() {
        var history = ChunkedArray((0..<10_000).map(Self.line))
        let leaves = (10_000 + 63) / 64
        let before = history
        #expect(history.sharedLeaves(with: before) == leaves)
        history.append(Self.line(10_000))
        #expect(history.sharedLeaves(with: before) == leaves - 1, "only the last leaf, which the append went into, was copied")
        history[5] = Self.line(-5)
        #expect(history.sharedLeaves(with: before) == leaves - 2)
        #expect(before.count == 10_000)
        #expect(before[5] == Self.line(5))
        #expect(before.last == Self.line(9_999))
        #expect(history.last == Self.line(10_000))
        #expect(history != before)
        history[5] = Self.line(5)
        history.removeLast()
        #expect(history == before, "equal again, compared element by element where the leaves differ")
    }

    @Test("encodes and decodes as an Array: the same JSON, from JSONEncoder and from ActionLog's encoders")
    func codesAsArray() throws {
        let lines = (0..<5_000).map(Self.line)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let chunkedData = try encoder.encode(Ledger(balanceCents: 3, history: ChunkedArray(lines)))
        #expect(chunkedData == (try encoder.encode(PlainLedger(balanceCents: 3, history: lines))))
        #expect(try JSONDecoder().decode(Ledger.self, from: chunkedData) == Ledger(balanceCents: 3, history: ChunkedArray(lines)))
        let json = try JSONValueEncoder().encode(Ledger(balanceCents: 3, history: ChunkedArray(lines)))
        #expect(json == (try JSONValueEncoder().encode(PlainLedger(balanceCents: 3, history: lines))))
        #expect(try json.decode(Ledger.self).history.count == 5_000)
        #expect(ChunkedArray([1, 2, 3]).description == "[1, 2, 3]")
    }

    @Test("the change encoder gives the patches an Array would: an add per append, a change deep inside, removals at the end")
    func changeEncoderPatches() throws {
        var state = Ledger(history: ChunkedArray((0..<5_000).map(Self.line)))
        let encoder = ChangeEncoder<Ledger>()
        encoder.patchesPreviousJSON = true
        _ = try encoder.encode(state)
        func step(_ expected: String, _ change: (inout Ledger) -> Void) throws {
            change(&state)
            let previous = try #require(encoder.previousJSON)
            let encoded = try encoder.encode(state)
            #expect(encoded.patch?.canonicalText == expected)
            #expect(encoded.json == (try JSONValueEncoder().encode(state)))
            #expect(try encoded.patch?.apply(to: previous) == encoded.json)
        }
        try step(#"[{"op":"replace","path":"/balanceCents","value":-7},{"op":"add","path":"/history/5000","value":{"amountCents":-500,"id":0,"memo":"new"}}]"#) {
            $0.balanceCents = -7
            $0.history.append(Line(id: 0, memo: "new", amountCents: -500))
        }
        try step(#"[{"op":"replace","path":"/history/4097/memo","value":"edited"}]"#) { $0.history[4_097].memo = "edited" }
        try step(#"[{"op":"remove","path":"/history/5000"},{"op":"remove","path":"/history/4999"}]"#) {
            $0.history.removeLast()
            $0.history.removeLast()
        }
        try step("[]") { _ in }
        try step(#"[{"op":"replace","path":"/history/0/id","value":-1},{"op":"replace","path":"/history/4998/id","value":-2}]"#) {
            $0.history[0].id = -1
            $0.history[4_998].id = -2
        }
    }

    @Test(
        "after an encode, the caller's appends stay in place: the encoder keeps copies of the list of groups and the last leaf; sharing them (a replay's choice), every append within a leaf copies them",
        arguments: [false, true])
    func encoderLeavesEndsAlone(sharesEnds: Bool) throws {
        var state = Ledger(history: ChunkedArray((0..<10_000).map(Self.line)))
        let encoder = ChangeEncoder<Ledger>()
        encoder.patchesPreviousJSON = true
        encoder.sharesChunkedArrayEnds = sharesEnds
        _ = try encoder.encode(state)
        var copies = 0
        var appendsWithinLeaf = 0
        for index in 10_000..<10_300 {
            let before = state.history.endBuffers
            let startsLeaf = state.history.count % 64 == 0
            state.history.append(Self.line(index))
            if !startsLeaf {
                appendsWithinLeaf += 1
                if state.history.endBuffers != before { copies += 1 }
            }
            let previous = try #require(encoder.previousJSON)
            let change = try encoder.encode(state)
            #expect(change.patch?.operations.count == 1)
            #expect(try change.patch?.apply(to: previous) == change.json)
        }
        #expect(appendsWithinLeaf == 296)
        #expect(copies == (sharesEnds ? appendsWithinLeaf : 0), "appends that copied the caller's list of groups, last group or last leaf")
    }

    @Test("random edits: every patch turns the previous JSON into the new one, which is a full encode's")
    func randomEdits() throws {
        var generator = EncodingModel.SeededGenerator(seed: 7)
        for (patchesInPlace, sharesEnds) in [(false, false), (true, false), (true, true)] {
            var state = Ledger(history: ChunkedArray((0..<300).map(Self.line)))
            let encoder = ChangeEncoder<Ledger>()
            encoder.patchesPreviousJSON = patchesInPlace
            encoder.sharesChunkedArrayEnds = sharesEnds
            _ = try encoder.encode(state)
            for step in 0..<300 {
                switch generator.next(below: 5) {
                case 0: state.history.append(Self.line(step))
                case 1 where !state.history.isEmpty: state.history.removeLast()
                case 2 where !state.history.isEmpty: state.history[generator.next(below: state.history.count)].memo = "step \(step)"
                case 3 where !state.history.isEmpty: state.history.remove(at: generator.next(below: state.history.count))
                default: state.history.insert(Self.line(-step), at: generator.next(below: state.history.count + 1))
                }
                let previous = try #require(encoder.previousJSON)
                let encoded = try encoder.encode(state)
                #expect(encoded.json == (try JSONValueEncoder().encode(state)), "step \(step), sharing ends: \(sharesEnds)")
                #expect(try encoded.patch?.apply(to: previous) == encoded.json, "step \(step)")
            }
        }
    }

    @Test("recorded: appends are stored as deltas, and the states read back as recorded")
    func recordsAndReplays() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("ledger.actionlog")
        let recorder = try Recorder<Ledger, Int, Never>(path: path, sessionName: "ledger", initialState: Ledger())
        var state = Ledger()
        for amount in 1...2_000 {
            state.balanceCents += amount
            state.history.append(Line(id: amount, memo: "line \(amount)", amountCents: amount))
            recorder.record(action: amount, state: state)
        }
        recorder.close()
        let journal = try Journal(path: path)
        #expect(try journal.state(at: 2_000, in: recorder.sessionID).decode(Ledger.self) == state)
        #expect(try journal.state(at: 1_000, in: recorder.sessionID).decode(Ledger.self).history.count == 1_000)
        #expect(try journal.verify().isValid)
        let deltas = try journal.entries(in: recorder.sessionID).filter { $0.kind == .delta }.count
        #expect(deltas > 1_900, "appends are stored as deltas")
    }
}
