import ActionLog
import Foundation
import Replayer
import Testing

@Suite("Event ViewModel: both streams journaled, output stream replayed and compared")
struct EventViewModelReplayTests {
    let directory = TemporaryDirectory()

    private func record(_ script: [SignInViewEvent] = [.viewDidLoad, .signInTapped(email: "ada@example.com")]) async throws -> RecordedSession {
        let path = directory.path("sign-in.actionlog")
        let id = try await recordSignInSession(path: path, script: script)
        return try Journal(path: path).recordedSession(id)
    }

    @Test("each ViewEvent is an entry; the events emitted at once and after the service's answer are journaled under it")
    func recordsBothStreams() async throws {
        let recorded = try await record()
        #expect(recorded.entries.map { $0.label ?? "-" } == ["-", "viewDidLoad", "signInTapped"])
        #expect(recorded.handlers.map { $0.outputs.map(\.label) } == [["showForm"], ["showSpinner", "signedIn"]])
        #expect(recorded.handlers[1].records == [
            .output(OutputEvent(label: "showSpinner", event: ["showSpinner": [:]])),
            .call(ServiceCall(service: "AuthService", method: "signIn", arguments: ["ada@example.com"], outcome: .returned("Ada"), answered: 2)),
            .output(OutputEvent(label: "signedIn", event: ["signedIn": ["greeting": "Hello, Ada", "name": "Ada"]])),
        ])
        #expect(SessionMetadata.architecture(of: recorded) == "eventViewModel")
    }

    @Test("a replay feeds the recorded ViewEvents and matches the output stream, the same 100 times in a row")
    func replayMatches() async throws {
        let recorded = try await record()
        var reports: Set<String> = []
        for _ in 0..<100 {
            reports.insert(await signInReplay(recorded).run().description)
        }
        #expect(reports == [#"Replayed 2 of 2 actions of session 1 "sign in" of sign-in.actionlog: no divergence."#])
    }

    @Test("a changed output event names the ViewEvent's entry, the event's index and its differing fields")
    func outputDivergence() async throws {
        let report = await signInReplay(try await record(), lowercase: true).run()
        #expect(report.description == """
            Replay diverged at entry 2 of session 1 "sign in" of sign-in.actionlog (signInTapped(email: "ada@example.com")).

              Output event 1:
                  SignInViewModelEvent.signedIn(
                    name: "Ada",
                −   greeting: "Hello, Ada"
                +   greeting: "hello, Ada"
                  )

            (Recorded: −, Replayed: +)
            """)
        #expect(report.divergence?.output?.differences == [FieldDifference(path: [.key("signedIn"), .key("greeting")], recorded: "Hello, Ada", replayed: "hello, Ada")])
    }

    @Test("a missing and an extra output event are divergences at their index")
    func missingAndExtraOutputs() async throws {
        let recorded = try await record()
        let missing = await signInReplay(recorded, formsShown: 0).run()
        #expect(missing.description == """
            Replay diverged at entry 1 of session 1 "sign in" of sign-in.actionlog (viewDidLoad).

              Output event 0:
                − .showForm(title: "Sign in")
                + nil

            (Recorded: −, Replayed: +)
            """)
        let extra = await signInReplay(recorded, formsShown: 2).run()
        #expect(extra.description == """
            Replay diverged at entry 1 of session 1 "sign in" of sign-in.actionlog (viewDidLoad).

              Output event 1:
                − nil
                + .showForm(title: "Sign in")

            (Recorded: −, Replayed: +)
            """)
    }

    @Test("a handler that answers from a HandlerTask journals the task's calls and events under its entry, and replays")
    func handlerTask() async throws {
        let path = directory.path("task.actionlog")
        let viewModel = TaskSignInViewModel(service: RecordedAuthService(live: FakeAuthService()))
        let events = try await EventViewModelRecorder<SignInViewEvent, SignInViewModelEvent>(
            path: path, sessionName: "sign in", services: ["AuthService"], handle: { viewModel.handle(event: $0) })
        viewModel.output.addHandler { events.emitted($0) }
        events.send(.viewDidLoad)
        events.send(.signInTapped(email: "ada@example.com"))
        await events.settle()
        events.close()
        let recorded = try Journal(path: path).recordedSession(1)
        #expect(recorded.handlers == (try await record()).handlers)
        let report = await EventViewModelReplay<SignInViewEvent, SignInViewModelEvent>(recording: recorded, services: ["AuthService"]) { emit in
            let viewModel = TaskSignInViewModel(service: RecordedAuthService(live: OfflineAuthService()))
            viewModel.output.addHandler(emit)
            return { viewModel.handle(event: $0) }
        }.run()
        #expect(report.isMatch, "\(report)")
    }

    @Test("a recorded service error replays as the failure event")
    func errorPath() async throws {
        let recorded = try await record([.signInTapped(email: "nobody")])
        #expect(recorded.handlers[0].calls.map(\.outcome) == [.threw([
            "type": "ReplayerTests.FakeAuthService.Refused", "description": "refused",
            "localizedDescription": "The operation could not be completed. (ReplayerTests.FakeAuthService.Refused error 1.)",
        ])])
        #expect(recorded.handlers[0].outputs.last?.event == ["failed": ["message": "refused"]])
        let report = await signInReplay(recorded).run()
        #expect(report.isMatch, "\(report)")
    }
}
