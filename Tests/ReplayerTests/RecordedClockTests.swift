import ActionLog
import Foundation
import Replayer
import Testing

// MARK: - A search screen that debounces, refreshes later and cancels a sleep

struct SearchSnapshot: Codable, Equatable, Sendable {
    var query = ""
    var searched: [String] = []
    var refreshes = 0
    /// How late the refresh woke up after its deadline, by the clock's `now`: virtual in a handler.
    var lateBy = ""
    var cancelledSleeps = 0
    var pauses = 0
}

@MainActor final class SearchState {
    private(set) var snapshot: SearchSnapshot
    init(_ snapshot: SearchSnapshot = SearchSnapshot()) { self.snapshot = snapshot }
    func update(_ body: (inout SearchSnapshot) -> Void) { body(&snapshot) }
}

enum SearchAction: Codable, Equatable, Sendable {
    case queryChanged(String)
    case refreshLater
    case refreshCancelled
    case pause
}

extension Clock where Duration == Swift.Duration {
    /// Sleeps until `duration` after now, by `now.advanced(by:)` and `sleep(until:)`; returns how
    /// late it woke up by `now`.
    func sleepLate(until duration: Duration) async throws -> Duration {
        let deadline = now.advanced(by: duration)
        try await sleep(until: deadline, tolerance: nil)
        return deadline.duration(to: now)
    }
}

actor SearchViewModel {
    let state: SearchState
    let clock: any Clock<Duration>
    private var generation = 0

    init(state: SearchState, clock: any Clock<Duration>) {
        self.state = state
        self.clock = clock
    }

    func handle(_ action: SearchAction) async {
        switch action {
        case .queryChanged(let query):
            // Debounce: only a query that 300 ms have passed on without another one is searched.
            generation += 1
            let mine = generation
            await state.update { $0.query = query }
            do { try await clock.sleep(for: .milliseconds(300)) } catch { return }
            guard mine == generation else { return }
            await state.update { $0.searched.append(query) }
        case .refreshLater:
            let late: Duration
            do { late = try await clock.sleepLate(until: .seconds(5)) } catch { return }
            await state.update {
                $0.refreshes += 1
                $0.lateBy = "\(late)"
            }
        case .refreshCancelled:
            let task = HandlerTask.start { [clock, state] in
                do {
                    try await clock.sleep(for: .seconds(5))
                } catch is CancellationError {
                    await state.update { $0.cancelledSleeps += 1 }
                } catch {}
            }
            task.cancel()
        case .pause:
            // A ViewModel that calls Task.sleep directly names the clock, and nothing else changes.
            guard (try? await Task.sleep(for: .milliseconds(20), clock: .recorded)) != nil else { return }
            await state.update { $0.pauses += 1 }
        }
    }
}

/// A clock whose sleeps never end: a replay that slept on it would never finish.
struct NeverClock: Clock {
    final class Count: Sendable {
        let value = Locked(0)
    }
    typealias Duration = Swift.Duration
    let sleeps = Count()
    var now: ContinuousClock.Instant { ContinuousClock.now }
    var minimumResolution: Duration { .nanoseconds(1) }

    func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
        sleeps.value.withLock { $0 += 1 }
        await Gate().wait()
    }
}

@Suite("RecordedClock: sleeps are journaled, and a replay never sleeps")
struct RecordedClockTests {
    let directory = TemporaryDirectory()

    /// The script: three queries typed at once (two debounced away), a refresh in 5 s, a cancelled
    /// sleep, a pause with `Task.sleep`. Recorded on the ContinuousClock, with no services listed.
    private func record() async throws -> RecordedSession {
        let path = directory.path("search.actionlog")
        let state = await SearchState()
        let viewModel = SearchViewModel(state: state, clock: RecordedClock())
        let reducer = try await ViewModelRecorder<SearchSnapshot, SearchAction>(
            path: path, sessionName: "search", handle: { await viewModel.handle($0) }, snapshot: { state.snapshot })
        for batch: [SearchAction] in [[.queryChanged("l"), .queryChanged("la"), .queryChanged("lamp")], [.refreshLater], [.refreshCancelled], [.pause]] {
            await MainActor.run { for action in batch { reducer(action) } }
            await reducer.settle()
        }
        reducer.close()
        return try Journal(path: path).recordedSession(reducer.recorder.sessionID)
    }

    private static func replay(_ recorded: RecordedSession, clock: RecordedClock) -> ViewModelReplay<SearchSnapshot, SearchAction> {
        ViewModelReplay(recording: recorded) { initial in
            let state = SearchState(initial)
            let viewModel = SearchViewModel(state: state, clock: clock)
            return ReplayedViewModel(handle: { await viewModel.handle($0) }, snapshot: { state.snapshot })
        }
    }

    @Test("sleeps in recorded handlers are journaled as RecordedClock.sleep calls with the duration slept; a replay on a clock that never wakes matches")
    func recordsAndReplays() async throws {
        let recorded = try await record()
        let calls = Dictionary(grouping: recorded.handlers) { handler in
            recorded.entries[handler.seq].action?.canonicalText ?? "?"
        }.mapValues { $0.flatMap(\.calls).map { "\($0.description) \(Self.answer($0.outcome))" } }
        #expect(calls == [
            #"{"queryChanged":{"_0":"l"}}"#: [#"RecordedClock.sleep("0.3 s") returned null"#],
            #"{"queryChanged":{"_0":"la"}}"#: [#"RecordedClock.sleep("0.3 s") returned null"#],
            #"{"queryChanged":{"_0":"lamp"}}"#: [#"RecordedClock.sleep("0.3 s") returned null"#],
            #"{"refreshLater":{}}"#: [#"RecordedClock.sleep("5 s") returned null"#],
            #"{"refreshCancelled":{}}"#: [#"RecordedClock.sleep("5 s") threw Swift.CancellationError"#],
            #"{"pause":{}}"#: [#"RecordedClock.sleep("0.02 s") returned null"#],
        ])
        #expect(try recorded.state(at: recorded.entries.count - 1) == [
            "query": "lamp", "searched": ["lamp"], "refreshes": 1, "lateBy": "0.0 seconds", "cancelledSleeps": 1, "pauses": 1,
        ])
        // The clock is not among the session's services, and needs not be given to the replay.
        #expect(recorded.session.metadata.canonicalText.contains(#""actionlog.services":[]"#))

        let never = NeverClock()
        let report = await Self.replay(recorded, clock: RecordedClock(wrapping: never)).run()
        #expect(report.description == #"Replayed 6 of 6 actions of session 1 "search" of search.actionlog: no divergence."#)
        #expect(never.sleeps.value.withLock { $0 } == 0)
    }

    private static func answer(_ outcome: ServiceCall.Outcome) -> String {
        switch outcome {
        case .returned(let json): "returned \(json.canonicalText)"
        case .threw(let json):
            if case .object(let members) = json, case .string(let type)? = members["type"] { "threw \(type)" } else { "threw ?" }
        }
    }

    @Test("a handler that sleeps another duration than recorded is a service-call divergence")
    func otherDuration() async throws {
        let recorded = try await record()
        var changed = recorded
        for index in changed.handlers.indices {
            changed.handlers[index].records = changed.handlers[index].records.map { record in
                guard case .call(var call) = record, call.arguments == ["5 s"] else { return record }
                call.arguments = ["4 s"]
                return .call(call)
            }
        }
        let report = await Self.replay(changed, clock: RecordedClock(wrapping: NeverClock())).run()
        #expect(report.divergence?.serviceCall?.recorded == #"RecordedClock.sleep("4 s")"#)
        #expect(report.divergence?.serviceCall?.made == #"RecordedClock.sleep("5 s")"#)
    }

    @Test("the journaled duration is exact decimal seconds")
    func journaledDurations() {
        #expect(RecordedClock.journaled(.milliseconds(300)) == "0.3 s")
        #expect(RecordedClock.journaled(.seconds(5)) == "5 s")
        #expect(RecordedClock.journaled(.zero) == "0 s")
        #expect(RecordedClock.journaled(.nanoseconds(-1)) == "-0.000000001 s")
        #expect(RecordedClock.journaled(.seconds(90) + .microseconds(5)) == "90.000005 s")
    }

    @Test("outside a handler it is the wrapped clock: now moves and a sleep sleeps")
    func outsideHandlers() async throws {
        let clock = RecordedClock()
        let start = clock.now
        try await clock.sleep(for: .milliseconds(5))
        #expect(clock.now >= start.advanced(by: .milliseconds(5)))
        #expect(clock.minimumResolution == ContinuousClock().minimumResolution)
    }
}
