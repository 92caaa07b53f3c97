import ActionLog
import ArgumentParser
import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where a command writes: a file descriptor, and how messages name it.
///
/// Every write is checked. A failure (a full disk, `/dev/full`, an I/O error) is told on standard
/// error — `error: cannot write to standard output: No space left on device` — and ends the command
/// with exit status 1. A closed pipe (`replay-cli log big.actionlog | head -1`) ends it quietly, as
/// `SIGPIPE` ends git and the other Unix tools: nothing on standard error, terminated by the signal
/// (status 141 in a shell), so the reader that stopped early is not told about an error it caused.
package struct OutputTarget {
    /// The file descriptor written to.
    package let descriptor: Int32
    /// How messages name it: `standard output`, or the path the user gave.
    package let name: String

    package init(descriptor: Int32, name: String) {
        self.descriptor = descriptor
        self.name = name
    }

    package static let standardOutput = OutputTarget(descriptor: STDOUT_FILENO, name: "standard output")

    /// Writes all of `bytes`.
    ///
    /// - Throws: `ExitCode.failure` after telling the failure on standard error.
    package func write(_ bytes: [UInt8]) throws {
        if let code = Self.writeAll(bytes, to: descriptor) { throw failure(code) }
    }

    /// Tells a failed write (`errno` `code`) on standard error and returns the error that ends the
    /// command; a closed pipe ends the process at once, as `SIGPIPE` does.
    package func failure(_ code: Int32) -> Error {
        if code == EPIPE { Terminal.endForClosedPipe() }
        Terminal.printError("cannot write to \(name.displayEscaped): \(String(cString: strerror(code)))")
        return ExitCode.failure
    }

    /// Writes all of `bytes` to `descriptor`, going on after short writes and interruptions; returns
    /// the `errno` of a failure, or `nil`.
    package static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        bytes.withUnsafeBytes { buffer -> Int32? in
            guard let base = buffer.baseAddress else { return nil }
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                if written == 0 { return EIO }
                offset += written
            }
            return nil
        }
    }
}

/// `write(2)`, under a name that does not clash with the methods called `write`.
@inline(__always)
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Darwin)
    Darwin.write(descriptor, buffer, count)
    #elseif canImport(Glibc)
    Glibc.write(descriptor, buffer, count)
    #elseif canImport(Musl)
    Musl.write(descriptor, buffer, count)
    #endif
}

/// Output buffered into large writes to an ``OutputTarget`` (standard output by default). A failed
/// write ends the command with an error instead of losing the output silently.
package struct BufferedOutput {
    private var buffer: [UInt8] = []
    private let target: OutputTarget

    package init(to target: OutputTarget = .standardOutput) {
        self.target = target
    }

    /// Appends `line` and `terminator` (a newline unless told otherwise); writes out once the buffer
    /// is large.
    package mutating func write(_ line: String, terminator: String = "\n") throws {
        buffer.append(contentsOf: line.utf8)
        buffer.append(contentsOf: terminator.utf8)
        if buffer.count >= 1 << 16 { try flush() }
    }

    /// Writes out what is buffered.
    package mutating func flush() throws {
        guard !buffer.isEmpty else { return }
        try target.write(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Prints `text` and a newline to standard output at once, checked: what `print` does, without
    /// losing a failure.
    package static func print(_ text: String) throws {
        var output = BufferedOutput()
        try output.write(text)
        try output.flush()
    }
}
