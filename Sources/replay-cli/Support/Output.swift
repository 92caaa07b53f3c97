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
struct OutputTarget {
    /// The file descriptor written to.
    let descriptor: Int32
    /// How messages name it: `standard output`, or the path the user gave.
    let name: String

    static let standardOutput = OutputTarget(descriptor: STDOUT_FILENO, name: "standard output")

    /// Writes all of `bytes`.
    ///
    /// - Throws: `ExitCode.failure` after telling the failure on standard error.
    func write(_ bytes: [UInt8]) throws {
        if let code = Self.writeAll(bytes, to: descriptor) { throw failure(code) }
    }

    /// Tells a failed write (`errno` `code`) on standard error and returns the error that ends the
    /// command; a closed pipe ends the process at once, as `SIGPIPE` does.
    func failure(_ code: Int32) -> Error {
        if code == EPIPE { Terminal.endForClosedPipe() }
        Terminal.printError("cannot write to \(name.displayEscaped): \(String(cString: strerror(code)))")
        return ExitCode.failure
    }

    /// Writes all of `bytes` to `descriptor`, going on after short writes and interruptions; returns
    /// the `errno` of a failure, or `nil`.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
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
struct BufferedOutput {
    private var buffer: [UInt8] = []
    private let target: OutputTarget

    init(to target: OutputTarget = .standardOutput) {
        self.target = target
    }

    /// Appends `line` and `terminator` (a newline unless told otherwise); writes out once the buffer
    /// is large.
    mutating func write(_ line: String, terminator: String = "\n") throws {
        buffer.append(contentsOf: line.utf8)
        buffer.append(contentsOf: terminator.utf8)
        if buffer.count >= 1 << 16 { try flush() }
    }

    /// Writes out what is buffered.
    mutating func flush() throws {
        guard !buffer.isEmpty else { return }
        try target.write(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Prints `text` and a newline to standard output at once, checked: what `print` does, without
    /// losing a failure.
    static func print(_ text: String) throws {
        var output = BufferedOutput()
        try output.write(text)
        try output.flush()
    }
}

/// A table printed a page of rows at a time: each column is as wide as its widest cell so far, so
/// the first rows print at once and the columns stay aligned within a page and rarely shift after.
///
/// Cells are escaped for a terminal (``Swift/String/displayEscaped``) as they are added, so a newline
/// or an escape sequence in a label never breaks a row or reaches the terminal.
struct StreamingTable {
    private var widths: [Int]
    private var rows: [[String]]
    /// The colour of cells, by row (as in ``rows``) and column.
    private var styles: [[Int: Style.Colour]]
    private let width: Int?

    /// - Parameters:
    ///   - header: the column names, printed first.
    ///   - width: the terminal's width to cut lines to, or `nil`.
    init(header: [String], width: Int?) {
        self.widths = header.map { DisplayWidth.columns($0) }
        self.rows = [header]
        self.styles = [[:]]
        self.width = width
    }

    /// Rows waiting to be printed.
    var pending: Int { rows.count }

    /// Adds a row; `styles` colours cells by column, on a terminal that takes colour (see ``Style``).
    mutating func add(_ row: [String], styles: [Int: Style.Colour] = [:]) {
        rows.append(row.map(\.displayEscaped))
        self.styles.append(styles)
    }

    /// Prints the waiting rows, padded to the widths seen so far.
    mutating func flush(into output: inout BufferedOutput) throws {
        for row in rows {
            for (index, cell) in row.enumerated() where index < row.count - 1 {
                if index >= widths.count { widths.append(0) }
                widths[index] = max(widths[index], DisplayWidth.columns(cell))
            }
        }
        for (row, style) in zip(rows, styles) {
            // Padded first, coloured after: the colour's escape sequences take no column.
            var cells = row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : DisplayWidth.padded(cell, to: widths[index])
            }
            for (index, colour) in style where cells.indices.contains(index) {
                let cell = cells[index].trimmingTrailingSpaces()
                cells[index] = Style.apply(colour, cell) + String(repeating: " ", count: cells[index].count - cell.count)
            }
            let line = cells.joined(separator: "  ").trimmingTrailingSpaces()
            try output.write(Terminal.fit(line, width: width))
        }
        rows.removeAll(keepingCapacity: true)
        styles.removeAll(keepingCapacity: true)
    }
}
