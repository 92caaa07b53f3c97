import Foundation

/// The text form of a session (JSONL): a header line with the session's metadata, then one line per
/// entry. The file-format article of the DocC catalog, "Text form (JSONL)", documents it for people.
///
/// Keys are written in a fixed order (not sorted) so that lines read like a record; nested values
/// (actions, states, patches, effects, metadata) are canonical JSON. One entry per line, so that
/// `git diff` of a golden file shows one changed line per entry whose behaviour changed.
extension RecordedSession {
    /// Whether `path` names a session's text form, by its extension (`.jsonl`, in any case): how the
    /// golden code and every command that reads a journal or a text form tell them apart.
    package static func isTextFormPath(_ path: String) -> Bool {
        URL(fileURLWithPath: path).pathExtension.lowercased() == "jsonl"
    }

    /// The version of the text form this ActionLog writes, and the newest it reads (`"format"` in the header).
    package static let jsonlFormatVersion = 1

    /// The JSONL text: the header line, then one line per entry; every line ends with `"\n"`.
    ///
    /// ```swift
    /// let recorded = try Journal(path: "app.actionlog").recordedSession(3)
    /// try recorded.jsonl().write(toFile: "checkout.jsonl", atomically: true, encoding: .utf8)
    /// ```
    ///
    /// Reading the text back with ``init(jsonl:file:)`` and writing it again gives the same bytes.
    /// To write a long session without holding its text, use ``Journal/exportJSONL(_:to:)``.
    package func jsonl() -> String {
        var output: [UInt8] = []
        output.reserveCapacity(256 * (entries.count + 1))
        var writer = JSONLWriter()
        writer.header(session)
        let handlers = self.handlers.bySeq
        for entry in entries {
            writer.entry(entry, handler: handlers[entry.seq])
            output.append(contentsOf: writer.buffer)
            writer.buffer.removeAll(keepingCapacity: true)
        }
        output.append(contentsOf: writer.buffer)
        return String(decoding: output, as: UTF8.self)
    }

    /// Reads the text form written by ``jsonl()``.
    ///
    /// Keys may come in any order and unknown keys are ignored, so files written by a later ActionLog
    /// of the same format version still read. Its ``source`` is the file: ids belong to a journal.
    ///
    /// ```swift
    /// let recorded = try RecordedSession(jsonl: text, file: "checkout.jsonl")
    /// ```
    ///
    /// - Parameters:
    ///   - text: the JSONL text. Lines may end with `"\n"` or `"\r\n"`; blank lines at the end are ignored.
    ///     A line may hold at most 256 MiB (268,435,456 bytes, its line ending not counted); a longer
    ///     one is refused as ``ActionLogError/Code/corrupt``, naming the line.
    ///   - file: the file's name, for errors.
    /// - Throws: ``ActionLogError`` naming the file, the entry and the line: ``ActionLogError/Code/newerSchema``
    ///   for a file written by a newer ActionLog, ``ActionLogError/Code/corrupt`` for anything else that is
    ///   not a session in text form, e.g. `checkout.jsonl, entry 4: line 6: a delta without a "patch"`.
    package init(jsonl text: String, file: String) throws(ActionLogError) {
        var reader = try JSONLReader(source: ByteLines(bytes: Array(text.utf8)), file: file)
        self = try reader.readAll()
    }

    /// Reads a `.jsonl` file from disk. See ``init(jsonl:file:)``.
    ///
    /// ```swift
    /// let recorded = try RecordedSession(contentsOfJSONL: URL(fileURLWithPath: "fixtures/checkout.jsonl"))
    /// ```
    ///
    /// - Parameter url: the file.
    /// - Throws: ``ActionLogError`` with code ``ActionLogError/Code/fileNotFound`` when there is no such file,
    ///   ``ActionLogError/Code/fileSystem`` when it cannot be read, or what ``init(jsonl:file:)`` throws.
    package init(contentsOfJSONL url: URL) throws(ActionLogError) {
        var reader = try JSONLReader(url: url)
        self = try reader.readAll()
    }
}


// MARK: - Times

/// Times in the text form: ISO 8601 text in UTC with microseconds (``JournalDate``), as dates in
/// journaled values; files written before hold seconds since 1970 as a JSON number, which still read.
enum JSONLTime {
    /// The time as JSON: `"2026-11-28T12:31:00.123456Z"`. A time whose year is outside 0001...9999
    /// is written as before, Swift's shortest round-trip description of `timeIntervalSince1970`
    /// (`-1.5e+20`), a valid JSON number for every finite value. A time that is not finite cannot be
    /// a JSON number: it is written as a string (`"inf"`), which keeps the line valid JSON and makes
    /// reading it refuse the file with a message naming the line.
    static func text(_ date: Date) -> String {
        if let text = JournalDate.text(date) { return "\"\(text)\"" }
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite else { return "\"\(seconds)\"" }
        return seconds.description
    }

    /// Whether two times in seconds since 1970 are the same in the text form (to the microsecond).
    static func same(_ a: Double, _ b: Double) -> Bool {
        a == b || text(Date(timeIntervalSince1970: a)) == text(Date(timeIntervalSince1970: b))
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

