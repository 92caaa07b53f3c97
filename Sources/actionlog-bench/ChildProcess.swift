import Foundation

#if canImport(Glibc)
import Glibc
#endif

// Runs a command as a child process and reads what it cost from the kernel: `wait4`, whose `rusage`
// holds the child's peak resident memory (Foundation's `Process` does not expose rusage).
//
// Why a launcher: Linux charges a child the pages of the process that spawned it. A `posix_spawn`ed
// (vfork'd) child's `ru_maxrss` starts at its parent's mapped file pages — 34 MB for this benchmark
// with Foundation loaded, measured: `/bin/true` read 34 MB — and a forked child's at its parent's
// anonymous pages (the benchmark's heap after recording). Either would hide a small reader's own
// peak. So the benchmark `posix_spawn`s a lean copy of itself (`--measure-child`), which has touched
// almost nothing yet, and that copy forks and execs the command, waits for it with `wait4` and writes
// the time and peak back: `/bin/true` then reads about 5 MB.

/// What one child process cost.
struct ChildRun {
    /// Seconds from the fork until the child was reaped.
    var elapsed: Double
    /// Peak resident memory (`ru_maxrss`) in bytes.
    var peakResidentBytes: Int
    /// Seconds from the fork until the first newline on the child's standard output (``ChildOutput/firstLine``).
    var firstLine: Double?
    /// The child's standard output (``ChildOutput/capture``).
    var output: String
    /// Killed at its time limit: ``elapsed`` is the limit, ``peakResidentBytes`` the peak until then.
    var timedOut = false
}

/// Where a child's standard output goes.
enum ChildOutput: String {
    /// `/dev/null`.
    case discard
    /// A pipe, read whole into ``ChildRun/output``: for short outputs.
    case capture
    /// A pipe, read and thrown away, noting when the first newline arrives.
    case firstLine
}

// MARK: - In the benchmark

/// Runs `executable` with `arguments` through the lean launcher and returns its time and peak memory;
/// standard error is inherited. A child still running after `timeLimit` seconds is killed and returned
/// with ``ChildRun/timedOut`` set. Throws when it cannot be started or exits with a status other than 0.
///
/// ```swift
/// let run = try runChild("/usr/bin/true", [])
/// print(run.peakResidentBytes)
/// ```
func runChild(_ executable: String, _ arguments: [String], output: ChildOutput = .discard, timeLimit: Double? = nil) throws -> ChildRun {
    let result = FileManager.default.temporaryDirectory.appendingPathComponent("actionlog-bench-child-\(UUID().uuidString).txt").path
    defer { try? FileManager.default.removeItem(atPath: result) }
    let launcher = ownExecutable().path
    let limit = timeLimit.map { String($0) } ?? "-"
    let launched = try spawn(launcher, ["--measure-child", result, output.rawValue, limit, executable] + arguments)
    let status = try reap(launched).status
    guard status == 0 else {
        throw BenchError("\(([executable] + arguments).joined(separator: " ")): \(describe(status: status)) (its error is above)")
    }
    let text = try String(contentsOfFile: result, encoding: .utf8)
    let firstNewline = text.firstIndex(of: "\n") ?? text.endIndex
    let fields = text[..<firstNewline].split(separator: " ")
    guard fields.count == 4, let elapsed = Double(fields[0]), let peak = Int(fields[1]) else {
        throw BenchError("--measure-child wrote \"\(text.prefix(80))\", not \"SECONDS BYTES FIRSTLINE TIMEDOUT\"")
    }
    let rest = firstNewline < text.endIndex ? String(text[text.index(after: firstNewline)...]) : ""
    return ChildRun(elapsed: elapsed, peakResidentBytes: peak, firstLine: Double(fields[2]), output: rest, timedOut: fields[3] == "1")
}

// MARK: - In the launcher

/// `actionlog-bench --measure-child RESULT discard|capture|firstLine LIMIT|- EXECUTABLE ARGS...`: forks
/// and execs the command, waits for it (killing it after LIMIT seconds), and writes
/// `SECONDS PEAK_BYTES FIRSTLINE_SECONDS|- TIMEDOUT(0|1)` and then whatever was captured to RESULT.
/// Exits with 0 when the command did or timed out, else 1.
func measureChildMain(_ arguments: [String]) -> Int32 {
    guard arguments.count >= 4, let output = ChildOutput(rawValue: arguments[1]), arguments[2] == "-" || Double(arguments[2]) != nil else {
        FileHandle.standardError.write(Data("usage: actionlog-bench --measure-child RESULT discard|capture|firstLine LIMIT|- EXECUTABLE ARGS...\n".utf8))
        return 64
    }
    do {
        let run = try forkAndMeasure(arguments[3], Array(arguments.dropFirst(4)), output: output, timeLimit: Double(arguments[2]))
        let line = "\(run.elapsed) \(run.peakResidentBytes) \(run.firstLine.map { String($0) } ?? "-") \(run.timedOut ? 1 : 0)\n"
        try (line + run.output).write(toFile: arguments[0], atomically: false, encoding: .utf8)
        return 0
    } catch {
        FileHandle.standardError.write(Data("--measure-child: \(error)\n".utf8))
        return 1
    }
}

/// Forks, execs `executable` in the child and waits for it: the launcher's half of ``runChild(_:_:output:)``.
private func forkAndMeasure(_ executable: String, _ arguments: [String], output: ChildOutput, timeLimit: Double?) throws -> ChildRun {
    var ends: [Int32] = [-1, -1]
    let target: Int32
    if case .discard = output {
        target = open("/dev/null", O_WRONLY)
        guard target >= 0 else { throw BenchError("cannot open /dev/null: \(String(cString: strerror(errno)))") }
    } else {
        guard pipe(&ends) == 0 else { throw BenchError("pipe failed: \(String(cString: strerror(errno)))") }
        target = ends[1]
    }
    // Everything the child needs is made before the fork: between fork and exec it only calls
    // async-signal-safe functions (dup2, close, execve, _exit).
    let argv = cStrings([executable] + arguments)
    let environment = cStrings(ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" })
    defer {
        for pointer in argv { free(pointer) }
        for pointer in environment { free(pointer) }
    }
    let start = clock.now
    let pid = fork()
    if pid == 0 {
        _ = dup2(target, 1)
        if ends[0] >= 0 { _ = close(ends[0]) }
        _ = close(target)
        _ = execve(executable, argv, environment)
        _exit(127)
    }
    close(target)
    guard pid > 0 else {
        if ends[0] >= 0 { close(ends[0]) }
        throw BenchError("fork failed: \(String(cString: strerror(errno)))")
    }
    if let timeLimit {
        // The launcher exits as soon as the child is reaped, so the watchdog never outlives its pid.
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: timeLimit)
            kill(pid, SIGKILL)
        }
    }
    var firstLine: (seconds: Double?, kept: [UInt8]) = (nil, [])
    if ends[0] >= 0 { firstLine = drain(ends[0], since: start, keep: output == .capture) }
    let (status, usage) = try reap(pid)
    let elapsed = start.duration(to: clock.now).seconds
    let timedOut = timeLimit.map { status & 0x7f == SIGKILL && elapsed >= $0 } ?? false
    guard status == 0 || timedOut else {
        throw BenchError("\(([executable] + arguments).joined(separator: " ")) \(describe(status: status))")
    }
    #if os(Linux)
    let peak = usage.ru_maxrss * 1024  // Kilobytes on Linux.
    #else
    let peak = usage.ru_maxrss  // Bytes on Darwin.
    #endif
    return ChildRun(
        elapsed: elapsed, peakResidentBytes: peak, firstLine: firstLine.seconds,
        output: String(decoding: firstLine.kept, as: UTF8.self), timedOut: timedOut
    )
}

/// Reads `descriptor` to its end and closes it: when the first newline came, and the bytes if `keep`.
private func drain(_ descriptor: Int32, since start: ContinuousClock.Instant, keep: Bool) -> (seconds: Double?, kept: [UInt8]) {
    defer { close(descriptor) }
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    var firstLine: Double?
    var kept: [UInt8] = []
    while true {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { break }
        if firstLine == nil, buffer[0..<count].contains(UInt8(ascii: "\n")) {
            firstLine = start.duration(to: clock.now).seconds
        }
        if keep { kept += buffer[0..<count] }
    }
    return (firstLine, kept)
}

// MARK: - Processes

/// Starts `executable` with `posix_spawn`, standard output and error inherited.
private func spawn(_ executable: String, _ arguments: [String]) throws -> pid_t {
    let argv = cStrings([executable] + arguments)
    let environment = cStrings(ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" })
    defer {
        for pointer in argv { free(pointer) }
        for pointer in environment { free(pointer) }
    }
    var pid = pid_t()
    let code = posix_spawn(&pid, executable, nil, nil, argv, environment)
    guard code == 0 else { throw BenchError("cannot start \(executable): \(String(cString: strerror(code)))") }
    return pid
}

/// Waits for `pid` with `wait4`: its raw status and resource usage.
private func reap(_ pid: pid_t) throws -> (status: Int32, usage: rusage) {
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 {
        guard errno == EINTR else { throw BenchError("wait4 failed: \(String(cString: strerror(errno)))") }
    }
    return (status, usage)
}

/// A wait status in words. The <sys/wait.h> macros do not import: WIFEXITED is "no signal bits",
/// WEXITSTATUS the second byte.
private func describe(status: Int32) -> String {
    let signal = status & 0x7f
    return signal == 0 ? "exited with status \((status >> 8) & 0xff)" : "was killed by signal \(signal)"
}

/// NUL-terminated copies for `execve`, followed by the terminating null pointer; `free` each.
private func cStrings(_ strings: [String]) -> [UnsafeMutablePointer<CChar>?] {
    strings.map { strdup($0) } + [nil]
}

// MARK: - Binaries

/// The hidden entry points the scale section spawns this binary with, by their first argument.
func childEntryPoint(_ flag: String) -> (([String]) -> Int32)? {
    switch flag {
    case "--measure-child": measureChildMain
    case "--replay-child": replayChild
    case "--rebuild-child": rebuildChild
    case "--decode-child": decodeChild
    case "--parse-child": parseChild
    case "--share-child": shareChild
    default: nil
    }
}

/// The path of `name` in the folder this benchmark's binary is in (`swift build -c release` puts
/// `replay-cli` and `actionlog-bench` side by side).
func siblingExecutable(_ name: String) -> String {
    ownExecutable().deletingLastPathComponent().appendingPathComponent(name).path
}

/// This benchmark's binary: `argv[0]`, or `/proc/self/exe` when it was found through `PATH`.
func ownExecutable() -> URL {
    let first = CommandLine.arguments[0]
    if first.contains("/") { return URL(fileURLWithPath: first).standardizedFileURL }
    let resolved = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? first
    return URL(fileURLWithPath: resolved)
}
