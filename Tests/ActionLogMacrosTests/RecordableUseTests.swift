import ActionLogMacros
import Foundation
import Replayer
import Testing

struct Book: Codable, Equatable, Sendable {
    var title: String
    var pages: Int
}

enum ShelfError: Error, Codable, Equatable {
    case notFound(String)
}

/// A service protocol as an app writes it, with the one line that records it.
@Recordable(errors: [ShelfError.self])
protocol Shelf: Sendable {
    func book(titled title: String) async throws -> Book
    func lend(_ title: String, to reader: String) async throws
}

struct LiveShelf: Shelf {
    func book(titled title: String) async throws -> Book {
        guard title != "Missing" else { throw ShelfError.notFound(title) }
        return Book(title: title, pages: title.count * 10)
    }
    func lend(_ title: String, to reader: String) async throws {}
}

/// What replay gets: a shelf that must never be reached.
struct UnreachableShelf: Shelf {
    func book(titled title: String) async throws -> Book { Issue.record("the live shelf was called on replay"); throw ShelfError.notFound(title) }
    func lend(_ title: String, to reader: String) async throws { Issue.record("the live shelf was called on replay") }
}

enum ShelfAction: Codable, Equatable, Sendable {
    case open(String)
    case lend(String)
}

@MainActor final class ShelfState {
    var lines: [String] = []
    init(_ lines: [String] = []) { self.lines = lines }
}

actor ShelfViewModel {
    let state: ShelfState
    let shelf: any Shelf
    let reader: String

    init(state: ShelfState, shelf: any Shelf, reader: String = "ada") {
        self.state = state
        self.shelf = shelf
        self.reader = reader
    }

    func handle(_ action: ShelfAction) async {
        let line: String
        switch action {
        case .open(let title):
            do {
                let book = try await shelf.book(titled: title)
                line = "\(book.title): \(book.pages) pages"
            } catch ShelfError.notFound(let missing) {
                line = "no \(missing)"
            } catch {
                line = "error"
            }
        case .lend(let title):
            line = (try? await shelf.lend(title, to: reader)) == nil ? "not lent" : "lent \(title)"
        }
        await MainActor.run { state.lines.append(line) }
    }
}

@Suite("@Recordable: a wrapper the macro wrote records and replays as a hand-written one")
struct RecordableUseTests {
    private func record(at path: String) async throws -> RecordedSession {
        let state = await ShelfState()
        let viewModel = ShelfViewModel(state: state, shelf: RecordedShelf(live: LiveShelf()))
        let reducer = try await ViewModelRecorder<[String], ShelfAction>(
            path: path, sessionName: "shelf", services: ["Shelf"], handle: { await viewModel.handle($0) }, snapshot: { state.lines })
        for action in [ShelfAction.open("Dune"), .open("Missing"), .lend("Dune")] {
            reducer(action)
            await reducer.settle()
        }
        reducer.close()
        return try Journal(path: path).recordedSession(reducer.recorder.sessionID)
    }

    private func replay(_ recording: RecordedSession, reader: String) async -> ReplayReport {
        await ViewModelReplay<[String], ShelfAction>(recording: recording, services: ["Shelf"]) { initial in
            let state = ShelfState(initial)
            let viewModel = ShelfViewModel(state: state, shelf: RecordedShelf(live: UnreachableShelf()), reader: reader)
            return ReplayedViewModel(handle: { await viewModel.handle($0) }, snapshot: { state.lines })
        }.run()
    }

    @Test("calls are journaled with their answers and errors, replay answers them without the live shelf, and a changed argument diverges naming the call")
    func recordAndReplay() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("RecordableUseTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let recording = try await record(at: directory.appendingPathComponent("shelf.actionlog").path)
        #expect(recording.handlers.flatMap(\.calls).map(\.description) == [
            #"Shelf.book("Dune")"#, #"Shelf.book("Missing")"#, #"Shelf.lend("Dune", "ada")"#,
        ])
        #expect(recording.handlers[1].calls.first?.outcome == .threw(["type": "ActionLogMacrosTests.ShelfError", "value": ["notFound": ["_0": "Missing"]]]))

        let same = await replay(recording, reader: "ada")
        #expect(same.description == #"Replayed 3 of 3 actions of session 1 "shelf" of shelf.actionlog: no divergence."#)
        let changed = await replay(recording, reader: "grace")
        #expect(changed.divergence?.seq == 3)
        #expect(changed.divergence?.serviceCall?.index == 0)
        #expect(changed.divergence?.serviceCall?.recorded == #"Shelf.lend("Dune", "ada")"#)
        #expect(changed.divergence?.serviceCall?.made == #"Shelf.lend("Dune", "grace")"#)
    }
}
