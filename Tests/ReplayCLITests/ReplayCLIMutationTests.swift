import ActionLog
import ActionLogViewer
import Foundation
import HostileFileSupport
import Testing

/// The seeded mutants of `HostileFileTests` (byte damage, rows edited to hold overflowing numbers,
/// text where numbers belong, invalid UTF-8, patch bombs, nesting built through patches), through
/// every command of `replay-cli` and every route of the viewer: the code of the commands and of the
/// server (arithmetic, printing, status codes) meets them, not only the library's readers.
///
/// Each mutant is read by every command: none may crash (a signal), hang (60 s) or fail without
/// naming a file it was given (`log --follow`, which runs until stopped, is given half a second);
/// the viewer's routes answer JSON naming the file, and the server goes on answering. The default
/// run makes 40 mutants from a fixed seed (about 500 runs of the binary, 20 s); for a longer one,
/// set the count and, to explore, the first seed:
///
///     ACTIONLOG_CLI_MUTATION_ITERATIONS=500 swift test --filter ProductMutationTests
///     ACTIONLOG_CLI_MUTATION_SEED=7 ACTIONLOG_CLI_MUTATION_ITERATIONS=1 swift test --filter ProductMutationTests
@Suite("replay-cli and the viewer on seeded mutants")
struct ProductMutationTests {
    static let defaultIterations = 40
    static let defaultSeed: UInt64 = 0x5EED_C11

    /// The mutant's file name, as the commands are given it.
    static let journal = "mutant.actionlog"
    static let text = "mutant.jsonl"

    /// Every command that reads a journal (the last two write to it), with its arguments. The
    /// fixture's sessions are 1 and 2, of 13 entries; session 2 has a gap at entry 6 and handler records.
    static let journalCommands: [[String]] = [
        ["verify", journal], ["verify", journal, "--json"], ["sessions", journal], ["sessions", journal, "--json"],
        ["stats", journal], ["stats", journal, "--session", "2"],
        ["log", journal, "--session", "1"], ["log", journal, "--session", "2", "--json"],
        ["log", journal, "--session", "2", "--from", "5", "--limit", "3"],
        ["state", journal, "--session", "1"], ["state", journal, "--session", "2", "--at", "7", "--json"],
        ["diff", journal, "--session", "2", "2", "8"],
        ["export", journal, "--session", "2", "--output", "exported.jsonl"],
        ["report", journal, "--session", "2", "--output", "report.html"],
        ["copy", journal, "copied.actionlog"], ["prune", journal, "--keep", "1", "--dry-run"],
        ["prune", journal, "--keep", "1"], ["vacuum", journal],
    ]

    /// `log --follow`, which polls until it is stopped: given half a second, then killed.
    static let followCommand = ["log", journal, "--session", "2", "--follow"]

    /// The text form goes in through `import`; what it made is read back.
    static let textCommands: [[String]] = [
        ["import", text, "--into", "imported.actionlog"],
        ["verify", "imported.actionlog"], ["log", "imported.actionlog", "--session", "1"],
        ["state", "imported.actionlog", "--session", "1"],
    ]

    /// The viewer's routes for the fixture's sessions, and entries on both sides of their ends.
    static let routes: [String] = ["/api/sessions"] + ["1", "2"].flatMap { session in
        ["/api/sessions/\(session)/timeline", "/api/sessions/\(session)/timeline?from=5&limit=3"]
            + ["0", "1", "6", "7", "12", "13"].map { "/api/sessions/\(session)/entries/\($0)" }
    }

    @Test("no mutant crashes or hangs a command or the viewer; every failure names the file")
    func mutants() throws {
        let run = MutationRun(environment: "ACTIONLOG_CLI_MUTATION", iterations: Self.defaultIterations, seed: Self.defaultSeed)
        let iterations = run.iterations
        let directory = try TemporaryDirectory()
        let maker = MutantMaker(fixture: try HostileFixture(in: directory), directory: directory)
        var failures: [String] = []
        var statuses: [Int32: Int] = [:]
        var answers: [Int: Int] = [:]
        for index in 0..<iterations {
            let seed = run.seed(index)
            let mutant = try maker.mutant(seed: seed)
            let workspace = try TemporaryDirectory()
            var problems: [String] = []
            switch mutant.target {
            case .journal:
                try Data(mutant.bytes).write(to: URL(fileURLWithPath: workspace.path(Self.journal)))
                // The viewer first: the last commands write to the file.
                problems += Self.serve(workspace.path(Self.journal), answers: &answers)
                problems += try Self.run([Self.followCommand], in: workspace, statuses: &statuses, following: true)
                problems += try Self.run(Self.journalCommands, in: workspace, statuses: &statuses)
            case .text:
                try Data(mutant.bytes).write(to: URL(fileURLWithPath: workspace.path(Self.text)))
                problems += try Self.run(Self.textCommands, in: workspace, statuses: &statuses)
            }
            if !problems.isEmpty {
                failures.append("seed \(seed) (\(mutant.description)):\n  " + problems.joined(separator: "\n  "))
            }
        }
        #expect(failures.isEmpty, """
            \(failures.count) of \(iterations) mutants failed; rerun one with \
            ACTIONLOG_CLI_MUTATION_SEED=<seed> ACTIONLOG_CLI_MUTATION_ITERATIONS=1
            \(failures.prefix(10).joined(separator: "\n"))
            """)
        // The run reaches the commands: they both read and refuse, and the viewer both serves and refuses.
        if iterations >= 20 {
            #expect(statuses[0, default: 0] > iterations && statuses[1, default: 0] + statuses[64, default: 0] > iterations, "\(statuses)")
            #expect(answers[200, default: 0] > iterations && answers.keys.contains { $0 != 200 }, "\(answers)")
        }
    }

    @Test("the harness kills a child that runs past its time, and reports it as timed out")
    func timeout() throws {
        let directory = try TemporaryDirectory()
        // `sleep 30` ends by the kill (the status says so only when the kill was sent), not after 30 s.
        let result = try runProcess(URL(fileURLWithPath: "/bin/sleep"), ["30"], in: directory.url, timeout: .milliseconds(200))
        #expect(result.status == timedOutStatus)
        let quick = try runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", "exit 3"], in: directory.url, timeout: .seconds(30))
        #expect(quick.status == 3)
    }

    /// Runs `commands` in `workspace`; returns what went wrong, and counts the exit statuses. A
    /// command `following` runs until it is killed after half a second, unless it ends first.
    static func run(
        _ commands: [[String]], in workspace: TemporaryDirectory, statuses: inout [Int32: Int], following: Bool = false
    ) throws -> [String] {
        var problems: [String] = []
        for command in commands {
            let result = try runProcess(try replayCLIBinary(), command, in: workspace.url, timeout: following ? .milliseconds(500) : .seconds(60))
            if following, result.status == timedOutStatus { continue }
            statuses[result.status, default: 0] += 1
            let shown = command.joined(separator: " ")
            let error = result.stderr
            // 0: read; 1: a finding or a damaged file; 64: not a journal, or no such session or entry.
            guard [0, 1, 64].contains(result.status) else {
                problems.append(result.status == timedOutStatus
                    ? "\(shown): still running after 60 s"
                    : "\(shown): exit \(result.status) (a signal)\n\(error)")
                continue
            }
            if error.contains("Fatal error") || error.contains("runtime failure") {
                problems.append("\(shown): \(error)")
            }
            // A failure names a file it was given (the source, or the journal `import` writes to);
            // `verify` prints its findings on the standard output instead.
            let files = command.filter { $0.hasSuffix(".actionlog") || $0.hasSuffix(".jsonl") }
            if result.status != 0, !(command[0] == "verify" && error.isEmpty),
                !files.contains(where: { error.hasPrefix("error: \($0)") })
            {
                problems.append("\(shown): exit \(result.status) without naming \(files): \(error.debugDescription)")
            }
        }
        return problems
    }

    /// Serves the journal at `path` and asks every route; returns what went wrong, and counts the statuses.
    static func serve(_ path: String, answers: inout [Int: Int]) -> [String] {
        let server: ViewerServer
        do {
            server = try ViewerServer(journalPath: path, port: 0)
        } catch let error as ActionLogError {
            return error.file == journal ? [] : ["ViewerServer: an error naming another file: \(error)"]
        } catch {
            return ["ViewerServer: threw \(type(of: error)), not a ActionLogError: \(error)"]
        }
        defer { server.stop() }
        var problems: [String] = []
        for route in routes + ["/api/sessions"] {
            let response: LoopbackResponse
            do {
                response = try LoopbackClient.get(port: server.port, route)
            } catch {
                problems.append("GET \(route): no answer: \(error)")
                continue
            }
            answers[response.status, default: 0] += 1
            guard response.status != 200 else { continue }
            // A refusal: 404 (no such session or entry), 422 (a damaged row), 500 (SQLite failed to
            // read the file); always a JSON error that names the file.
            let named = (try? JSONValue(parsing: response.bytes))?["file"] == .string(journal)
            if ![404, 422, 500].contains(response.status) || !named {
                problems.append("GET \(route): \(response.status) \(response.body)")
            }
        }
        return problems
    }
}
