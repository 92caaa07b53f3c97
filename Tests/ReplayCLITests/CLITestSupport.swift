import ActionLog
import Foundation
import Testing

/// A failure of the test harness itself (binary missing, a helper tool failing), with a message that says what to do.
struct CLITestError: Error, CustomStringConvertible {
    let description: String
}

// MARK: - Locating the binaries

/// The executables these tests run. The test target depends on both, so that `swift test` builds them.
enum Program: String {
    /// The tool.
    case replayCLI = "replay-cli"
    /// The demo, which records the example features into a journal (``runDemo(in:_:)``).
    case demo = "actionlog-demo"

    /// The binary that `swift test` built next to the test bundle.
    ///
    /// On Linux the products directory is `Bundle.main.bundleURL` (the directory holding the `.xctest`);
    /// on macOS it is the parent of the `.xctest` bundle found in `Bundle.allBundles`.
    func binary() throws -> URL {
        var directories = [Bundle.main.bundleURL]
        directories += Bundle.allBundles
            .filter { $0.bundleURL.pathExtension == "xctest" }
            .map { $0.bundleURL.deletingLastPathComponent() }
        for directory in directories {
            let candidate = directory.appendingPathComponent(rawValue)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw CLITestError(description: """
            \(rawValue) binary not found; looked in: \(directories.map(\.path).joined(separator: ", ")). \
            The ReplayCLITests target must depend on the \(rawValue) executable target so that `swift test` builds it.
            """)
    }
}

/// The `replay-cli` binary that `swift test` built next to the test bundle.
func replayCLIBinary() throws -> URL {
    try Program.replayCLI.binary()
}

// MARK: - Running processes

/// Reads a pipe to its end on its own thread, so that a child filling one pipe never blocks on the other.
private final class PipeDrain: Sendable {
    private let data = Locked(Data())
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        let thread = Thread { [self] in
            let read = handle.readDataToEndOfFile()
            data.withLock { $0 = read }
            done.signal()
        }
        thread.start()
    }

    /// Waits for the end of the pipe and returns everything read.
    func result() -> String {
        done.wait()
        return String(decoding: data.withLock { $0 }, as: UTF8.self)
    }
}

/// A child's watch: whether it was killed for running past its time, or was seen to end first.
private final class TimeoutWatch: Sendable {
    let state = Locked((fired: false, ended: false))
}

/// The status ``runProcess(_:_:in:standardOutput:environment:timeout:)`` returns for a child it killed
/// because it ran past its time: no exit status or signal number is negative.
let timedOutStatus: Int32 = -1

/// Runs `executable` with `arguments` in `directory`; returns its exit status and everything it printed.
/// With `standardOutput`, the child writes there instead (and `stdout` is empty). Its standard input
/// is `standardInput`, or `/dev/null`. With `timeout`, a child still running then is killed, and the
/// status is ``timedOutStatus``.
func runProcess(
    _ executable: URL, _ arguments: [String], in directory: URL, standardOutput: FileHandle? = nil,
    standardInput: FileHandle? = nil, environment extra: [String: String] = [:], timeout: Duration? = nil
) throws -> (status: Int32, stdout: String, stderr: String) {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = directory
    var environment = ProcessInfo.processInfo.environment
    environment["COLUMNS"] = nil  // Output goes to pipes; keep anything terminal-related out of it.
    environment.merge(extra) { $1 }
    process.environment = environment
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = standardOutput ?? output
    process.standardError = errors
    process.standardInput = standardInput ?? FileHandle.nullDevice
    try process.run()
    let watch = TimeoutWatch()
    if let timeout {
        let pid = process.processIdentifier
        let (seconds, attoseconds) = timeout.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
            watch.state.withLock { state in
                // Under the lock that the end is recorded with: a child seen to end is never signalled.
                guard !state.ended else { return }
                state.fired = true
                kill(pid, SIGKILL)
            }
        }
    }
    // Our copies of the write ends must go, or the reads below would never see the end of the pipes.
    try? output.fileHandleForWriting.close()
    try? errors.fileHandleForWriting.close()
    let stdoutDrain = PipeDrain(output.fileHandleForReading)
    let stderrDrain = PipeDrain(errors.fileHandleForReading)
    let stdout = stdoutDrain.result()
    let stderr = stderrDrain.result()
    process.waitUntilExit()
    let fired = watch.state.withLock { state in
        state.ended = true
        return state.fired
    }
    return (fired ? timedOutStatus : process.terminationStatus, stdout, stderr)
}

/// Runs `program` (`replay-cli` unless told otherwise) with `arguments`, with `directory` as the
/// working directory.
func runCLI(_ arguments: [String], in directory: URL, program: Program = .replayCLI) throws -> (status: Int32, stdout: String, stderr: String) {
    try runProcess(try program.binary(), arguments, in: directory)
}

/// Runs `program` (`replay-cli` unless told otherwise) with its standard output sent to `path`
/// (e.g. `/dev/full`).
func runCLI(
    _ arguments: [String], in directory: URL, standardOutputTo path: String, program: Program = .replayCLI
) throws -> (status: Int32, stderr: String) {
    let handle = try #require(FileHandle(forWritingAtPath: path), "cannot open \(path) for writing")
    defer { try? handle.close() }
    let result = try runProcess(try program.binary(), arguments, in: directory, standardOutput: handle)
    return (result.status, result.stderr)
}

/// Runs SQL on a database with the `sqlite3` command-line tool (which knows WAL journals).
func runSQLite(_ sql: String, on file: String, in directory: URL) throws {
    let result = try runProcess(try sqlite3Tool(), [file, sql], in: directory)
    guard result.status == 0 else {
        throw CLITestError(description: "sqlite3 \(file) \"\(sql)\" failed with status \(result.status): \(result.stderr)")
    }
}

/// The sqlite3 command-line tool, which the tests use to damage journals.
func sqlite3Tool() throws -> URL {
    let candidates = ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3", "/opt/homebrew/bin/sqlite3"]
    guard let tool = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
        throw CLITestError(description: "the sqlite3 command-line tool is needed to damage journals; looked in \(candidates)")
    }
    return URL(fileURLWithPath: tool)
}

// MARK: - Temporary directories

/// Runs `body` with a fresh empty directory, removed afterwards whatever happens.
func withTemporaryDirectory<T>(_ body: (URL) throws -> T) throws -> T {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("ReplayCLITests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try body(directory)
}

/// Runs `actionlog-demo` in `directory` and requires it to succeed.
@discardableResult
func runDemo(in directory: URL, _ extraArguments: [String] = []) throws -> String {
    let result = try runCLI(extraArguments, in: directory, program: .demo)
    try #require(result.status == 0, "demo failed: \(result.stderr)")
    return result.stdout
}

// MARK: - Reading output

/// The lines of `text`, without the empty string after the final newline.
func lines(_ text: String) -> [String] {
    var lines = text.components(separatedBy: "\n")
    if lines.last == "" { lines.removeLast() }
    return lines
}

/// Whether the whole of `text` matches `pattern` (an ICU regular expression).
func matches(_ text: String, _ pattern: String) -> Bool {
    text.range(of: "^(?:\(pattern))$", options: .regularExpression) != nil
}

/// An ISO 8601 UTC timestamp with milliseconds, as the CLI prints them.
let timestampPattern = #"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z"#
/// A duration as the CLI prints them: `0.012s`.
let secondsPattern = #"\d+\.\d{3}s"#

/// One row of `replay-cli log`: the sequence number, the offset (`+0.012s`) and the rest of the line
/// (label column and JSON) with trailing blanks removed.
struct LogRow: Equatable {
    let seq: Int
    let offset: String
    let rest: String

    init?(_ line: String) {
        let parts = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, let seq = Int(parts[0]) else { return nil }
        let afterSeq = parts[1].drop(while: { $0 == " " })
        let offset = afterSeq.prefix(while: { $0 != " " })
        guard matches(String(offset), #"\+"# + secondsPattern) else { return nil }
        let rest = afterSeq.dropFirst(offset.count).drop(while: { $0 == " " })
        self.seq = seq
        self.offset = String(offset)
        var trimmed = String(rest)
        while trimmed.last == " " { trimmed.removeLast() }
        self.rest = trimmed
    }
}

/// Parses `text` as a JSON array of objects, recording an issue when it is not one.
func jsonObjects(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String: Any]] {
    let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8))
    return try #require(parsed as? [[String: Any]], "not a JSON array of objects: \(text)", sourceLocation: sourceLocation)
}

/// Parses JSON Lines: one object per line.
func jsonLines(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String: Any]] {
    try text.split(separator: "\n").map { line in
        let parsed = try JSONSerialization.jsonObject(with: Data(String(line).utf8))
        return try #require(parsed as? [String: Any], "not a JSON object: \(line)", sourceLocation: sourceLocation)
    }
}

/// A JSON number as an `Int`; `nil` for anything else.
func int(_ value: Any?) -> Int? {
    (value as? NSNumber)?.intValue
}

/// The `differences` of `diff --json`'s object, recording an issue when the output is not that shape.
func diffObjects(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String: Any]] {
    let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8))
    let object = try #require(parsed as? [String: Any], "not a JSON object: \(text)", sourceLocation: sourceLocation)
    return try #require(object["differences"] as? [[String: Any]], "no differences array: \(text)", sourceLocation: sourceLocation)
}
