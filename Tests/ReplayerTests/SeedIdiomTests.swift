import ActionLog
import Replayer
import Testing

/// The event ViewModel as the articles this library serves write it: `handle(event:)` is not
/// `async`, and answers later from a `Task {}` that awaits the service. Nothing in it knows about
/// ActionLog.
private actor SeedSignInViewModel {
    nonisolated let output = Output<SignInViewModelEvent>()
    let service: any AuthService

    init(service: any AuthService) {
        self.service = service
    }

    func handle(event: SignInViewEvent) {
        switch event {
        case .viewDidLoad:
            output.send(.showForm(title: "Sign in"))
        case .signInTapped(let email):
            output.send(.showSpinner)
            Task {
                do {
                    let name = try await service.signIn(email: email)
                    output.send(.signedIn(name: name, greeting: "Hello, \(name)"))
                } catch {
                    output.send(.failed(message: "\(error)"))
                }
            }
        }
    }
}

/// A sign-in service that answers a call only when the script releases its email: the answers come
/// in the script's order, whatever the machine does, as a server's answers would come in theirs.
private final class ScriptedAuthService: AuthService {
    private struct State {
        var made = 0
        var released: Set<String> = []
        var waiting: [String: CheckedContinuation<Void, Never>] = [:]
        var madeWaiter: (count: Int, continuation: CheckedContinuation<Void, Never>)?
    }
    private let state = Locked(State())

    func signIn(email: String) async throws -> String {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let (answer, reached): (Bool, CheckedContinuation<Void, Never>?) = state.withLock { state in
                state.made += 1
                var reached: CheckedContinuation<Void, Never>?
                if let waiter = state.madeWaiter, state.made >= waiter.count {
                    reached = waiter.continuation
                    state.madeWaiter = nil
                }
                if state.released.contains(email) { return (true, reached) }
                state.waiting[email] = continuation
                return (false, reached)
            }
            reached?.resume()
            if answer { continuation.resume() }
        }
        return try await FakeAuthService().signIn(email: email)
    }

    /// Returns once `count` calls have been made in all.
    func waitForCalls(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let reached = state.withLock { state in
                if state.made >= count { return true }
                state.madeWaiter = (count, continuation)
                return false
            }
            if reached { continuation.resume() }
        }
    }

    /// Lets the call for `email` answer.
    func release(_ email: String) {
        let waiter = state.withLock { state in
            state.released.insert(email)
            return state.waiting.removeValue(forKey: email)
        }
        waiter?.resume()
    }
}

/// Counts the answers the view has been sent, and lets the script wait for the next.
private final class AnswerCounter: Sendable {
    private let state = Locked<(count: Int, waiter: (Int, CheckedContinuation<Void, Never>)?)>((0, nil))

    func saw(_ event: SignInViewModelEvent) {
        switch event {
        case .signedIn, .failed: break
        default: return
        }
        let waiter: CheckedContinuation<Void, Never>? = state.withLock { state in
            state.count += 1
            guard let waiter = state.waiter, state.count >= waiter.0 else { return nil }
            state.waiter = nil
            return waiter.1
        }
        waiter?.resume()
    }

    func wait(for count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let reached = state.withLock { state in
                if state.count >= count { return true }
                state.waiter = (count, continuation)
                return false
            }
            if reached { continuation.resume() }
        }
    }
}

/// Batches of events sent at once: handlers overlap, and the service answers each batch in reverse.
private let script: [[SignInViewEvent]] = (0..<12).map { batch in
    [.viewDidLoad] + (0..<3).map { index in .signInTapped(email: index == 1 && batch % 4 == 0 ? "nobody-\(batch)" : "user\(batch)-\(index)@example.org") }
}

@Suite("The seed idiom: an event ViewModel answering from a Task {} it starts, recorded as written")
struct SeedIdiomTests {
    let directory = TemporaryDirectory()

    /// Records the script once; returns the session.
    private func record(_ name: String) async throws -> RecordedSession {
        let service = ScriptedAuthService()
        let viewModel = SeedSignInViewModel(service: RecordedAuthService(live: service))
        let path = directory.path("\(name).actionlog")
        let events = try await EventViewModelRecorder<SignInViewEvent, SignInViewModelEvent>(
            path: path, sessionName: name, services: ["AuthService"], handle: { await viewModel.handle(event: $0) })
        let answers = AnswerCounter()
        viewModel.output.addHandler { events.emitted($0) }
        viewModel.output.addHandler { answers.saw($0) }
        var calls = 0
        for batch in script {
            for event in batch { events.send(event) }
            let emails = batch.compactMap { if case .signInTapped(let email) = $0 { email } else { nil } }
            calls += emails.count
            await service.waitForCalls(calls)
            for (answered, email) in emails.reversed().enumerated() {
                service.release(email)
                await answers.wait(for: calls - emails.count + answered + 1)
            }
            await events.settle()
        }
        events.close()
        return try Journal(path: path).recordedSession(events.recorder.sessionID)
    }

    /// What must be the same in two recordings of the script: everything but times and durations.
    private func content(_ recording: RecordedSession) -> String {
        let entries = recording.entries.map { "\($0.seq) \($0.label ?? "-") \($0.action?.canonicalText ?? "") \($0.content)" }
        return (entries + recording.handlers.map { "\($0)" }).joined(separator: "\n")
    }

    @Test("every call and output event of the Task {} is journaled under the event that started it", .timeLimit(.minutes(2)))
    func everythingIsJournaled() async throws {
        let recording = try await record("seed")
        #expect(recording.entries.count == 1 + script.joined().count)
        let calls = recording.handlers.flatMap(\.calls)
        #expect(calls.count == script.joined().count { if case .signInTapped = $0 { true } else { false } })
        for (entry, handler) in zip(recording.entries.dropFirst(), recording.handlers) {
            let action = try #require(entry.action).decode(SignInViewEvent.self)
            switch action {
            case .viewDidLoad:
                #expect(handler.calls.isEmpty)
                #expect(handler.outputs.map(\.label) == ["showForm"])
            case .signInTapped(let email):
                #expect(handler.calls.map(\.description) == ["AuthService.signIn(\(JSONValue.string(email).canonicalText))"])
                #expect(handler.outputs.map(\.label) == ["showSpinner", email.contains("@") ? "signedIn" : "failed"])
            }
        }
    }

    @Test("twenty recordings of the script journal the same, and a hundred replays match", .timeLimit(.minutes(5)))
    func recordingsAgreeAndReplaysMatch() async throws {
        var journals: Set<String> = []
        var last: RecordedSession?
        for run in 0..<20 {
            let recording = try await record("run-\(run)")
            journals.insert(content(recording))
            last = recording
        }
        #expect(journals.count == 1)
        let recording = try #require(last)
        var reports: Set<String> = []
        for _ in 0..<100 {
            let report = await EventViewModelReplay<SignInViewEvent, SignInViewModelEvent>(
                recording: recording, services: ["AuthService"]
            ) { emit in
                let viewModel = SeedSignInViewModel(service: RecordedAuthService(live: OfflineAuthService()))
                viewModel.output.addHandler(emit)
                return { await viewModel.handle(event: $0) }
            }.run()
            reports.insert(report.description)
        }
        #expect(reports == [#"Replayed 48 of 48 actions of session 1 "run-19" of run-19.actionlog: no divergence."#])
    }
}
