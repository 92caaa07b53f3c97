import Foundation

/// Reads the text form line by line. Every error names the file, the entry (when known) and the line.
struct JSONLReader {
    let file: String
    private var source: ByteLines
    /// The session from the header; its entry count and last time are known once all is read.
    let header: SessionHeader
    /// A blank line read ahead, and its number: an error unless only blank lines follow it.
    private var blank: Int?
    private var expected = 0
    private var lastTime: Date?
    private var states: StateWalk
    /// The handler records of the entries read so far (an asynchronous session's `"handler"` members).
    let collected = CollectedHandlers()

    /// The most bytes one line of the text form may hold, not counting its line ending: 256 MiB.
    ///
    /// A line is read whole before it is parsed, so without a bound a file with no newline
    /// (`/dev/zero`, a dump of another kind) would be buffered until memory ran out. The bound is
    /// far above what an app records (an entry holds one state, and a state of tens of megabytes
    /// is already large for an app), so every session a journal realistically holds exports to a
    /// text form that reads back, while a reader buffers at most this and one 64 KiB read.
    /// Parsing a line costs a few times its length in memory on top of that.
    static let maximumLineLength = 256 << 20

    /// Opens a `.jsonl` file and reads its header.
    ///
    /// - Parameters:
    ///   - url: the file.
    ///   - readTwice: whether the caller opens the file again to read it a second time (import:
    ///     once to check it, once to store it). Only a regular file reads the same twice (a pipe's
    ///     text is gone after the first read), so anything else is refused before it is opened.
    ///   - maximumLineLength: the most bytes a line may hold (``maximumLineLength``; tests set it small).
    init(url: URL, readTwice: Bool = false, maximumLineLength: Int = Self.maximumLineLength) throws(ActionLogError) {
        let file = url.lastPathComponent
        let shown = url.relativePath  // As it was given: `nope.jsonl` rather than the whole path from the working directory.
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw ActionLogError(.fileNotFound, file: file, reason: "no such file (looked for \(shown))")
        }
        guard !isDirectory.boolValue else {
            throw ActionLogError(.notAJournal, file: file, reason: "a directory, not an ActionLog session in text form (\(shown))")
        }
        // Following symbolic links, as the journals' check does: `/dev/stdin` redirected from a file is that file.
        if readTwice, JournalFile.specialFileKind(url.path) != nil {
            throw ActionLogError(.invalidArgument, file: file, reason: """
                not a regular file (\(shown)); import reads the text form twice (to check it, then to \
                store it): save it to a file first
                """)
        }
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw ActionLogError(.fileSystem, file: file, reason: "cannot read \(shown): \(error.localizedDescription)")
        }
        try self.init(source: try ByteLines(handle: handle, file: file, maximumLength: maximumLineLength), file: file)
    }

    init(source: ByteLines, file: String) throws(ActionLogError) {
        self.file = file
        self.source = source
        states = StateWalk(file: file, session: nil)
        let empty = Self.fail(file, .notAJournal, line: 1, entry: nil, "the file is empty, so not an ActionLog session")
        guard let first = try Self.line(from: &self.source, file: file, entry: nil) else { throw empty }
        if ByteLines.isBlank(first), try Self.onlyBlanksFollow(&self.source, file: file) { throw empty }
        header = try Self.readHeader(first, file: file)
    }

    private static func onlyBlanksFollow(_ source: inout ByteLines, file: String) throws(ActionLogError) -> Bool {
        while let line = try line(from: &source, file: file, entry: nil) {
            if !ByteLines.isBlank(line) { return false }
        }
        return true
    }

    /// The next line of `source`; a line longer than its limit is refused as the line of `entry`.
    private static func line(from source: inout ByteLines, file: String, entry: Int?) throws(ActionLogError) -> ArraySlice<UInt8>? {
        do {
            return try source.next()
        } catch {
            switch error {
            case .unreadable(let error):
                throw error
            case .tooLong(let line, let maximumLength):
                var limit = "\(maximumLength) bytes"
                if maximumLength >= 1 << 20, maximumLength % (1 << 20) == 0 { limit += " (\(maximumLength >> 20) MiB)" }
                throw fail(file, line: line, entry: entry, "longer than \(limit), the most a line of the text form may hold")
            }
        }
    }

    static func fail(_ file: String, _ code: ActionLogError.Code = .corrupt, line: Int, entry: Int?, _ reason: String) -> ActionLogError {
        ActionLogError(code, file: file, entry: entry, line: line, reason: reason)
    }

    func fail(_ code: ActionLogError.Code = .corrupt, line: Int, entry: Int?, _ reason: String) -> ActionLogError {
        Self.fail(file, code, line: line, entry: entry, reason)
    }

    /// The next entry, checked against the rules of a session (``StateWalk`` and its actions),
    /// or `nil` after the last one, when the dropped count has been checked too.
    ///
    /// - Parameter checking: whether to walk the states (import, export); reading a golden into
    ///   memory leaves that to whoever uses it.
    mutating func next(checking: Bool) throws(ActionLogError) -> Entry? {
        if checking, expected == 0, let problem = header.recordProblems.first {
            // The rules of a session's record, as `verify` applies them to a journal's: checked where
            // the session is checked for import, so that nothing imported fails `verify`.
            throw fail(line: 1, entry: nil, "the session \(problem)")
        }
        while let line = try Self.line(from: &source, file: file, entry: expected) {
            if ByteLines.isBlank(line) {
                if blank == nil { blank = source.lineNumber }
                continue
            }
            if let blank {
                throw fail(line: blank, entry: expected, "a blank line; after the header, every line holds one entry")
            }
            let (entry, handler) = try readEntry(line, line: source.lineNumber)
            if let handler {
                collected.add(handler)
            } else if let architecture = SessionArchitecture.of(header.metadata).architecture, architecture.recordsHandlers,
                entry.seq > 0, entry.kind != .gap
            {
                throw fail(line: source.lineNumber, entry: entry.seq, architecture.missingHandlerRecord)
            }
            expected += 1
            lastTime = max(lastTime ?? entry.time, entry.time)
            if checking {
                do {
                    try states.checkAction(of: entry)
                    try states.advance(past: entry)
                } catch {
                    throw locate(error)
                }
            }
            return entry
        }
        if checking {
            do {
                try states.finish(droppedCount: header.droppedCount)
            } catch {
                throw locate(error)
            }
        }
        return nil
    }

    /// A session's error, located the way people find it in a text file: by its line.
    private func locate(_ error: ActionLogError) -> ActionLogError {
        fail(error.code, line: error.entry.map { $0 + 2 } ?? 1, entry: error.entry, error.reason)
    }

    /// Reads every entry into memory.
    mutating func readAll() throws(ActionLogError) -> RecordedSession {
        var entries: [Entry] = []
        while let entry = try next(checking: false) { entries.append(entry) }
        var recorded = RecordedSession(session: session(entryCount: entries.count), entries: entries, source: .textFile(file))
        recorded.handlers = collected.inOrder
        return recorded
    }

    /// The header's session, with what reading the entries found.
    func session(entryCount: Int) -> SessionHeader {
        var session = header
        session.entryCount = entryCount
        session.lastEntryAt = lastTime
        return session
    }

    /// How deep a line may nest: one level for the line's own object, so that the state, patch,
    /// action, effect or metadata in it may nest as deep as a journal's columns may
    /// (``JSONValue/maximumDepth``), and every session a journal holds has a text form that reads back.
    static let lineDepth = JSONValue.maximumDepth + 1

    /// Reads line 1: a header of a format this ActionLog reads. The entry count is filled in later.
    private static func readHeader(_ line: ArraySlice<UInt8>, file: String) throws(ActionLogError) -> SessionHeader {
        // A journal given where its text form is expected: said so, rather than as bad JSON at byte 0.
        if line.starts(with: Array("SQLite format 3".utf8) + [0]) {
            throw ActionLogError(.notAJournal, file: file, reason: "an SQLite database (a journal?), not an ActionLog session in text form")
        }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: Array(line), maximumDepth: Self.lineDepth)
        } catch {
            // Not JSON from its first byte on: another kind of file (a usage error, as a file that is
            // not a journal is for the readers of journals). A header cut short is a damaged text form.
            let code: ActionLogError.Code = error.offset == 0 ? .notAJournal : .corrupt
            throw fail(file, code, line: 1, entry: nil, "not an ActionLog session header: \(error)")
        }
        guard case .object(let members) = value, members["actionlog"] == .string("session") else {
            throw fail(file, .notAJournal, line: 1, entry: nil, #"not an ActionLog session header (it has no "actionlog":"session")"#)
        }
        let fields = Fields(file: file, members: members, line: 1, entry: nil, subject: "the header")
        let format = try fields.require(fields.int("format"), "format")
        guard format <= RecordedSession.jsonlFormatVersion else {
            throw fail(file, .newerSchema, line: 1, entry: nil, """
                written by a newer ActionLog (text format \(format)), but this ActionLog reads text formats up to \
                \(RecordedSession.jsonlFormatVersion); update ActionLog to read it
                """)
        }
        guard format >= 1 else { throw fail(file, line: 1, entry: nil, "unknown text format \(format)") }
        let dropped = try fields.int("dropped") ?? 0
        guard dropped >= 0 else { throw fields.fail("\"dropped\" must not be negative, not \(dropped)") }
        let session = SessionHeader(
            name: try fields.require(fields.string("name"), "name"),
            startedAt: try fields.require(fields.time("startedAt"), "startedAt"),
            endedAt: try fields.time("endedAt"),
            status: try fields.status(),
            libraryVersion: try fields.require(fields.string("libraryVersion"), "libraryVersion"),
            appVersion: try fields.string("appVersion"),
            stateType: try fields.require(fields.string("stateType"), "stateType"),
            actionType: try fields.require(fields.string("actionType"), "actionType"),
            effectType: try fields.string("effectType"),
            metadata: try fields.metadata(),
            entryCount: 0,
            droppedCount: Int(dropped),
            lastEntryAt: nil,
            storedUUID: try fields.uuid()
        )
        return session
    }

    /// Reads the line of entry `expected`.
    private func readEntry(_ line: ArraySlice<UInt8>, line number: Int) throws(ActionLogError) -> (Entry, HandlerRecord?) {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: Array(line), maximumDepth: Self.lineDepth)
        } catch {
            throw fail(line: number, entry: expected, "not JSON: \(error)")
        }
        guard case .object(let members) = value else {
            throw fail(line: number, entry: expected, "an entry must be a JSON object, not \(Fields.described(value))")
        }
        var fields = Fields(file: file, members: members, line: number, entry: expected, subject: "the entry")
        let seq = try fields.require(fields.int("seq"), "seq")
        guard seq == Int64(expected) else {
            throw fail(line: number, entry: Int(seq), "entry \(seq) where entry \(expected) was expected: entries run 0, 1, 2, … without holes")
        }
        fields.entry = expected
        let kind = try fields.require(fields.string("kind"), "kind")
        let content: Entry.Content
        do {
            content = try Entry.Content(
                kind: kind, state: kind == Entry.Kind.delta.rawValue ? members["patch"] : members["state"],
                dropped: try fields.int("dropped"), note: try fields.string("note"))
        } catch let problem as EntryProblem {
            throw fields.fail(problem.reason)
        } catch let error as ActionLogError {
            throw error
        } catch {
            throw fields.fail("\(error)")
        }
        var handler: HandlerRecord?
        if let json = members["handler"] {
            do {
                handler = try HandlerRecord(json: json, seq: expected)
            } catch {
                throw fields.fail(error.reason)
            }
        }
        let entry = Entry(seq: expected,
            time: try fields.require(fields.time("time"), "time"),
            label: try fields.string("label"),
            action: members["action"],
            content: content,
            effect: members["effect"],
            reducerDuration: try fields.int("durationNs").map { .nanoseconds($0) }
        )
        return (entry, handler)
    }
}

/// The members of one line, read with errors that name the key, the line and the entry.
private struct Fields {
    let file: String
    let members: [String: JSONValue]
    let line: Int
    var entry: Int?
    /// `the header` or `the entry`, for "has no" messages.
    let subject: String

    func fail(_ reason: String) -> ActionLogError {
        JSONLReader.fail(file, line: line, entry: entry, reason)
    }

    func require<T>(_ value: T?, _ key: String) throws(ActionLogError) -> T {
        guard let value else { throw fail("\(subject) has no \"\(key)\"") }
        return value
    }

    func string(_ key: String) throws(ActionLogError) -> String? {
        guard let value = members[key] else { return nil }
        guard case .string(let string) = value else { throw fail("\"\(key)\" must be a string, not \(Self.described(value))") }
        return string
    }

    func int(_ key: String) throws(ActionLogError) -> Int64? {
        guard let value = members[key] else { return nil }
        guard case .number(let text) = value, let int = Int64(text) else {
            throw fail("\"\(key)\" must be an integer, not \(Self.described(value))")
        }
        return int
    }

    func time(_ key: String) throws(ActionLogError) -> Date? {
        guard let value = members[key] else { return nil }
        switch value {
        case .string(let text):
            if let date = JournalDate.date(text) { return date }
        case .number(let text):
            if let seconds = Double(text), seconds.isFinite { return JSONLTime.date(seconds) }
        default: break
        }
        let shown: String
        if case .string(let text) = value { shown = JSONValue.string(String(text.prefix(40))).canonicalText } else { shown = Self.described(value) }
        throw fail("""
            "\(key)" must be an ISO 8601 time in UTC such as "2026-11-28T12:31:00.123456Z" \
            (or a number of seconds since 1970), not \(shown)
            """)
    }

    func status() throws(ActionLogError) -> SessionHeader.Status {
        let name = try require(string("status"), "status")
        guard let status = SessionHeader.Status(rawValue: name) else {
            throw fail("unknown session status \"\(name)\" (expected recording, closed or interrupted)")
        }
        return status
    }

    /// The session's `uuid`, `nil` when the header has none (a text form written before sessions had ids).
    func uuid() throws(ActionLogError) -> UUID? {
        guard let text = try string("uuid") else { return nil }
        guard let uuid = UUID(uuidString: text) else {
            throw fail("\"uuid\" must be a UUID such as \"5f0c2e1a-9b7d-4c1e-8e8a-3d2b1c0f9a77\", not \(JSONValue.string(String(text.prefix(40))).canonicalText)")
        }
        return uuid
    }

    func metadata() throws(ActionLogError) -> JSONValue {
        guard let value = members["metadata"] else { return [:] }
        guard case .object = value else { throw fail("\"metadata\" must be an object, not \(Self.described(value))") }
        return value
    }

    /// How a value that has the wrong type is named: numbers by their text, anything else by its type.
    static func described(_ value: JSONValue) -> String {
        switch value {
        case .number(let text): text
        case .null: "null"
        case .array, .object: "an \(value.typeName)"
        default: "a \(value.typeName)"
        }
    }
}

// MARK: - Reading a long text file

extension RecordedSession {
    /// Reads a `.jsonl` file an entry at a time, checking each against the rules of a session.
    package struct JSONLStream {
        private var reader: JSONLReader
        private var count = 0

        init(reader: JSONLReader) { self.reader = reader }

        /// The header's session (its entry count is the entries read so far).
        package var session: SessionHeader { reader.session(entryCount: count) }
        /// The file's name.
        package var file: String { reader.file }
        /// The handler records of the entries read so far.
        package var handlers: CollectedHandlers { reader.collected }

        /// The next entry, checked, or `nil` after the last one (when the dropped count is checked).
        package mutating func next() throws(ActionLogError) -> Entry? {
            let entry = try reader.next(checking: true)
            if entry != nil { count += 1 }
            return entry
        }
    }

    /// Opens a `.jsonl` file for reading an entry at a time, reading its header.
    ///
    /// - Throws: ``ActionLogError`` as ``init(contentsOfJSONL:)`` does.
    package static func jsonlReader(at url: URL) throws(ActionLogError) -> JSONLStream {
        JSONLStream(reader: try JSONLReader(url: url))
    }
}
