import ActionLog
import Foundation
import Replayer
import XCTest

/// The async golden assertion under XCTest: a wrong handler fails an XCTest test with the same
/// message as under Swift Testing.
final class AsyncGoldenXCTests: FailureCapturingTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("AsyncGoldenXCTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Records a session of the counter: `load(2)`, then `load(3)` once the first has returned. Two
    /// loads sent together would be a race of the live service's answers, which the journal records
    /// as it happened: entry 1 could be either, and the pinned message below names `load(2)`.
    private func recordGolden() async throws -> String {
        let path = directory.appendingPathComponent("counter.actionlog").path
        let state = await CounterState()
        let viewModel = CounterViewModel(state: state, service: RecordedNumbers(live: Numbers()), step: 1)
        let reducer = try await ViewModelRecorder<Int, CounterAction>(
            path: path, sessionName: "counter", services: ["Numbers"],
            handle: { await viewModel.handle($0) }, snapshot: { state.count })
        reducer(.load(2))
        await reducer.settle()
        reducer(.load(3))
        await reducer.settle()
        reducer.close()
        return path
    }

    private static func viewModel(step: Int) -> @MainActor @Sendable (Int) -> ReplayedViewModel<Int, CounterAction> {
        { initial in
            let state = CounterState(initial)
            let viewModel = CounterViewModel(state: state, service: RecordedNumbers(live: Offline()), step: step)
            return ReplayedViewModel(handle: { await viewModel.handle($0) }, snapshot: { state.count })
        }
    }

    func testGoldenReplays() async throws {
        let path = try await recordGolden()
        await assertReplay(golden: path, of: .viewModel(services: ["Numbers"], Self.viewModel(step: 1)))
    }

    func testWrongHandlerFailsWithTheWholeMessage() async throws {
        let path = try await recordGolden()
        let failures = await failures {
            await assertReplay(golden: path, of: .viewModel(services: ["Numbers"], Self.viewModel(step: 2)))
        }
        XCTAssertEqual(failures, [
            """
            failed - Replay diverged at entry 1 of session 1 "counter" of counter.actionlog (load(2)).

              State:
                − 4
                + 8

            (Recorded: −, Replayed: +)

            If the new behaviour is intended, record the session again and replace the golden.
            """,
        ])
    }
}

// MARK: - A tiny actor ViewModel with one service

protocol NumberService: Sendable {
    func double(_ value: Int) async throws -> Int
}

struct Numbers: NumberService {
    func double(_ value: Int) async throws -> Int { value * 2 }
}

struct Offline: NumberService {
    struct Unreachable: Error {}
    func double(_ value: Int) async throws -> Int { throw Unreachable() }
}

struct RecordedNumbers: NumberService {
    let live: any NumberService
    let recorded = RecordedService("Numbers")
    func double(_ value: Int) async throws -> Int {
        try await recorded.call("double", value) { try await live.double(value) }
    }
}

enum CounterAction: Codable, Equatable, Sendable {
    case load(Int)
}

@MainActor final class CounterState {
    var count: Int
    init(_ count: Int = 0) { self.count = count }
}

actor CounterViewModel {
    let state: CounterState
    let service: any NumberService
    let step: Int

    init(state: CounterState, service: any NumberService, step: Int) {
        self.state = state
        self.service = service
        self.step = step
    }

    func handle(_ action: CounterAction) async {
        switch action {
        case .load(let value):
            guard let doubled = try? await service.double(value) else { return }
            let step = self.step
            await MainActor.run { state.count += doubled * step }
        }
    }
}
