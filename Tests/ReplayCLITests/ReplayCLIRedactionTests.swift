import ActionLog
import ActionLogExamples
import ActionLogViewer
import Foundation
import Testing

@Suite("Redaction: a secret in an action, an effect, a service call or an output event reaches no output")
struct ReplayCLIRedactionTests {
    /// Every secret holds this, and nothing else does.
    static let marker = "SECRET"
    static let token = "tok-SECRET-7f3a9c"
    static let password = "pw-SECRET-51e2"

    /// Records ``Secrets``' reducer (session 1: action, effect, state) and event ViewModel (session 2:
    /// view event, service call arguments and answer, output event) into `secrets.actionlog`.
    private func record(into directory: URL) async throws {
        let path = directory.appendingPathComponent("secrets.actionlog").path
        #expect(try Secrets.recordReducer(path: path, token: Self.token) == 1)
        #expect(try await Secrets.recordViewModel(path: path, password: Self.password, token: Self.token) == 2)
    }

    @Test("neither the file nor log, export, state, diff, report or the viewer's API holds the secret; placeholders stand where it was")
    func noOutputHoldsTheSecrets() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ReplayCLIRedactionTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await record(into: directory)

        let file = directory.appendingPathComponent("secrets.actionlog").path
        let bytes = [file, file + "-wal"].compactMap { FileManager.default.contents(atPath: $0) }.reduce(Data(), +)
        #expect(bytes.range(of: Data("<redacted>".utf8)) != nil, "the search reads what was written")
        #expect(bytes.range(of: Data(Self.marker.utf8)) == nil, "the journal file")

        /// Runs `replay-cli` and returns its standard output, which must not hold the secret.
        func output(_ arguments: [String]) throws -> String {
            let result = try runCLI(arguments, in: directory)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(!result.stdout.contains(Self.marker) && !result.stderr.contains(Self.marker), "replay-cli \(arguments.joined(separator: " "))")
            return result.stdout
        }
        /// The lines of `log`, offsets as `+T` and runs of spaces as one.
        func rows(_ text: String) -> [String] {
            lines(text).map { $0.replacing(/\+\d+(\.\d+)?\s?m?s/, with: "+T").split(separator: " ").joined(separator: " ") }
        }
        let reducerLog = try output(["log", "secrets.actionlog", "--session", "1"])
        #expect(rows(reducerLog) == [
            "SEQ OFFSET ACTION JSON",
            "0 +T (initial state)",
            #"1 +T signedIn {"signedIn":{"token":"<redacted>","user":"Ada"}}"#,
            #"2 +T refreshed {"refreshed":{"token":"<redacted>"}}"#,
            #"3 +T signedOut {"signedOut":{}}"#,
        ])
        let viewModelLog = try output(["log", "secrets.actionlog", "--session", "2"])
        #expect(rows(viewModelLog) == [
            "SEQ OFFSET ACTION JSON",
            "0 +T (initial state)",
            #"1 +T emailChanged {"emailChanged":{"_0":"ada@example.com"}}"#,
            #"2 +T passwordChanged {"passwordChanged":{"_0":"<redacted>"}}"#,
            #"3 +T signInTapped {"signInTapped":{}}"#,
            #"call TokenService.exchange("ada@example.com", "<redacted>") → {"name":"ada","scope":"write","token":"<redacted>"}"#,
            #"output {"signedIn":{"name":"ada","token":"<redacted>"}}"#,
        ])
        for session in ["1", "2"] {
            let json = try output(["log", "secrets.actionlog", "--session", session, "--json"])
            if session == "1" { #expect(json.contains(#""effect":{"storeToken":{"_0":"<redacted>"}}"#)) }
            _ = try output(["state", "secrets.actionlog", "--session", session, "--at", "1", "--json"])
            _ = try output(["diff", "secrets.actionlog", "--session", session, "0", "3", "--json"])
            _ = try output(["export", "secrets.actionlog", "--session", session, "--output", "golden-\(session).jsonl"])
            let golden = try String(contentsOf: directory.appendingPathComponent("golden-\(session).jsonl"), encoding: .utf8)
            #expect(golden.contains("<redacted>") && !golden.contains(Self.marker), "the exported golden of session \(session)")
            _ = try output(["report", "secrets.actionlog", "--session", session, "--output", "report-\(session).html"])
            let report = try String(contentsOf: directory.appendingPathComponent("report-\(session).html"), encoding: .utf8)
            #expect(report.contains("&lt;redacted&gt;") || report.contains("<redacted>") || report.contains(#"\u003credacted"#))
            #expect(!report.contains(Self.marker), "the report of session \(session)")
        }
        #expect(try output(["export", "secrets.actionlog", "--session", "1"]).contains(#""actionlog.redactedPaths":["/token","action:/signedIn/token","#))

        // The viewer's API, every route that returns data of the sessions.
        let (process, url, _) = try startServe(["serve", "secrets.actionlog", "--port", "0"], in: directory)
        defer { if process.isRunning { process.terminate() } }
        let port = try servedPort(url)
        let host = "127.0.0.1:\(port)"
        var answers = [try LoopbackClient.get(port: port, "/api/sessions", host: host)]
        for session in 1...2 {
            answers.append(try LoopbackClient.get(port: port, "/api/sessions/\(session)/timeline?from=0&limit=10", host: host))
            for seq in 0...3 {
                answers.append(try LoopbackClient.get(port: port, "/api/sessions/\(session)/entries/\(seq)", host: host))
            }
        }
        #expect(answers.allSatisfy { $0.status == 200 }, "\(answers.map(\.status))")
        #expect(answers.contains { $0.body.contains("<redacted>") })
        for answer in answers { #expect(!answer.body.contains(Self.marker), "\(answer.body)") }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
    }
}
