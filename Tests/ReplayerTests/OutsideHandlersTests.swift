import Foundation
import ActionLog
import Replayer
import Testing

/// An event ViewModel that shows its form when it is bound, before the view sends anything, and a
/// toast from a timer-like callback that no handler started.
private final class BoundSignInViewModel: Sendable {
    let output = Output<SignInViewModelEvent>()
    let service: any AuthService

    init(service: any AuthService) {
        self.service = service
    }

    /// What `bind(with:)` calls: the form is shown at once.
    func start(title: String = "Sign in") {
        output.send(.showForm(title: title))
    }

    func handle(event: SignInViewEvent) async {
        guard case .signInTapped(let email) = event else { return }
        do {
            let name = try await service.signIn(email: email)
            output.send(.signedIn(name: name, greeting: "Hello, \(name)"))
        } catch {
            output.send(.failed(message: "\(error)"))
        }
    }
}

/// What the recorder reported through `onError`.
private final class Reports: Sendable {
    private let lines = Locked<[String]>([])
    func add(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

@Suite("Event ViewModels: output events sent outside any handler")
struct OutsideHandlersTests {
    let directory = TemporaryDirectory()

    /// Records the bound ViewModel, one sign-in, two toasts from outside any handler and, when
    /// `thenSignInAgain`, a second sign-in, whose entry is the next written after them.
    private func record(reports: Reports, thenSignInAgain: Bool = false) async throws -> RecordedSession {
        let path = directory.path("bound.actionlog")
        let viewModel = BoundSignInViewModel(service: RecordedAuthService(live: FakeAuthService()))
        var configuration = RecorderConfiguration()
        configuration.onError = { error in reports.add("\(error)") }
        let events = try await EventViewModelRecorder<SignInViewEvent, SignInViewModelEvent>(
            path: path, sessionName: "bound", services: ["AuthService"], configuration: configuration,
            handle: { await viewModel.handle(event: $0) })
        viewModel.output.addHandler { events.emitted($0) }
        viewModel.start()
        events.send(.signInTapped(email: "ada@example.com"))
        await events.settle()
        // A callback no handler started (a timer, a delegate): twice.
        await Task.detached { viewModel.output.send(.showSpinner) }.value
        await Task.detached { viewModel.output.send(.showSpinner) }.value
        #expect(events.outsideHandlers == 2)
        if thenSignInAgain {
            events.send(.signInTapped(email: "grace@example.com"))
            await events.settle()
        }
        events.close()
        return try Journal(path: path).recordedSession(events.recorder.sessionID)
    }

    private func replay(_ recording: RecordedSession, title: String) async -> ReplayReport {
        await EventViewModelReplay<SignInViewEvent, SignInViewModelEvent>(recording: recording, services: ["AuthService"]) { emit in
            let viewModel = BoundSignInViewModel(service: RecordedAuthService(live: OfflineAuthService()))
            viewModel.output.addHandler(emit)
            viewModel.start(title: title)
            return { await viewModel.handle(event: $0) }
        }.run()
    }

    @Test("events sent while the ViewModel is bound, before the first event, are entry 0's; they replay, and a change to them diverges at entry 0")
    func initialOutputs() async throws {
        let reports = Reports()
        let recording = try await record(reports: reports)
        #expect(recording.handlers.map(\.seq) == [0, 1])
        #expect(recording.handlers[0].outputs == [OutputEvent(label: "showForm", event: ["showForm": ["title": "Sign in"]])])
        #expect(recording.handlers[1].outputs.map(\.label) == ["signedIn"])
        #expect(await replay(recording, title: "Sign in").description == #"Replayed 1 of 1 actions of session 1 "bound" of bound.actionlog: no divergence."#)
        let changed = await replay(recording, title: "Log in")
        #expect(changed.divergence?.seq == 0)
        #expect(changed.divergence?.output?.differences == [FieldDifference(path: [.key("showForm"), .key("title")], recorded: "Sign in", replayed: "Log in")])
    }

    @Test("an event sent outside any handler after the first event is not journaled: the recorder says so once, and the next entry counts it for verify and log")
    func untrackedOutputs() async throws {
        let reports = Reports()
        let recording = try await record(reports: reports, thenSignInAgain: true)
        #expect(recording.handlers.flatMap(\.outputs).map(\.label) == ["showForm", "signedIn", "signedIn"])
        #expect(reports.all == [
            """
            bound.actionlog, session 1: the output event showSpinner was emitted outside any handler's work (a timer, \
            Task.detached, a GCD or delegate callback), so no action can be said to have caused it: it is not journaled, \
            and neither are the ones after it that come the same way (counted in outsideHandlers, and in the journal with \
            the next entry written, for verify and log to name)
            """,
        ])
        #expect(recording.handlers.map(\.untrackedOutputs) == [0, 0, 2])
        let note = """
            2 output events were emitted outside any handler's work (a timer, Task.detached, a GCD or delegate callback) \
            before it was written, and not journaled
            """
        let verification = try Journal(path: directory.path("bound.actionlog")).verify()
        #expect(verification.isValid)
        #expect(verification.notes.map(\.description) == ["session 1, entry 2: " + note])

        // The count goes with the session into its text form, whose verify names it too.
        let text = recording.jsonl()
        #expect(text.contains(#""started":2,"untrackedOutputs":2}"#))
        let file = URL(fileURLWithPath: directory.path("bound.jsonl"))
        try text.write(to: file, atomically: true, encoding: .utf8)
        #expect(try RecordedSession.verifyJSONL(at: file).notes.map(\.description) == ["entry 2: " + note])
        #expect(await replay(try RecordedSession(jsonl: text, file: "bound.jsonl"), title: "Sign in").isMatch)
    }
}
