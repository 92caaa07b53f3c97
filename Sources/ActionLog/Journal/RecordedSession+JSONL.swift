import Foundation

/// The text form of a session (JSONL): a header line with the session's metadata, then one line per
/// entry. `docs/SCHEMA.md`, "Text form (JSONL)", documents it for people.
///
/// Keys are written in a fixed order (not sorted) so that lines read like a record; nested values
/// (actions, states, patches, effects, metadata) are canonical JSON. One entry per line, so that
/// `git diff` of a golden file shows one changed line per entry whose behaviour changed.
extension RecordedSession {
    /// The version of the text form this ActionLog writes, and the newest it reads (`"format"` in the header).
    public static let jsonlFormatVersion = 1

    /// The JSONL text: the header line, then one line per entry; every line ends with `"\n"`.
    ///
    /// ```swift
    /// let recorded = try Journal(path: "app.actionlog").recordedSession(3)
    /// try recorded.jsonl().write(toFile: "checkout.jsonl", atomically: true, encoding: .utf8)
    /// ```
    ///
    /// Reading the text back with ``init(jsonl:file:)`` and writing it again gives the same bytes.
    public func jsonl() -> String {
        var output: [UInt8] = []
        output.reserveCapacity(256 * (entries.count + 1))
        var header = JSONLLineWriter(into: output)
        header.add("actionlog", "\"session\"")
        header.add("format", String(Self.jsonlFormatVersion))
        header.add("name", string: session.name)
        header.add("status", string: session.status.rawValue)
        header.add("startedAt", time: session.startedAt)
        header.add("endedAt", time: session.endedAt)
        header.add("libraryVersion", string: session.libraryVersion)
        header.add("appVersion", string: session.appVersion)
        header.add("stateType", string: session.stateType)
        header.add("actionType", string: session.actionType)
        header.add("effectType", string: session.effectType)
        header.add("dropped", String(session.droppedCount))
        header.add("metadata", json: session.metadata)
        output = header.finish()
        for entry in entries {
            var line = JSONLLineWriter(into: output)
            line.add("seq", String(entry.seq))
            line.add("kind", string: entry.kind.rawValue)
            line.add("label", string: entry.label)
            line.add("time", time: entry.time)
            line.add("durationNs", entry.durationNanoseconds.map { String($0) })
            line.add("action", json: entry.action)
            line.add("effect", json: entry.effect)
            line.add(entry.kind == .delta ? "patch" : "state", json: entry.state)
            line.add("dropped", entry.dropped.map { String($0) })
            line.add("note", string: entry.note)
            output = line.finish()
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Reads the text form written by ``jsonl()``.
    ///
    /// Keys may come in any order and unknown keys are ignored, so files written by a later ActionLog
    /// of the same format version still read. The session's ``Session/id`` is 0: ids belong to a journal.
    ///
    /// ```swift
    /// let recorded = try RecordedSession(jsonl: text, file: "checkout.jsonl")
    /// ```
    ///
    /// - Parameters:
    ///   - text: the JSONL text. Lines may end with `"\n"` or `"\r\n"`; blank lines at the end are ignored.
    ///   - file: the file's name, for errors.
    /// - Throws: ``JournalError`` naming the file, the entry and the line: ``JournalError/Code/newerSchema``
    ///   for a file written by a newer ActionLog, ``JournalError/Code/corrupt`` for anything else that is
    ///   not a session in text form, e.g. `checkout.jsonl, entry 4: line 6: a delta without a "patch"`.
    public init(jsonl text: String, file: String) throws(JournalError) {
        self = try JSONLReader(bytes: Array(text.utf8), file: file).read()
    }

    /// Reads a `.jsonl` file from disk. See ``init(jsonl:file:)``.
    ///
    /// ```swift
    /// let recorded = try RecordedSession(contentsOfJSONL: URL(fileURLWithPath: "fixtures/checkout.jsonl"))
    /// ```
    ///
    /// - Parameter url: the file.
    /// - Throws: ``JournalError`` with code ``JournalError/Code/fileNotFound`` when there is no such file,
    ///   ``JournalError/Code/fileSystem`` when it cannot be read, or what ``init(jsonl:file:)`` throws.
    public init(contentsOfJSONL url: URL) throws(JournalError) {
        let file = url.lastPathComponent
        let shown = url.relativePath  // As it was given: `nope.jsonl` rather than the whole path from the working directory.
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw JournalError(.fileNotFound, file: file, reason: "no such file (looked for \(shown))")
        }
        guard !isDirectory.boolValue else {
            throw JournalError(.notAJournal, file: file, reason: "a directory, not an ActionLog session in text form (\(shown))")
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw JournalError(.fileSystem, file: file, reason: "cannot read \(shown): \(error.localizedDescription)")
        }
        self = try JSONLReader(bytes: Array(data), file: file).read()
    }
}

// MARK: - Durations

extension Entry {
    /// ``reducerDuration`` in whole nanoseconds, as the journal stores it (clamped to `Int64`).
    var durationNanoseconds: Int64? {
        reducerDuration.map { duration in
            let (seconds, overflow) = duration.components.seconds.multipliedReportingOverflow(by: 1_000_000_000)
            guard !overflow else { return duration.components.seconds < 0 ? .min : .max }
            let (total, sumOverflow) = seconds.addingReportingOverflow(duration.components.attoseconds / 1_000_000_000)
            guard !sumOverflow else { return seconds < 0 ? .min : .max }
            return total
        }
    }
}

// MARK: - Times

/// Times in the text form: seconds since 1970 as a JSON number.
enum JSONLTime {
    /// The time as JSON: Swift's shortest round-trip description of `timeIntervalSince1970`
    /// (`1795242001.330305`, `978307200.0`, `1e-05`, `-1.5e+20`), which is already a valid JSON number
    /// for every finite value (digits before any point, exponents written `e-05` / `e+16`). A time
    /// that is not finite cannot be a JSON number: it is written as a string (`"inf"`), which keeps
    /// the line valid JSON and makes reading it refuse the file with a message naming the line.
    static func text(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite else { return "\"\(seconds)\"" }
        return seconds.description
    }

    /// The `Date` whose ``text(_:)`` is `seconds` again.
    ///
    /// A `Date` counts seconds since 2001 internally, so converting from seconds since 1970 rounds.
    /// Every value ``text(_:)`` wrote comes from some `Date`, and `Date(timeIntervalSince1970:)` finds
    /// one that converts back to exactly the same `Double`; the neighbours are tried too in case a
    /// platform rounds differently. A hand-written time no `Date` can hold exactly (`1e-05`) gets
    /// the nearest one, and from then on round-trips exactly.
    static func date(_ seconds: Double) -> Date {
        let date = Date(timeIntervalSince1970: seconds)
        guard date.timeIntervalSince1970 != seconds else { return date }
        var below = date.timeIntervalSinceReferenceDate
        var above = below
        for _ in 0..<4 {
            below = below.nextDown
            above = above.nextUp
            for candidate in [below, above] where Date(timeIntervalSinceReferenceDate: candidate).timeIntervalSince1970 == seconds {
                return Date(timeIntervalSinceReferenceDate: candidate)
            }
        }
        return date
    }
}

// MARK: - Writing

/// Writes one JSON object on one line, keys in the order they are added, absent values left out.
private struct JSONLLineWriter {
    private var output: [UInt8]
    private var isFirst = true

    init(into output: [UInt8]) {
        self.output = output
        self.output.append(UInt8(ascii: "{"))
    }

    /// Adds `"key":text`, where `text` is already JSON; nothing when `text` is `nil`.
    mutating func add(_ key: String, _ text: String?) {
        guard let text else { return }
        if !isFirst { output.append(UInt8(ascii: ",")) }
        isFirst = false
        JSONValue.writeString(key, to: &output)
        output.append(UInt8(ascii: ":"))
        output.append(contentsOf: text.utf8)
    }

    mutating func add(_ key: String, string: String?) {
        guard let string else { return }
        var quoted: [UInt8] = []
        JSONValue.writeString(string, to: &quoted)
        add(key, String(decoding: quoted, as: UTF8.self))
    }

    mutating func add(_ key: String, time: Date?) {
        add(key, time.map(JSONLTime.text))
    }

    mutating func add(_ key: String, json: JSONValue?) {
        add(key, json?.canonicalText)
    }

    /// Closes the object and the line; returns everything written so far.
    mutating func finish() -> [UInt8] {
        output.append(UInt8(ascii: "}"))
        output.append(UInt8(ascii: "\n"))
        return output
    }
}

// MARK: - Reading

/// Reads the text form line by line. Every error names the file, the entry (when known) and the line.
private struct JSONLReader {
    let file: String
    /// The lines without their `\n` or `\r\n`, blank lines at the end removed.
    let lines: [ArraySlice<UInt8>]

    init(bytes: [UInt8], file: String) {
        self.file = file
        var text = bytes[...]
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { text = text.dropFirst(3) }  // A byte-order mark some editors add.
        var lines = text.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            line.last == 0x0D ? line.dropLast() : line
        }
        while let last = lines.last, Self.isBlank(last) { lines.removeLast() }
        self.lines = lines
    }

    static func isBlank(_ line: ArraySlice<UInt8>) -> Bool {
        line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }

    func fail(_ code: JournalError.Code = .corrupt, line: Int, entry: Int?, _ reason: String) -> JournalError {
        JournalError(code, file: file, entry: entry, reason: "line \(line): \(reason)")
    }

    func read() throws(JournalError) -> RecordedSession {
        guard let first = lines.first else {
            throw fail(line: 1, entry: nil, "the file is empty, so not an ActionLog session")
        }
        let h = try readHeader(first)
        var entries: [Entry] = []
        entries.reserveCapacity(lines.count - 1)
        for (index, line) in lines.enumerated().dropFirst() {
            entries.append(try readEntry(line, line: index + 1, expected: index - 1))
        }
        let session = Session(
            id: 0, name: h.name, startedAt: h.startedAt, endedAt: h.endedAt, status: h.status,
            libraryVersion: h.libraryVersion, appVersion: h.appVersion, stateType: h.stateType,
            actionType: h.actionType, effectType: h.effectType, metadata: h.metadata,
            entryCount: entries.count, droppedCount: h.droppedCount, lastEntryAt: entries.map(\.time).max()
        )
        return RecordedSession(session: session, entries: entries, file: file)
    }

    /// Reads line 1: a header of a format this ActionLog reads. The entry count is filled in later.
    private func readHeader(_ line: ArraySlice<UInt8>) throws(JournalError) -> Session {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: Array(line))
        } catch {
            throw fail(line: 1, entry: nil, "not an ActionLog session header: \(error)")
        }
        guard case .object(let members) = value, members["actionlog"] == .string("session") else {
            throw fail(line: 1, entry: nil, #"not an ActionLog session header (it has no "actionlog":"session")"#)
        }
        let fields = Fields(reader: self, members: members, line: 1, entry: nil, subject: "the header")
        let format = try fields.require(fields.int("format"), "format")
        guard format <= RecordedSession.jsonlFormatVersion else {
            throw fail(.newerSchema, line: 1, entry: nil, """
                written by a newer ActionLog (text format \(format)), but this ActionLog reads text formats up to \
                \(RecordedSession.jsonlFormatVersion); update ActionLog to read it
                """)
        }
        guard format >= 1 else { throw fail(line: 1, entry: nil, "unknown text format \(format)") }
        return Session(
            id: 0,
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
            droppedCount: Int(try fields.int("dropped") ?? 0),
            lastEntryAt: nil
        )
    }

    /// Reads the line of entry `expected`.
    private func readEntry(_ line: ArraySlice<UInt8>, line number: Int, expected: Int) throws(JournalError) -> Entry {
        guard !Self.isBlank(line) else {
            throw fail(line: number, entry: expected, "a blank line; after the header, every line holds one entry")
        }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: Array(line))
        } catch {
            throw fail(line: number, entry: expected, "not JSON: \(error)")
        }
        guard case .object(let members) = value else {
            throw fail(line: number, entry: expected, "an entry must be a JSON object, not \(Fields.described(value))")
        }
        var fields = Fields(reader: self, members: members, line: number, entry: expected, subject: "the entry")
        let seq = Int(try fields.require(fields.int("seq"), "seq"))
        guard seq == expected else {
            throw fail(line: number, entry: seq, "entry \(seq) where entry \(expected) was expected: entries run 0, 1, 2, … without holes")
        }
        fields.entry = seq
        let kindName = try fields.require(fields.string("kind"), "kind")
        guard let kind = Entry.Kind(rawValue: kindName) else {
            throw fields.fail("unknown entry kind \"\(kindName)\" (expected keyframe, delta or gap)")
        }
        let state: JSONValue?
        switch kind {
        case .keyframe:
            guard let full = members["state"] else { throw fields.fail(#"a keyframe without a "state""#) }
            state = full
        case .delta:
            guard let patch = members["patch"] else { throw fields.fail(#"a delta without a "patch""#) }
            guard case .array = patch else {
                throw fields.fail(#"the "patch" of a delta must be an array (an RFC 6902 JSON Patch), not "# + Fields.described(patch))
            }
            state = patch
        case .gap:
            state = members["state"]
        }
        return Entry(
            session: 0, seq: seq, kind: kind,
            time: try fields.require(fields.time("time"), "time"),
            label: try fields.string("label"),
            action: members["action"],
            state: state,
            effect: members["effect"],
            reducerDuration: try fields.int("durationNs").map { .nanoseconds($0) },
            dropped: try fields.int("dropped").map { Int($0) },
            note: try fields.string("note")
        )
    }
}

/// The members of one line, read with errors that name the key, the line and the entry.
private struct Fields {
    let reader: JSONLReader
    let members: [String: JSONValue]
    let line: Int
    var entry: Int?
    /// `the header` or `the entry`, for "has no" messages.
    let subject: String

    func fail(_ reason: String) -> JournalError {
        reader.fail(line: line, entry: entry, reason)
    }

    func require<T>(_ value: T?, _ key: String) throws(JournalError) -> T {
        guard let value else { throw fail("\(subject) has no \"\(key)\"") }
        return value
    }

    func string(_ key: String) throws(JournalError) -> String? {
        guard let value = members[key] else { return nil }
        guard case .string(let string) = value else { throw fail("\"\(key)\" must be a string, not \(Self.described(value))") }
        return string
    }

    func int(_ key: String) throws(JournalError) -> Int64? {
        guard let value = members[key] else { return nil }
        guard case .number(let text) = value, let int = Int64(text) else {
            throw fail("\"\(key)\" must be an integer, not \(Self.described(value))")
        }
        return int
    }

    func time(_ key: String) throws(JournalError) -> Date? {
        guard let value = members[key] else { return nil }
        guard case .number(let text) = value, let seconds = Double(text), seconds.isFinite else {
            throw fail("\"\(key)\" must be a number of seconds since 1970, not \(Self.described(value))")
        }
        return JSONLTime.date(seconds)
    }

    func status() throws(JournalError) -> Session.Status {
        let name = try require(string("status"), "status")
        guard let status = Session.Status(rawValue: name) else {
            throw fail("unknown session status \"\(name)\" (expected recording, closed or interrupted)")
        }
        return status
    }

    func metadata() throws(JournalError) -> JSONValue {
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
