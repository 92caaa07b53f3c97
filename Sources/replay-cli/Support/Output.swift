import ArgumentParser
import Foundation

/// Standard output, buffered into large writes. A failed write (a full disk, a closed pipe) ends the
/// command with an error instead of losing the output silently.
struct BufferedOutput {
    private var buffer: [UInt8] = []

    /// Appends `line` and a newline; writes out once the buffer is large.
    mutating func write(_ line: String) throws {
        buffer.append(contentsOf: line.utf8)
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count >= 1 << 16 { try flush() }
    }

    /// Writes out what is buffered.
    mutating func flush() throws {
        guard !buffer.isEmpty else { return }
        do {
            try FileHandle.standardOutput.write(contentsOf: buffer)
        } catch {
            Terminal.printError("cannot write to standard output: \(error.localizedDescription)")
            throw ExitCode.failure
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// A table printed a page of rows at a time: each column is as wide as its widest cell so far, so
/// the first rows print at once and the columns stay aligned within a page and rarely shift after.
struct StreamingTable {
    private var widths: [Int]
    private var rows: [[String]]
    private let width: Int?

    /// - Parameters:
    ///   - header: the column names, printed first.
    ///   - width: the terminal's width to cut lines to, or `nil`.
    init(header: [String], width: Int?) {
        self.widths = header.map(\.count)
        self.rows = [header]
        self.width = width
    }

    /// Rows waiting to be printed.
    var pending: Int { rows.count }

    mutating func add(_ row: [String]) {
        rows.append(row)
    }

    /// Prints the waiting rows, padded to the widths seen so far.
    mutating func flush(into output: inout BufferedOutput) throws {
        for row in rows {
            for (index, cell) in row.enumerated() where index < row.count - 1 {
                if index >= widths.count { widths.append(0) }
                widths[index] = max(widths[index], cell.count)
            }
        }
        for row in rows {
            let line = row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }.joined(separator: "  ").trimmingTrailingSpaces()
            try output.write(Terminal.fit(line, width: width))
        }
        rows.removeAll(keepingCapacity: true)
    }
}
