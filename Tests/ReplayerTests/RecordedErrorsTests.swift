import ActionLog
import Foundation
import Replayer
import Testing

/// Errors of each kind a service throws: a `LocalizedError`, a plain error, a `Codable` error that
/// the wrapper declares, and a cancellation.
private struct OfflineError: LocalizedError, CustomStringConvertible {
    var description: String { "OfflineError()" }
    var errorDescription: String? { "You are offline." }
}

private struct PlainError: Error {}

enum QuotaExceeded: Error, Codable { case exceeded(limit: Int) }

private struct FailingService {
    let recorded = RecordedService("Quota", errors: [QuotaExceeded.self])

    func use(_ kind: String) async throws -> Int {
        try await recorded.call("use", kind) { () async throws -> Int in
            switch kind {
            case "offline": throw OfflineError()
            case "plain": throw PlainError()
            case "quota": throw QuotaExceeded.exceeded(limit: 10)
            case "cancel": throw CancellationError()
            default: return 1
            }
        }
    }
}

private struct Outcomes: Codable, Equatable, Sendable {
    var messages: [String] = []
    var cancelled = 0
}

@MainActor private final class OutcomeState {
    var value = Outcomes()
}

private func handler(_ state: OutcomeState) -> @Sendable (String) async -> Void {
    let service = FailingService()
    return { kind in
        do {
            _ = try await service.use(kind)
        } catch is CancellationError {
            await MainActor.run { state.value.cancelled += 1 }
        } catch {
            let message = "\(error) | \(error.localizedDescription)"
            await MainActor.run { state.value.messages.append(message) }
        }
    }
}

@Suite("Async ViewModels: recorded errors read on replay as they did when recorded")
struct RecordedErrorsTests {
    let directory = TemporaryDirectory()

    @Test("a cancellation is thrown again as CancellationError; other errors keep their description and localizedDescription")
    func errorsReplayAsRecorded() async throws {
        let path = directory.path("errors.actionlog")
        let state = OutcomeState()
        let reducer = try await ViewModelRecorder<Outcomes, String>(
            path: path, sessionName: "errors", services: ["Quota"], handle: handler(state), snapshot: { state.value })
        for kind in ["offline", "plain", "quota", "cancel"] {
            reducer(kind)
            await reducer.settle()
        }
        reducer.close()

        let recording = try Journal(path: path).recordedSession(reducer.recorder.sessionID)
        let recorded = await MainActor.run { state.value }
        #expect(recorded.cancelled == 1)
        #expect(recorded.messages.count == 3)
        #expect(recorded.messages[0] == "OfflineError() | You are offline.")
        let report = await ViewModelReplay<Outcomes, String>(recording: recording, services: ["Quota"]) { initial in
            let replayed = OutcomeState()
            replayed.value = initial
            return ReplayedViewModel(handle: handler(replayed), snapshot: { replayed.value })
        }.run()
        #expect(report.isMatch, "\(report)")
        #expect(report.entriesReplayed == 4)
    }

    @Test("a recorded error of an undeclared type reads as the recorded error: description and localizedDescription")
    func recordedServiceErrorText() {
        let error: any Error = ActionLogError.recordedError(type: "App.OfflineError", message: "OfflineError()", localizedDescription: "You are offline.")
        #expect("\(error)" == "OfflineError()")
        #expect(error.localizedDescription == "You are offline.")
        let same: any Error = ActionLogError.recordedError(type: "App.Refused", message: "refused")
        #expect(same.localizedDescription == "refused")
        // A Codable error of a type not declared in `errors:` comes back as its JSON (its value only
        // is journaled, so that redacted fields stay redacted).
        let undeclared = RecordedService.encode(error: QuotaExceeded.exceeded(limit: 10))
        #expect(undeclared.canonicalText == #"{"type":"ReplayerTests.QuotaExceeded","value":{"exceeded":{"limit":10}}}"#)
        // One that only encodes cannot be thrown again as itself: its description is journaled.
        struct EncodesOnly: LocalizedError, Encodable, CustomStringConvertible {
            var description: String { "EncodesOnly(code: 7)" }
            var errorDescription: String? { "Code 7." }
        }
        let encodesOnly = RecordedService.encode(error: EncodesOnly())
        #expect(encodesOnly["description"] == "EncodesOnly(code: 7)")
        #expect(encodesOnly["localizedDescription"] == "Code 7.")
    }
}
