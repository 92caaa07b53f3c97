import ActionLog
import ActionLogExamples
import Foundation
import Replayer
import Testing

/// An action whose redacted value is of a type that refuses the placeholder.
enum PairingAction: Codable, Equatable, Sendable {
    case paired(code: UUID, name: String)
}

@Suite("Replay of sessions whose actions, effects, service calls and output events were redacted")
struct RedactedMessagesReplayTests {
    let directory = TemporaryDirectory()
    static let token = "tok-SECRET-7f3a9c"
    static let password = "pw-SECRET-51e2"

    private func reducerSession() throws -> RecordedSession {
        let path = directory.path("token.actionlog")
        let id = try Secrets.recordReducer(path: path, token: Self.token)
        return try Journal(path: path).recordedSession(id)
    }

    private func viewModelSession(paths: [RedactedPath] = Secrets.viewModelPaths) async throws -> RecordedSession {
        let path = directory.path("sign-in.actionlog")
        let id = try await Secrets.recordViewModel(path: path, password: Self.password, token: Self.token, paths: paths)
        return try Journal(path: path).recordedSession(id)
    }

    private func viewModelReplay(_ recording: RecordedSession, email: String? = nil) -> EventViewModelReplay<Secrets.ViewEvent, Secrets.OutputEvent> {
        EventViewModelReplay(recording: recording, services: ["TokenService"]) { emit in
            let viewModel = Secrets.SignInViewModel(service: Secrets.RecordedTokenService(live: Secrets.FixedTokenService(token: "reached")), emit: emit)
            return { event in
                if let email, case .emailChanged = event { return await viewModel.handle(event: .emailChanged(email)) }
                await viewModel.handle(event: event)
            }
        }
    }

    @Test("the reducer gets the placeholder; a secret it passes on to a redacted place of the state or the effect is no divergence")
    func reducerGetsThePlaceholder() throws {
        let recording = try reducerSession()
        #expect(recording.entries[1].action == ["signedIn": ["token": "<redacted>", "user": "Ada"]])
        #expect(recording.entries[1].effect == ["storeToken": ["_0": "<redacted>"]])
        let seen = Locked<[String]>([])
        func renews(_ state: inout Secrets.State, _ action: Secrets.Action) -> Secrets.Effect? {
            switch action {
            case .signedIn(_, let token), .refreshed(let token):
                seen.withLock { $0.append(token) }
                _ = Secrets.reduce(&state, action)
                state.token = "tok-SECRET-today"
                return .storeToken("tok-SECRET-today")
            case .signedOut:
                return Secrets.reduce(&state, action)
            }
        }
        let report = try Replay(recording: recording, reducer: renews).run()
        #expect(report.description == #"Replayed 3 of 3 actions of session 1 "token" of token.actionlog: no divergence."#)
        #expect(seen.withLock { $0 } == ["<redacted>", "<redacted>"])
    }

    @Test("an effect that changes outside the redacted place is still a divergence, shown without the secret")
    func effectDivergence() throws {
        func clearsTwice(_ state: inout Secrets.State, _ action: Secrets.Action) -> Secrets.Effect? {
            let effect = Secrets.reduce(&state, action)
            if case .signedIn = action { return .clearToken }
            return effect
        }
        let report = try Replay(recording: try reducerSession(), reducer: clearsTwice).run()
        #expect(report.description == """
            Replay diverged at entry 1 of session 1 "token" of token.actionlog (signedIn(token: "<redacted>", user: "Ada")).

              Effect:
                − Secrets.Effect.storeToken("<redacted>")
                + Secrets.Effect.clearToken

            (Recorded: −, Replayed: +)
            """)
    }

    @Test("an action whose placeholder does not decode names the session, the entry and the redacted path")
    func placeholderThatDoesNotDecode() throws {
        let path = directory.path("pairing.actionlog")
        var configuration = RecorderConfiguration()
        configuration.redactedPaths = ["action:/paired/code"]
        let recorder = try Recorder<Int, PairingAction, Never>(path: path, sessionName: "pairing", initialState: 0, configuration: configuration)
        recorder.record(action: .paired(code: UUID(), name: "kitchen"), state: 1)
        recorder.close()
        let report = try Replay(journal: Journal(path: path), session: recorder.sessionID) { (state: inout Int, _: PairingAction) in state += 1 }.run()
        #expect(report.failure?.code == .actionDoesNotDecode)
        #expect(report.failure?.description == """
            pairing.actionlog, session 1 "pairing", entry 1: action "paired" no longer decodes: \
            Attempted to decode UUID from invalid UUID string. at paired.code; the value at /paired/code was redacted when it was \
            recorded (by "action:/paired/code"), and its placeholder does not decode into today's type
            """)
    }

    @Test("an event ViewModel replays with the password and token as placeholders: view event, call and output event")
    func viewModelReplays() async throws {
        let recording = try await viewModelSession()
        #expect(recording.handlers.last?.records == [
            .call(ServiceCall(
                service: "TokenService", method: "exchange", arguments: ["ada@example.com", "<redacted>"],
                outcome: .returned(["name": "ada", "scope": "write", "token": "<redacted>"]), answered: 3)),
            .output(OutputEvent(label: "signedIn", event: ["signedIn": ["name": "ada", "token": "<redacted>"]])),
        ])
        let report = await viewModelReplay(recording).run()
        #expect(report.description == #"Replayed 3 of 3 actions of session 1 "sign in" of sign-in.actionlog: no divergence."#)
    }

    @Test("a call whose arguments differ outside the redacted place diverges, and the report shows it redacted")
    func callDivergence() async throws {
        let report = await viewModelReplay(try await viewModelSession(), email: "grace@example.com").run()
        #expect(report.description == """
            Replay diverged at entry 3 of session 1 "sign in" of sign-in.actionlog (signInTapped).

              Service call 0:
                − TokenService.exchange("ada@example.com", "<redacted>")
                + TokenService.exchange("grace@example.com", "<redacted>")

            (Recorded: −, Replayed: +)
            """)
    }

    @Test("a service result whose placeholder does not decode names the session, the entry, the call and the redacted path")
    func resultThatDoesNotDecode() async throws {
        let recording = try await viewModelSession(paths: Secrets.viewModelPaths + ["call:/TokenService/exchange/result"])
        let report = await viewModelReplay(recording).run()
        #expect(report.failure?.code == .serviceResultDoesNotDecode)
        #expect(report.failure?.description == """
            sign-in.actionlog, session 1 "sign in", entry 3: the result of service call "TokenService.exchange" no longer decodes: \
            Cannot initialize Scope from invalid String value <redacted> at scope; the value at /TokenService/exchange/result/scope \
            was redacted when it was recorded (by "call:/TokenService/exchange/result"), and its placeholder does not decode into today's type
            """)
    }

    @Test("a re-recorded golden redacts today's effects as the recorder did, and a failure report holds no secret")
    func goldensAndReports() throws {
        let recording = try reducerSession()
        let golden = directory.path("token.jsonl")
        try recording.jsonl().write(toFile: golden, atomically: true, encoding: .utf8)
        #expect(verifyReplay(golden: golden, of: .reducer(Secrets.reduce), record: .never).passed)

        func storesTwice(_ state: inout Secrets.State, _ action: Secrets.Action) -> Secrets.Effect? {
            _ = Secrets.reduce(&state, action)
            state.signIns *= 10
            return .storeToken("tok-SECRET-today")
        }
        let reports = directory.path("reports")
        let failed = verifyReplay(golden: golden, of: .reducer(storesTwice), record: .never, environment: ["ACTIONLOG_FAILURE_REPORTS": reports])
        #expect(!failed.passed)
        #expect(failed.message?.contains("SECRET") == false)
        let html = try String(contentsOfFile: reports + "/token.html", encoding: .utf8)
        #expect(html.contains(#""name":"token (replayed)""#))
        #expect(!html.contains("SECRET"), "the report of the failure")

        let rerecorded = verifyReplay(golden: golden, of: .reducer(storesTwice), record: .failed)
        #expect(rerecorded.wroteGolden)
        let text = try String(contentsOfFile: golden, encoding: .utf8)
        #expect(text.contains(#""signIns":10"#), "the new behaviour was recorded")
        #expect(text.contains(#"{"storeToken":{"_0":"<redacted>"}}"#) && !text.contains("SECRET"))
        #expect(verifyReplay(golden: golden, of: .reducer(storesTwice), record: .never).passed)
    }
}
