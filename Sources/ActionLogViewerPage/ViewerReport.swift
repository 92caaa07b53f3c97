import ActionLog
import Foundation

/// Writes the viewer as one self-contained HTML file: the page with a session's data embedded, to
/// open from disk, attach to a bug report or keep beside a failed test. Nothing in it makes a
/// request.
///
/// ```swift
/// try ViewerReport.write(journalPath: "checkout.actionlog", session: 2, to: "checkout.html")
/// ```
///
/// The data is stored as the journal stores it: each entry's timeline row, action and effect, and
/// its state as a keyframe or a delta (the page rebuilds a state from the keyframe before it and the
/// deltas after, as ``Journal/state(at:in:)`` does), with, for a keyframe, its change from the
/// previous state. A report is therefore about as large as the session's rows in the journal; it
/// refuses to grow past ``defaultMaximumBytes`` (64 MiB) of data unless given a larger cap.
public enum ViewerReport {
    /// The most bytes of data a report embeds unless told otherwise: 64 MiB.
    public static let defaultMaximumBytes = 64 << 20

    /// Writes the report of one session of a journal.
    ///
    /// ```swift
    /// try ViewerReport.write(journalPath: "app.actionlog", session: 3, to: "/tmp/session-3.html")
    /// ```
    ///
    /// - Parameters:
    ///   - journalPath: the journal, opened read-only.
    ///   - session: the session's id.
    ///   - path: the HTML file to write (replaced if it exists).
    ///   - maximumBytes: the most bytes of data to embed.
    /// - Throws: ``ActionLogError``: the journal's errors (no such session, a damaged entry, naming
    ///   it); ``ActionLogError/Code/invalidArgument`` when the data would pass `maximumBytes`;
    ///   ``ActionLogError/Code/fileSystem`` when the file cannot be written.
    public static func write(journalPath: String, session id: JournalSession.ID, to path: String, maximumBytes: Int = defaultMaximumBytes) throws(ActionLogError) {
        try write(journalPath: journalPath, session: id, to: path, maximumBytes: maximumBytes, progress: { _ in })
    }

    /// ``write(journalPath:session:to:maximumBytes:)``, telling `progress` how many entries are
    /// embedded so far after each one: for a command that shows how far it got.
    package static func write(
        journalPath: String, session id: JournalSession.ID, to path: String, maximumBytes: Int, progress: (Int) -> Void
    ) throws(ActionLogError) {
        let journal = try Journal(path: journalPath)
        let session = try journal.session(id)
        var builder = ReportBuilder(file: journal.fileName, maximumBytes: maximumBytes)
        // Read a window of entries at a time, as the entries are, not the whole session's at once.
        var handlers = HandlerRecordPager(journal: journal, session: id)
        try builder.beginSession(ViewerJSON.session(session), session: id)
        var cursor = try journal.entryCursor(in: id)
        while let entry = try cursor.next() {
            try builder.add(entry, startedAt: session.startedAt, handler: try handlers.record(at: entry.seq), session: id)
            progress(builder.states.entryCount)
        }
        builder.endSession()
        try builder.finish(open: (String(id), 0), message: nil, title: "\(journal.fileName) — session \(id)", to: path, session: id)
    }

    /// Writes a report of sessions held in memory, under the ids given (the page shows them as
    /// sessions of that id), opening at `open`: how a failed golden assertion shows the recorded and
    /// the replayed session side by side.
    ///
    /// - Parameters:
    ///   - sessions: each session's id in the page and its recording.
    ///   - open: the session and entry the page opens at.
    ///   - message: text shown above the page (the failure message).
    ///   - file: the name the page shows as its file.
    ///   - path: the HTML file to write.
    ///   - maximumBytes: the most bytes of data to embed.
    /// - Throws: ``ActionLogError`` as ``write(journalPath:session:to:maximumBytes:)``.
    package static func write(
        sessions: [(id: String, recording: RecordedSession)], open: (session: String, seq: Int), message: String?, file: String,
        to path: String, maximumBytes: Int = defaultMaximumBytes
    ) throws(ActionLogError) {
        var builder = ReportBuilder(file: file, maximumBytes: maximumBytes)
        for (id, recording) in sessions {
            let session = recording.journalID
            let handlers = recording.handlers.bySeq
            try builder.beginSession(ViewerJSON.session(recording.session, id: id), session: session)
            for entry in recording.entries {
                try builder.add(entry, startedAt: recording.session.startedAt, handler: handlers[entry.seq], session: session)
            }
            builder.endSession()
        }
        try builder.finish(open: open, message: message, title: "\(file) — replay report", to: path, session: nil)
    }
}

/// Accumulates a report's data, counting its bytes against the cap.
struct ReportBuilder {
    let file: String
    let maximumBytes: Int
    private var data: [UInt8] = []
    private var sessions = 0
    private var entries = 0
    /// The states of the session being added, as far as its entries go.
    private(set) var states: StateWalk

    init(file: String, maximumBytes: Int) {
        self.file = file
        self.maximumBytes = maximumBytes
        data = Array(#"{"sessions":["#.utf8)
        states = StateWalk(file: file, session: nil)
    }

    mutating func beginSession(_ json: JSONValue, session: JournalSession.ID?) throws(ActionLogError) {
        if sessions > 0 { data.append(UInt8(ascii: ",")) }
        sessions += 1
        entries = 0
        states = StateWalk(file: file, session: session)
        var object = json.canonicalBytes
        object.removeLast()  // the closing brace: the entries follow as one more member
        data += object
        data += Array(#","data":["#.utf8)
        try checkSize(session: session, entry: nil)
    }

    /// One entry: `[seq, offset, label, kind, reducerNanoseconds, dropped, action, effect, stored,
    /// change, handler, note]`, where `stored` is the keyframe's state or the delta's patch, and
    /// `change` a keyframe's diff from the previous state (`null` otherwise).
    mutating func add(_ entry: Entry, startedAt: Date, handler: HandlerRecord?, session: JournalSession.ID?) throws(ActionLogError) {
        let previous = states.state
        try states.advance(past: entry)
        var row: [JSONValue]
        if case .array(let cells) = ViewerJSON.row(entry.summary, startedAt: startedAt) { row = cells } else { row = [] }
        var change: JSONValue = .null
        if case .keyframe(let state) = entry.content, entry.seq > 0, let previous {
            change = JSONPatch.diff(from: previous, to: state).jsonValue
        }
        row += [
            entry.action ?? .null, entry.effect ?? .null, entry.content.storedJSON ?? .null, change,
            ViewerJSON.handler(handler), entry.content.gap?.note.map(JSONValue.string) ?? .null,
        ]
        if entries > 0 { data.append(UInt8(ascii: ",")) }
        entries += 1
        data += JSONValue.array(row).canonicalBytes
        try checkSize(session: session, entry: entry.seq)
    }

    mutating func endSession() {
        data += Array("]}".utf8)
    }

    private func checkSize(session: JournalSession.ID?, entry: Int?) throws(ActionLogError) {
        guard data.count > maximumBytes else { return }
        throw ActionLogError(
            .invalidArgument, file: file, session: session, entry: entry,
            reason: """
                the report would embed more than \(ByteCount.format(maximumBytes)) of data\(entry == nil ? " before the first entry" : ""); \
                raise the cap (replay-cli report --max-bytes), or view the session with replay-cli serve
                """)
    }

    mutating func finish(open: (session: String, seq: Int), message: String?, title: String, to path: String, session: JournalSession.ID?) throws(ActionLogError) {
        data += Array("],".utf8)
        let tail: JSONValue = .object([
            "file": .string(file),
            "open": .object(["session": .string(open.session), "seq": ViewerJSON.number(open.seq)]),
            "message": message.map(JSONValue.string) ?? .null,
        ])
        var members = tail.canonicalBytes
        members.removeFirst()  // the opening brace: these members close the document
        data += members
        let page = ViewerPage.bytes(embedding: ViewerPage.escapedForScript(data), title: title)
        do {
            // Readable by its owner alone, as every file holding recorded data (see PrivateFile).
            try PrivateFile.write(page, replacing: path)
        } catch {
            throw ActionLogError(.fileSystem, file: file, session: session, reason: "cannot write the report to \(path): \(error.reason)")
        }
    }
}

/// `64 MiB`, `1.5 KiB`: a size for people.
enum ByteCount {
    static func format(_ bytes: Int) -> String {
        let value = Double(bytes)
        if bytes >= 1 << 20 { return String(format: "%.1f MiB", value / 1_048_576).replacingOccurrences(of: ".0 ", with: " ") }
        if bytes >= 1 << 10 { return String(format: "%.1f KiB", value / 1024).replacingOccurrences(of: ".0 ", with: " ") }
        return "\(bytes) bytes"
    }
}
