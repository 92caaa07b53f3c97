import Foundation
import Testing
@testable import ActionLog

extension RecordedSessionJSONLTests {
    // MARK: - Bounds on lines and bytes

    /// Reads `text` as ``RecordedSession/init(jsonl:file:)`` does, with lines of at most `limit` bytes.
    private func read(_ text: String, limit: Int) throws(ActionLogError) -> RecordedSession {
        var reader = try JSONLReader(source: ByteLines(bytes: Array(text.utf8), maximumLength: limit), file: "tiny.jsonl")
        return try reader.readAll()
    }

    @Test("a line of up to the limit reads (its \\n or \\r\\n not counted); a longer one is refused, naming the line")
    func lineLimit() throws {
        // The header, 351 bytes, is the longest line of the tiny session.
        #expect(try read(tinyText, limit: 351) == tinySession())
        #expect(try read(tinyText.replacingOccurrences(of: "\n", with: "\r\n"), limit: 351) == tinySession())
        #expect(JSONLReader.maximumLineLength == 256 << 20)

        let header = #expect(throws: ActionLogError.self) { try read(tinyText, limit: 350) }
        #expect(header?.description == "tiny.jsonl: line 1: longer than 350 bytes, the most a line of the text form may hold")
        #expect(header?.code == .corrupt)

        let long = #"{"seq":1,"kind":"delta","label":""# + String(repeating: "x", count: 400) + #"","time":1,"patch":[]}"#
        let entry = #expect(throws: ActionLogError.self) { try read(tinyText(replacingLine: 3, with: long), limit: 351) }
        #expect(entry?.description == "tiny.jsonl, entry 1: line 3: longer than 351 bytes, the most a line of the text form may hold")
        #expect(entry?.code == .corrupt)

        // The last line, without a newline after it.
        let last = tinyText.dropLast() + String(repeating: " ", count: 300)
        let unended = #expect(throws: ActionLogError.self) { try read(String(last), limit: 351) }
        #expect(unended?.description == "tiny.jsonl, entry 3: line 5: longer than 351 bytes, the most a line of the text form may hold")

        // From a file, by import: nothing is written.
        let url = directory.url.appendingPathComponent("tiny.jsonl")
        try Data(tinyText(replacingLine: 3, with: long).utf8).write(to: url)
        var reader = try JSONLReader(url: url, maximumLineLength: 351)
        #expect(try reader.next(checking: true)?.seq == 0)
        let fromFile = #expect(throws: ActionLogError.self) { try reader.next(checking: true) }
        #expect(fromFile?.description == "tiny.jsonl, entry 1: line 3: longer than 351 bytes, the most a line of the text form may hold")

        // A limit of whole MiB is given in MiB too.
        let huge = #"{"seq":1,"kind":"delta","label":""# + String(repeating: "x", count: 1 << 20) + #"","time":1,"patch":[]}"#
        let mebibyte = #expect(throws: ActionLogError.self) { try read(tinyText(replacingLine: 3, with: huge), limit: 1 << 20) }
        #expect(mebibyte?.description == "tiny.jsonl, entry 1: line 3: longer than 1048576 bytes (1 MiB), the most a line of the text form may hold")
    }

    @Test("a line with no end is refused once it passes the limit, after one read past it at most")
    func unendingLine() throws {
        let header = String(tinyText.prefix { $0 != "\n" }) + "\n"
        let url = directory.url.appendingPathComponent("big.jsonl")
        let line = #"{"seq":0,"kind":"keyframe","time":1,"state":""# + String(repeating: "a", count: 2 << 20)
        try Data((header + line).utf8).write(to: url)
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var reader = try JSONLReader(source: ByteLines(handle: handle, file: "big.jsonl", maximumLength: 1000), file: "big.jsonl")
        let error = #expect(throws: ActionLogError.self) { try reader.next(checking: true) }
        #expect(error?.description == "big.jsonl, entry 0: line 2: longer than 1000 bytes, the most a line of the text form may hold")
        #expect(error?.code == .corrupt)
        // The header, the limit and a \r, and one read of 64 KiB: not the 2 MiB of the line.
        #expect(try handle.offset() <= UInt64(header.utf8.count + 1000 + 1 + 65536))
    }

    @Test("a byte no JSON text holds (NUL, ESC, another C0 control) ends the read at once, named by the parser")
    func controlBytes() throws {
        let url = directory.url.appendingPathComponent("zero.jsonl")
        try Data(count: 1 << 20).write(to: url)
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        let error = #expect(throws: ActionLogError.self) {
            _ = try JSONLReader(source: ByteLines(handle: handle, file: "zero.jsonl"), file: "zero.jsonl")
        }
        #expect(error?.description == "zero.jsonl: line 1: not an ActionLog session header: invalid JSON at byte 0: unexpected byte 0x0")
        #expect(error?.code == .notAJournal)
        #expect(try handle.offset() == 65536, "one read: the first byte ends it, not the end of the file")

        let escape = #expect(throws: ActionLogError.self) {
            try read(tinyText(replacingLine: 3, with: "{\"seq\":1,\u{1B}[2J\n" + String(repeating: " ", count: 400)), limit: 351)
        }
        #expect(escape?.description == #"tiny.jsonl, entry 1: line 3: not JSON: invalid JSON at byte 9: unexpected byte 0x1b"#)
        let bell = #expect(throws: ActionLogError.self) {
            try read(tinyText(replacingLine: 2, with: "{\"seq\":0,\"kind\":\"keyframe\",\"time\":1,\"state\":\"\u{7}\"}"), limit: 351)
        }
        #expect(bell?.description == #"tiny.jsonl, entry 0: line 2: not JSON: invalid JSON at byte 45: unescaped control character in a string"#)

        // Tab and CR are JSON whitespace: they read anywhere between tokens.
        let spaced = tinyText(replacingLine: 2, with: "{\"seq\":0,\t\"kind\":\"keyframe\",\r\"time\":1763700000.0,\"state\":{\"items\":[],\"total\":0}}")
        #expect(try read(spaced, limit: 351) == tinySession())
        // A journal given as a text form is still named as such (its header holds a NUL at byte 15).
        let journal = #expect(throws: ActionLogError.self) { try read("SQLite format 3\u{0}\u{40}\u{0}", limit: 351) }
        #expect(journal?.description == "tiny.jsonl: an SQLite database (a journal?), not an ActionLog session in text form")
    }

    @Test("import refuses a text form that is not a regular file (a FIFO, a device): it reads the file twice")
    func importNeedsRegularFile() throws {
        let fifo = directory.path("pipe.jsonl")
        #expect(mkfifo(fifo, 0o600) == 0)
        let journal = directory.path("new.actionlog")
        for path in [fifo, "/dev/null"] {
            let url = URL(fileURLWithPath: path)
            let error = #expect(throws: ActionLogError.self) { try Journal.importJSONL(at: url, into: journal) }
            #expect(error?.description == """
                \(url.lastPathComponent): not a regular file (\(path)); import reads the text form twice (to check it, then to \
                store it): save it to a file first
                """)
            #expect(error?.code == .invalidArgument)
        }
        #expect(!FileManager.default.fileExists(atPath: journal), "nothing is created")
        // Read once, a device is read as it is: empty.
        let once = #expect(throws: ActionLogError.self) { try RecordedSession(contentsOfJSONL: URL(fileURLWithPath: "/dev/null")) }
        #expect(once?.description == "null: line 1: the file is empty, so not an ActionLog session")
    }
}
