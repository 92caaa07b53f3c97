import Foundation
import Testing
@testable import ActionLog

@Suite("Field blame: which entries changed a path, and action numbers that survive gaps")
struct FieldChangeTests {
    let directory = TemporaryDirectory()

    /// A session stored entry by entry, as an import stores it: parents, children, an array shift, a gap.
    func cartJournal() throws -> (Journal, JournalSession.ID) {
        let path = directory.path("cart.actionlog")
        let time = Date(timeIntervalSince1970: 1_763_700_000)
        func patch(_ json: JSONValue) throws -> Entry.Content { .delta(try JSONPatch(json)) }
        let entries: [Entry] = [
            Entry(seq: 0, time: time, label: nil, action: nil, content: .keyframe(["cart": ["total": 1, "items": []]]), effect: nil),
            Entry(seq: 1, time: time, label: "reprice", action: ["reprice": [:]],
                  content: try patch([["op": "replace", "path": "/cart", "value": ["total": 2, "items": []]]]), effect: nil),
            Entry(seq: 2, time: time, label: "add", action: ["add": ["p": 1]],
                  content: try patch([["op": "add", "path": "/cart/items/0", "value": ["p": 1]]]), effect: nil),
            Entry(seq: 3, time: time, label: "touch", action: ["touch": [:]],
                  content: try patch([["op": "replace", "path": "/cart", "value": ["total": 2, "items": [["p": 1]]]]]), effect: nil),
            Entry(seq: 4, time: time, label: "addFirst", action: ["addFirst": ["p": 0]],
                  content: try patch([["op": "add", "path": "/cart/items/0", "value": ["p": 0]]]), effect: nil),
            Entry(seq: 5, time: time, label: nil, action: nil, content: .gap(dropped: 3, note: "3 actions dropped"), effect: nil),
            Entry(seq: 6, time: time, label: "checkout", action: ["checkout": [:]],
                  content: .keyframe(["cart": ["total": 9, "items": [["p": 0], ["p": 1]]]]), effect: nil),
        ]
        let header = SessionHeader(
            name: "cart", startedAt: time, endedAt: time, status: .closed, libraryVersion: "0.1.0", appVersion: nil,
            stateType: "Cart", actionType: "CartAction", effectType: nil, metadata: [:], entryCount: entries.count,
            droppedCount: 3, lastEntryAt: time)
        let writer = try Journal(path: path, mode: .readWrite)
        var remaining = entries[...]
        let id = try writer.insert(session: header, file: "cart.jsonl") { remaining.popFirst() }
        return (try Journal(path: path), id)
    }

    @Test("a parent replaced, a child added, an array shifted, a gap crossed: each says how it reached the path")
    func parentsChildrenShiftsAndGaps() throws {
        let (indexed, id) = try cartJournal()
        try expectCartAnswers(indexed, id)
        // The same answers from a walk of the session, as for a file an older ActionLog wrote.
        let connection = try Connection(path: indexed.path, mode: .readWrite)
        try connection.execute("DELETE FROM change_index")
        connection.close()
        try expectCartAnswers(try Journal(path: indexed.path), id)
    }

    func expectCartAnswers(_ journal: Journal, _ id: JournalSession.ID) throws {
        let total = try journal.changes(to: JSONPointer("/cart/total")!, in: id)
        // Entry 3 replaced the cart with the same total: it touched a parent, but the value did not change.
        #expect(total == [
            FieldChange(seq: 6, action: 8, label: "checkout", touchedPaths: [JSONPointer("/cart/total")!], oldValue: 2, newValue: 9, droppedBefore: 3),
            FieldChange(seq: 1, action: 1, label: "reprice", touchedPaths: [JSONPointer("/cart")!], oldValue: 1, newValue: 2, droppedBefore: 0),
        ])
        // Inserting at the front moves the first item to index 1.
        let second = try journal.changes(to: JSONPointer("/cart/items/1")!, in: id)
        #expect(second.map(\.seq) == [4])
        #expect(second.first?.touchedPaths == [JSONPointer("/cart/items")!])
        #expect(second.first?.oldValue == nil && second.first?.newValue == ["p": 1])
        let cart = try journal.changes(to: JSONPointer("/cart")!, in: id)
        // Entry 3 put back the cart as it was: touched, unchanged, not listed.
        #expect(cart.map(\.seq) == [6, 4, 2, 1])
        #expect(cart.first(where: { $0.seq == 2 })?.touchedPaths == [JSONPointer("/cart/items/0")!])
        // Up to an entry, and "when did it become".
        #expect(try journal.changes(to: JSONPointer("/cart/total")!, in: id, through: 5).map(\.seq) == [1])
        #expect(try journal.changes(to: JSONPointer("/cart/total")!, in: id, becoming: 2).map(\.seq) == [1])
        #expect(try journal.changes(to: JSONPointer("/cart/total")!, in: id, limit: 1).map(\.seq) == [6])
        #expect(try journal.changes(to: JSONPointer("/nothing")!, in: id).isEmpty)
        let root = #expect(throws: ActionLogError.self) { try journal.changes(to: .root, in: id) }
        #expect(root?.description == "cart.actionlog, session \(id): the path is the whole state, which every entry changes: name a path inside it (`/cart/total`)")
    }

    @Test("an entry that changes many paths is stored as their parent, and a child of it is still found through the parent")
    func manyPathsStoredAsTheirParent() throws {
        let many = JSONPatch(operations: (0..<20).flatMap { index in
            [JSONPatch.Operation.replace(path: JSONPointer("/results/\(index)/name")!, value: .string("r\(index)")),
             .replace(path: JSONPointer("/results/\(index)/rank")!, value: .number(String(index)))]
        } + [.replace(path: JSONPointer("/query")!, value: "b")])
        #expect(ChangeIndex.paths(of: many, after: nil) == ["/query", "/results"])
        #expect(ChangeIndex.paths(of: JSONPatch(operations: [.replace(path: JSONPointer("/a/b")!, value: 1)]), after: nil) == ["/a/b"])

        let path = directory.path("search.actionlog")
        let time = Date(timeIntervalSince1970: 1_763_700_000)
        let before: JSONValue = ["query": "a", "results": .array((0..<20).map { ["name": .string("o\($0)"), "rank": .number(String($0 + 100))] })]
        let entries: [Entry] = [
            Entry(seq: 0, time: time, label: nil, action: nil, content: .keyframe(before), effect: nil),
            Entry(seq: 1, time: time, label: "search", action: ["search": "b"], content: .delta(many), effect: nil),
        ]
        let header = SessionHeader(
            name: "search", startedAt: time, endedAt: time, status: .closed, libraryVersion: "0.1.0", appVersion: nil,
            stateType: "Search", actionType: "SearchAction", effectType: nil, metadata: [:], entryCount: 2, droppedCount: 0, lastEntryAt: time)
        var remaining = entries[...]
        let id = try Journal(path: path, mode: .readWrite).insert(session: header, file: "search.jsonl") { remaining.popFirst() }
        let found = try Journal(path: path).changes(to: JSONPointer("/results/3/name")!, in: id)
        #expect(found == [FieldChange(seq: 1, action: 1, label: "search", touchedPaths: [JSONPointer("/results")!], oldValue: "o3", newValue: "r3", droppedBefore: 0)])
    }

    @Test("a path with hundreds of children (a history): the newest entries that added one, read in one statement")
    func manyChildren() throws {
        let path = directory.path("history.actionlog")
        let time = Date(timeIntervalSince1970: 1_763_700_000)
        let count = 300  // more children than are read one lookup each
        var entries = [Entry(seq: 0, time: time, label: nil, action: nil, content: .keyframe(["history": []]), effect: nil)]
        for seq in 1...count {
            let added = JSONPatch(operations: [.add(path: JSONPointer("/history/\(seq - 1)")!, value: .number(String(seq)))])
            entries.append(Entry(seq: seq, time: time, label: "post", action: ["post": .number(String(seq))], content: .delta(added), effect: nil))
        }
        let header = SessionHeader(
            name: "history", startedAt: time, endedAt: time, status: .closed, libraryVersion: "0.1.0", appVersion: nil,
            stateType: "Ledger", actionType: "LedgerAction", effectType: nil, metadata: [:], entryCount: count + 1, droppedCount: 0, lastEntryAt: time)
        var remaining = entries[...]
        let id = try Journal(path: path, mode: .readWrite).insert(session: header, file: "history.jsonl") { remaining.popFirst() }
        let found = try Journal(path: path).changes(to: JSONPointer("/history")!, in: id, limit: 3)
        #expect(found.map(\.seq) == [count, count - 1, count - 2])
        #expect(found.map(\.touchedPaths) == [[JSONPointer("/history/\(count - 1)")!], [JSONPointer("/history/\(count - 2)")!], [JSONPointer("/history/\(count - 3)")!]])
        let newest = try #require(found.first)
        #expect(newest.newValue == .array((1...count).map { .number(String($0)) }))
        #expect(try Journal(path: path).changes(to: JSONPointer("/history")!, in: id, through: 5).map(\.seq) == [5, 4, 3, 2, 1])
    }

    @Test("action numbers count what a gap lost: the entry after action k, and an action a gap lost said by name")
    func actionNumbers() throws {
        let (journal, id) = try cartJournal()
        #expect(try journal.seq(ofAction: 0, in: id) == 0)
        #expect(try journal.seq(ofAction: 4, in: id) == 4)
        #expect(try journal.seq(ofAction: 8, in: id) == 6)
        let lost = #expect(throws: ActionLogError.self) { try journal.seq(ofAction: 6, in: id) }
        #expect(lost?.description == "cart.actionlog, session \(id): action 6 was dropped: gap at entry 5")
        let beyond = #expect(throws: ActionLogError.self) { try journal.seq(ofAction: 9, in: id) }
        #expect(beyond?.description == "cart.actionlog, session \(id): no action 9: the session has actions 0...8")
        let numbers = try journal.actionNumbers(in: id)
        #expect((0...6).map(numbers.action(ofEntry:)) == [0, 1, 2, 3, 4, 5, 8])
        let negative = #expect(throws: ActionLogError.self) { try journal.seq(ofAction: .min, in: id) }
        #expect(negative?.description == "cart.actionlog, session \(id): no action \(Int.min): the session has actions 0...8")
        // Gaps whose counts a damaged file made huge add up without overflowing.
        let huge = ActionNumbers(gaps: [(seq: 1, dropped: .max), (seq: 2, dropped: .max), (seq: 4, dropped: 3)], entryCount: 6)
        #expect(huge.gapsBefore(3) == (count: 2, dropped: .max))
        #expect(huge.gapsBefore(5) == (count: 1, dropped: 3))
        #expect(huge.gapsBefore(1) == (count: 0, dropped: 0))
        #expect(huge.action(ofEntry: 5) == .max)
    }

    @Test("a recorder keeps the index; a file without it is walked by readers, left unchanged, and indexed by the next writer")
    func indexKeptAndBuilt() throws {
        let path = directory.path("counter.actionlog")
        let recorder = try CounterRecorder(path: path, sessionName: "counter", initialState: Counter(), configuration: configuration(ErrorLog()) { $0.batchSize = 16 })
        let reduce = recorder.recording(reduceCounter)
        var state = Counter()
        for index in 1...300 {
            _ = reduce(&state, index % 50 == 0 ? .rename(to: "n\(index)") : .increment)
        }
        recorder.close()
        let id = recorder.sessionID
        let label = JSONPointer("/label")!
        let expected = [300, 250, 200, 150, 100, 50].map { seq in
            FieldChange(
                seq: seq, action: seq, label: "rename", touchedPaths: [label],
                oldValue: seq == 50 ? nil : .string("n\(seq - 50)"), newValue: .string("n\(seq)"), droppedBefore: 0)
        }
        #expect(try Journal(path: path).changes(to: label, in: id) == expected)
        #expect(try Journal(path: path).changes(to: JSONPointer("/count")!, in: id, limit: 2).map(\.seq) == [299, 298])
        #expect(try Journal(path: path).changes(to: JSONPointer("/count")!, in: id, becoming: 10).map(\.seq) == [10])

        // As an older ActionLog leaves a file: none of the index's tables.
        let connection = try Connection(path: path, mode: .readWrite)
        try connection.execute("DROP TABLE changes; DROP TABLE change_index; DROP TABLE change_paths; DROP INDEX entries_gaps")
        connection.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(try Journal(path: path).changes(to: label, in: id) == expected)
        #expect(try Journal(path: path).changes(to: JSONPointer("/count")!, in: id, becoming: 10).map(\.seq) == [10])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)

        let writer = try Journal(path: path, mode: .readWrite)
        let indexed = try writer.read { connection in
            try connection.scalarInt("SELECT count(*) FROM change_index WHERE session_id = ?1", [.integer(id)])
        }
        #expect(indexed == 1)
        #expect(try writer.changes(to: label, in: id) == expected)
    }
}
