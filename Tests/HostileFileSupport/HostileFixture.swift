import ActionLog
import Foundation

/// A fresh directory per test, removed when the value goes away.
///
/// In `/dev/shm` when the machine has one: the readers create a journal or two per mutant, and on a
/// disk the `fsync`s of creating them cost ten times the reading (40 s instead of 6 s for the
/// default run on the shared build machine).
package final class TemporaryDirectory: Sendable {
    package let url: URL

    package static let base: URL = {
        var isDirectory: ObjCBool = false
        let memory = "/dev/shm"
        if FileManager.default.fileExists(atPath: memory, isDirectory: &isDirectory), isDirectory.boolValue,
            FileManager.default.isWritableFile(atPath: memory)
        {
            return URL(fileURLWithPath: memory, isDirectory: true)
        }
        return FileManager.default.temporaryDirectory
    }()

    package init() throws {
        url = Self.base.appendingPathComponent("HostileFiles-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    package func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

/// SplitMix64, as in `Tests/ActionLogTests/Encoding/EncodingModels.swift`: every seed replays the
/// same sequence, so a mutant is reproduced from its seed alone.
package struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

// MARK: - A small feature to record

package struct Basket: Codable, Equatable, Sendable {
    package struct Item: Codable, Equatable, Sendable {
        package var id: Int
        package var name: String
        package var quantity: Int

        package init(id: Int, name: String, quantity: Int) {
            self.id = id
            self.name = name
            self.quantity = quantity
        }
    }
    package var items: [Item] = []
    package var note = ""

    package init(items: [Item] = [], note: String = "") {
        self.items = items
        self.note = note
    }
}

package enum BasketAction: Codable, Equatable, Sendable {
    case add(name: String)
    case setQuantity(index: Int, quantity: Int)
    case remove(index: Int)
    case note(String)
}

package func reduceBasket(_ basket: inout Basket, _ action: BasketAction) {
    switch action {
    case .add(let name):
        basket.items.append(Basket.Item(id: basket.items.count, name: name, quantity: 1))
    case .setQuantity(let index, let quantity):
        if basket.items.indices.contains(index) { basket.items[index].quantity = quantity }
    case .remove(let index):
        if basket.items.indices.contains(index) { basket.items.remove(at: index) }
    case .note(let text):
        basket.note = text
    }
}

// MARK: - The journals every mutant starts from

/// A journal of two sessions and the text form of the second, as bytes.
///
/// Session 1 is what the `Recorder` wrote: a keyframe, then deltas, with a keyframe every four
/// deltas. Session 2 is session 1 with entry 6 turned into a gap that lost two actions and entry 7
/// into the keyframe a recorder writes after a gap, inserted with `Journal.insert`; it also holds
/// handler records (``handlers``), so that the `handlers` and `calls` tables, and the `handler`
/// member of the text form's lines, have rows to damage.
package struct HostileFixture: Sendable {
    package static let actions: [BasketAction] = [
        .add(name: "apple"), .add(name: "pear"), .setQuantity(index: 0, quantity: 3), .note("for the weekend"),
        .add(name: "plum"), .remove(index: 1), .setQuantity(index: 1, quantity: 2), .add(name: "fig"),
        .note("done"), .setQuantity(index: 2, quantity: 5), .remove(index: 0), .add(name: "kiwi"),
    ]
    /// The entry session 2 lost, and how many actions it lost there.
    package static let gapSeq = 6
    package static let gapDropped = 2

    /// The journal's bytes (SQLite, checkpointed, no WAL left).
    package let journal: [UInt8]
    /// Session 2's text form.
    package let jsonl: [UInt8]
    /// Session 1's states, entry 0 first.
    package let states: [Basket]

    /// Records the sessions in `directory`.
    package init(in directory: TemporaryDirectory) throws {
        let path = directory.path("base.actionlog")
        var basket = Basket()
        var configuration = RecorderConfiguration()
        configuration.keyframes = KeyframePolicy(deltaBudget: 100, maximumDeltaRun: 4)
        configuration.onError = { error in print("recording the fixture:", error) }
        let recorder = try Recorder<Basket, BasketAction, Never>(path: path, sessionName: "basket", initialState: basket, configuration: configuration)
        var states = [basket]
        let reduce = recorder.recording(reduceBasket)
        for action in Self.actions {
            reduce(&basket, action)
            states.append(basket)
        }
        recorder.close()

        let second = try Self.insertGappedCopy(of: recorder.sessionID, path: path)
        // Opened again once the writer is gone, so the file holds everything (no WAL left behind).
        let text = directory.path("base.jsonl")
        _ = FileManager.default.createFile(atPath: text, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: text))
        try Journal(path: path).exportJSONL(second, to: handle)
        try handle.close()

        // Everything into the main file, so that its bytes alone are the journal.
        try SQLEdit.checkpoint(path)
        journal = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        jsonl = Array(try Data(contentsOf: URL(fileURLWithPath: text)))
        self.states = states
    }

    /// What session 2's handlers did, for every entry with an action: a service call that returned,
    /// one that threw, and an output event, with the order they started in reversed in pairs.
    package static var handlers: [HandlerRecord] {
        (1...actions.count).filter { $0 != gapSeq }.map { seq in
            var records: [HandlerRecord.Record] = [
                .call(ServiceCall(service: "Prices", method: "quote", arguments: [.string("item \(seq)"), .number(String(seq))], outcome: .returned(["cents": .number(String(seq * 100))]), answered: 0))
            ]
            if seq % 3 == 0 {
                records.append(.call(ServiceCall(service: "Stock", method: "reserve", arguments: [], outcome: .threw(["type": "OutOfStock", "message": "none left"]), answered: 1)))
            }
            records.append(.output(OutputEvent(label: "toast", event: ["text": .string("updated \(seq)")])))
            return HandlerRecord(seq: seq, started: seq % 2 == 0 ? seq - 1 : seq + 1, records: records)
        }
    }

    /// Inserts session `id` again, with a gap at ``gapSeq``, a keyframe after it and ``handlers``;
    /// returns the new id.
    private static func insertGappedCopy(of id: JournalSession.ID, path: String) throws -> JournalSession.ID {
        let writer = try Journal(path: path, mode: .readWrite)
        var recorded = try writer.recordedSession(id)
        let lost = recorded.entries[gapSeq]
        recorded.entries[gapSeq] = Entry(seq: gapSeq, time: lost.time, label: nil, action: nil,
            content: .gap(dropped: gapDropped, note: "the writer fell behind"), effect: nil)
        recorded.entries[gapSeq + 1] = recorded.entries[gapSeq + 1].replacing(content: .keyframe(try writer.state(at: gapSeq + 1, in: id)))
        recorded.handlers = handlers
        recorded.session.name = "basket with a gap"
        recorded.session.storedUUID = UUID()  // another session, made from the first
        recorded.session.droppedCount = gapDropped
        return try writer.insert(recorded)
    }
}
