import Foundation
import Testing
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Runs `replay-cli arguments` with its standard output, or its standard error, on a pseudo-terminal
/// (`openpty`), the other on a pipe, or both on the terminal: how the CLI behaves in a terminal,
/// without one.
///
/// - Returns: the exit status, what reached the terminal (its `\r\n` turned back into `\n`), and
///   what reached the pipe.
func runCLIOnTerminal(
    _ arguments: [String], in directory: URL, environment extra: [String: String] = [:], standardErrorOnTerminal: Bool = false,
    bothOnTerminal: Bool = false
) throws -> (status: Int32, terminal: String, piped: String) {
    var master: Int32 = -1
    var slave: Int32 = -1
    guard openpty(&master, &slave, nil, nil, nil) == 0 else {
        throw CLITestError(description: "cannot open a pseudo-terminal: \(String(cString: strerror(errno)))")
    }
    defer { close(master) }
    let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: false)

    let process = Process()
    process.executableURL = try replayCLIBinary()
    process.arguments = arguments
    process.currentDirectoryURL = directory
    var environment = ProcessInfo.processInfo.environment
    environment["COLUMNS"] = "200"
    environment["NO_COLOR"] = nil
    environment["TERM"] = "xterm-256color"
    environment.merge(extra) { $1 }
    process.environment = environment
    let pipe = Pipe()
    process.standardOutput = standardErrorOnTerminal && !bothOnTerminal ? pipe : terminal
    process.standardError = standardErrorOnTerminal || bothOnTerminal ? terminal : pipe
    process.standardInput = FileHandle.nullDevice
    try process.run()
    close(slave)
    try? pipe.fileHandleForWriting.close()

    // The terminal's end reads until the child's side is closed (EIO on Linux, 0 elsewhere).
    let collected = TerminalReader(master)
    let piped = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let text = collected.result().replacingOccurrences(of: "\r\n", with: "\n")
    return (process.terminationStatus, text, piped)
}

/// Reads a pseudo-terminal's master side to its end on a thread of its own.
private final class TerminalReader: @unchecked Sendable {
    // Written by the reading thread before `done` is signalled, read after it is waited for.
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ descriptor: Int32) {
        Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(descriptor, &buffer, buffer.count)
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }
                data.append(contentsOf: buffer[0..<count])
            }
            done.signal()
        }.start()
    }

    func result() -> String {
        done.wait()
        return String(decoding: data, as: UTF8.self)
    }
}
