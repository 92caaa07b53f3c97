import Foundation
import Testing
@testable import ActionLog

@Suite("Redacted paths: scopes for actions, effects, output events and service calls")
struct RedactedPathTests {
    let directory = TemporaryDirectory()

    @Test("a path without a scope is the state's; with one, it is anchored at each message of that kind")
    func scopes() {
        #expect(RedactedPath("/user/token").scope == .state)
        #expect(RedactedPath("").scope == .state)
        let action = RedactedPath("action:/signedIn/token")
        #expect(action.scope == .action)
        #expect(action.tokens == [.name("signedIn"), .name("token")])
        #expect(action.description == "action:/signedIn/token")
        #expect(RedactedPath("effect:").tokens == [], "every effect, whole")
        #expect(RedactedPath("output:/*/token").tokens == [.any, .name("token")])
        #expect(RedactedPath("call:/AuthService/signIn/arguments/1").scope == .call)
    }

    @Test("a path with an unknown scope, a scope without a pointer, a call part that is not one, or an unknown service is refused at start")
    func refusals() async throws {
        let path = directory.path("bad.actionlog")
        func refusal(_ paths: [RedactedPath]) -> String? {
            var configuration = RecorderConfiguration()
            configuration.redactedPaths = paths
            do {
                _ = try Recorder<Int, Int, Never>(path: path, sessionName: "s", initialState: 0, configuration: configuration)
                return nil
            } catch {
                return error.description
            }
        }
        #expect(refusal(["state:/user/token"]) == """
            bad.actionlog: the redacted path "state:/user/token" has an unknown scope "state:": a path of the state has none, \
            and one of the messages starts with action:, effect:, output: or call:
            """)
        #expect(refusal(["action:signedIn"]) == #"bad.actionlog: the redacted path "action:signedIn" is not a JSON Pointer after "action:": it must be empty or start with "/""#)
        #expect(refusal(["/user", "call:/AuthService/signIn/argument/0"]) == """
            bad.actionlog: the redacted path "call:/AuthService/signIn/argument/0" names "argument" of a call, which has arguments, result or error
            """)
        #expect(refusal(["user.token"]) == #"bad.actionlog: the redacted path "user.token" is not a JSON Pointer: it must be empty or start with "/""#)
        #expect(!FileManager.default.fileExists(atPath: path), "nothing was started")

        var configuration = RecorderConfiguration()
        configuration.redactedPaths = ["call:/AuthService/signIn/result", "call:/Auth/signIn/result/token"]
        await #expect {
            _ = try await EventViewModelRecorder<Int, Int>(
                path: path, sessionName: "s", services: ["AuthService", "Directory"], configuration: configuration, handle: { _ in })
        } throws: { error in
            (error as? ActionLogError)?.description == """
                bad.actionlog: the redacted path "call:/Auth/signIn/result/token" names the service "Auth", \
                but the recorded services are AuthService, Directory
                """
        }
    }

    @Test("a handler record's call arguments, result and error, and its output events, are redacted at their places")
    func handlerRecords() throws {
        let redaction = try Redaction(
            paths: ["call:/AuthService/signIn/arguments/1", "call:/AuthService/signIn/result/token", "call:/Vault/*/error", "output:/signedIn/token"],
            file: "f")
        let record = HandlerRecord(seq: 3, started: 1, records: [
            .call(ServiceCall(
                service: "AuthService", method: "signIn", arguments: ["ada", "pw-SECRET"],
                outcome: .returned(["name": "Ada", "token": "tok-SECRET"]), answered: 2)),
            .call(ServiceCall(service: "Vault", method: "open", arguments: [7], outcome: .threw(["type": "VaultError", "value": "SECRET"]), answered: 3)),
            .output(OutputEvent(label: "signedIn", event: ["signedIn": ["name": "Ada", "token": "tok-SECRET"]])),
            .output(OutputEvent(label: "failed", event: ["failed": ["token": "kept"]])),
        ])
        let redacted = try #require(redaction.handler(record))
        #expect(redacted.records == [
            .call(ServiceCall(
                service: "AuthService", method: "signIn", arguments: ["ada", "<redacted>"],
                outcome: .returned(["name": "Ada", "token": "<redacted>"]), answered: 2)),
            .call(ServiceCall(service: "Vault", method: "open", arguments: [7], outcome: .threw(["type": "<redacted>", "value": "<redacted>"]), answered: 3)),
            .output(OutputEvent(label: "signedIn", event: ["signedIn": ["name": "Ada", "token": "<redacted>"]])),
            .output(OutputEvent(label: "failed", event: ["failed": ["token": "kept"]])),
        ])
        #expect((redacted.seq, redacted.started) == (3, 1))
        #expect(Redaction.none.handler(record) == record)
        #expect(try Redaction(paths: ["/token", "action:/a"], file: "f").handler(record) == record, "no path names calls or outputs")
    }

    @Test("the session's metadata lists every path as written, and a reader sorts them by scope again")
    func metadata() throws {
        let path = directory.path("scoped.actionlog")
        var configuration = RecorderConfiguration()
        configuration.redactedPaths = ["/token", "action:/signedIn/token", "effect:/store/_0"]
        let recorder = try Recorder<Int, Int, Int>(path: path, sessionName: "s", initialState: 0, configuration: configuration)
        recorder.close()
        let metadata = try Journal(path: path).session(recorder.sessionID).metadata
        #expect(metadata == ["actionlog.redactedPaths": ["/token", "action:/signedIn/token", "effect:/store/_0"], "actionlog.dates": "iso8601"])
        let redaction = try Redaction.recorded(in: metadata).get()
        #expect(redaction.state.paths == ["/token"])
        #expect(redaction.actions.paths == ["action:/signedIn/token"])
        #expect(redaction.effects.paths == ["effect:/store/_0"])
        #expect(redaction.outputs.isEmpty && redaction.calls.isEmpty)
        #expect(redaction.actions.keyframe(["signedIn": ["token": "t", "user": "Ada"]]) == ["signedIn": ["token": "<redacted>", "user": "Ada"]])
    }
}
