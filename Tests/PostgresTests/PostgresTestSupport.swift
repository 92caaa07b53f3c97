import ActionLog
@testable import ActionLogPostgres
import Foundation
import PostgresNIO
import Testing

/// The server the tests use: `ACTIONLOG_TEST_POSTGRES_URL` (`scripts/with-postgres` sets it).
/// Without it the suites skip, and say so once on standard error; with `ACTIONLOG_REQUIRE_POSTGRES=1`
/// (CI) a missing server fails them instead.
enum TestServer {
    static let url: String? = {
        let environment = ProcessInfo.processInfo.environment
        let url = environment["ACTIONLOG_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
        if url == nil, environment["ACTIONLOG_REQUIRE_POSTGRES"] != "1" {
            FileHandle.standardError.write(Data("""
                PostgresTests: SKIPPED, no PostgreSQL server given. Run them with one: scripts/with-postgres swift test --filter PostgresTests \
                (or set ACTIONLOG_TEST_POSTGRES_URL=postgres://USER:PASSWORD@HOST:PORT/DATABASE).

                """.utf8))
        }
        return url
    }()

    /// Whether the suites run: a server is given, or CI requires one (and then fails without it).
    static var isGiven: Bool {
        url != nil || ProcessInfo.processInfo.environment["ACTIONLOG_REQUIRE_POSTGRES"] == "1"
    }

    /// A new empty database on the test server, for one test, and its URL: tests that count what
    /// a store holds see only their own sessions.
    static func newDatabase() async throws -> String {
        let url = try #require(url, "ACTIONLOG_REQUIRE_POSTGRES=1 but ACTIONLOG_TEST_POSTGRES_URL is not set")
        let parts = try #require(URLComponents(string: url))
        let name = "actionlog_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        // Through the store's own connection (TLS as the server asks), on the database the URL names.
        let store = try await PostgresStore.connect(url: url)
        do {
            try await store.run(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), doing: "create a database for the test")
        } catch {
            await store.close()
            throw error
        }
        await store.close()
        var changed = parts
        changed.path = "/" + name
        return try #require(changed.string)
    }
}

/// A temporary directory for one test, removed after it.
func withTemporaryDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("actionlog-postgres-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try await body(directory)
}

/// The binaries `swift test` built next to the test bundle.
func binary(_ name: String) throws -> URL {
    var directories = [Bundle.main.bundleURL]
    directories += Bundle.allBundles.filter { $0.bundleURL.pathExtension == "xctest" }.map { $0.bundleURL.deletingLastPathComponent() }
    for directory in directories {
        let candidate = directory.appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    throw CLIFailure(description: "\(name) not found in \(directories.map(\.path))")
}

struct CLIFailure: Error, CustomStringConvertible {
    let description: String
}

/// A child process of the tests, its output read into files (so that a child filling a pipe never blocks).
final class Child: @unchecked Sendable {
    let process = Process()
    private let output: URL
    private let errors: URL

    init(_ program: String, _ arguments: [String], in directory: URL, environment extra: [String: String] = [:]) throws {
        output = directory.appendingPathComponent("stdout-\(UUID().uuidString)")
        errors = directory.appendingPathComponent("stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.executableURL = try binary(program)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment["COLUMNS"] = nil
        environment.merge(extra) { $1 }
        process.environment = environment
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// Waits for the end; the status and what it printed.
    func finish() -> (status: Int32, stdout: String, stderr: String) {
        process.waitUntilExit()
        let stdout = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        let stderr = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        return (process.terminationStatus, stdout, stderr)
    }
}

/// Runs `replay-cli` (or `program`) to its end.
func run(_ arguments: [String], in directory: URL, program: String = "replay-cli", environment: [String: String] = [:]) throws -> (status: Int32, stdout: String, stderr: String) {
    try Child(program, arguments, in: directory, environment: environment).finish()
}

/// A session of `count` entries, as a recorder would store it: a keyframe, then deltas of a
/// counter and a list, a gap at every 10,000th entry.
func insertLongSession(named name: String, entries count: Int, into path: String) throws {
    let time = Date(timeIntervalSince1970: 1_763_700_000)
    var seq = 0
    let header = SessionHeader(
        name: name, startedAt: time.addingTimeInterval(Double(count)), endedAt: time.addingTimeInterval(Double(count) + 1), status: .closed,
        libraryVersion: "0.1.0", appVersion: "2.3", stateType: "Counter", actionType: "Action", effectType: nil, metadata: [:],
        entryCount: count, droppedCount: max(0, count - 1) / 10_000 * 2, lastEntryAt: nil)
    _ = try Journal(path: path, mode: .readWrite).insert(session: header, file: "\(name).jsonl") { () throws(ActionLogError) -> Entry? in
        guard seq < count else { return nil }
        defer { seq += 1 }
        let at = time.addingTimeInterval(Double(seq) / 1000)
        // The entry after a gap is a keyframe, as a recorder writes it.
        if seq == 0 || seq % 10_000 == 1 {
            return Entry(seq: seq, time: at, label: seq == 0 ? nil : "add", action: seq == 0 ? nil : ["add": 1], content: .keyframe(["count": .number(String(seq)), "note": "tab\there\nline \\ end"]), effect: nil)
        }
        if seq % 10_000 == 0 {
            return Entry(seq: seq, time: at, label: nil, action: nil, content: .gap(dropped: 2, note: "2 actions dropped"), effect: nil)
        }
        let patch = try JSONPatch([["op": "replace", "path": "/count", "value": .number(String(seq))]])
        return Entry(seq: seq, time: at, label: seq % 2 == 0 ? "add" : "tap\tcell", action: ["add": 1], content: .delta(patch), effect: nil)
    }
}
