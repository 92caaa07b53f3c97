import Foundation

/// Lines of bytes, from memory or read from a file a chunk at a time, without their `\n` or `\r\n`.
///
/// A line may hold at most ``maximumLength`` bytes (its line ending not counted): a longer one is
/// refused as soon as the bytes read for it pass that, so reading never buffers more than the limit
/// and one chunk, whatever the file holds (`/dev/zero`, a file without newlines).
///
/// A byte no JSON text holds anywhere (a C0 control other than tab, CR and LF: NUL, ESC…) ends the
/// line it is in, kept as its last byte, and the text with it: that line fails to parse, naming the
/// byte, and nothing after it is read. This is the same scan that finds the newline.
struct ByteLines {
    /// Why a line could not be read.
    enum Failure: Error {
        /// The file could not be read.
        case unreadable(ActionLogError)
        /// Line `line` is longer than `maximumLength` bytes.
        case tooLong(line: Int, maximumLength: Int)
    }

    private var buffer: [UInt8]
    private var start = 0
    private let handle: FileHandle?
    private var atEnd: Bool
    private let file: String
    /// The most bytes a line may hold, not counting its `\n` or `\r\n`.
    let maximumLength: Int
    /// Lines returned so far: the number of the last one.
    private(set) var lineNumber = 0

    init(bytes: [UInt8], maximumLength: Int = JSONLReader.maximumLineLength) {
        buffer = bytes
        handle = nil
        atEnd = true
        file = ""
        self.maximumLength = maximumLength
        skipByteOrderMark()
    }

    init(handle: FileHandle, file: String, maximumLength: Int = JSONLReader.maximumLineLength) throws(ActionLogError) {
        buffer = []
        self.handle = handle
        atEnd = false
        self.file = file
        self.maximumLength = maximumLength
        try fill()
        skipByteOrderMark()
    }

    /// A byte-order mark some editors add.
    private mutating func skipByteOrderMark() {
        if buffer.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
    }

    private mutating func fill() throws(ActionLogError) {
        guard let handle, !atEnd else { return }
        let chunk: Data?
        do {
            chunk = try handle.read(upToCount: Self.chunkSize)
        } catch {
            throw ActionLogError(.fileSystem, file: file, reason: "cannot read the file: \(error.localizedDescription)")
        }
        guard let chunk, !chunk.isEmpty else {
            atEnd = true
            return
        }
        if start > 0 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: chunk)
    }

    /// How many bytes a read asks for.
    private static let chunkSize = 1 << 16

    /// The index of the first byte at or after `from` that ends a line: a newline, or a byte that
    /// no JSON text holds (a C0 control but tab and CR); `nil` when the buffer holds none.
    private func lineEnd(from: Int) -> Int? {
        buffer.withUnsafeBufferPointer { bytes -> Int? in
            var index = from
            while index < bytes.count {
                let byte = bytes[index]
                if byte < 0x20 && byte != 0x09 && byte != 0x0D { return index }
                index += 1
            }
            return nil
        }
    }

    /// The next line, or `nil` at the end of the text.
    mutating func next() throws(Failure) -> ArraySlice<UInt8>? {
        var searched = start
        while true {
            if let end = lineEnd(from: searched) {
                var line: ArraySlice<UInt8>
                if buffer[end] == 0x0A {
                    line = buffer[start..<end]
                    if line.last == 0x0D { line = line.dropLast() }
                    start = end + 1
                } else {
                    // Kept in the line, where the parser names it; nothing after it is read.
                    line = buffer[start...end]
                    start = buffer.count
                    atEnd = true
                }
                return try counted(line)
            }
            if atEnd {
                guard start < buffer.count else { return nil }
                var line = buffer[start...]
                if line.last == 0x0D { line = line.dropLast() }
                start = buffer.count
                return try counted(line)
            }
            // No newline yet: refused once the line passes the limit (and a `\r` that may end it),
            // before another chunk is read.
            let scanned = buffer.count - start
            guard scanned - 1 <= maximumLength else { throw .tooLong(line: lineNumber + 1, maximumLength: maximumLength) }
            do {
                try fill()
            } catch {
                throw .unreadable(error)
            }
            searched = start + scanned
        }
    }

    /// `line`, numbered, unless it is longer than the limit.
    private mutating func counted(_ line: ArraySlice<UInt8>) throws(Failure) -> ArraySlice<UInt8> {
        lineNumber += 1
        guard line.count <= maximumLength else { throw .tooLong(line: lineNumber, maximumLength: maximumLength) }
        return line
    }

    static func isBlank(_ line: ArraySlice<UInt8>) -> Bool {
        line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }
}
