/// A whole session in memory, its metadata and every entry: what a replay reads, what a golden
/// file holds, and what `replay-cli export` writes as text.
///
/// Read one from a journal with ``Journal/recordedSession(_:)``, or from the JSONL text form
/// (see `RecordedSession+JSONL.swift`).
///
/// ```swift
/// let recorded = try Journal(path: "app.actionlog").recordedSession(3)
/// print(recorded.session.name, recorded.entries.count)
/// ```
public struct RecordedSession: Sendable, Hashable {
    /// The session's metadata. For a session read from a text file, ``JournalSession/id`` is 0: ids belong
    /// to a journal, and the text form does not carry one.
    public var session: JournalSession
    /// Every entry, in order, entry 0 (the initial state) first, gaps included.
    public var entries: [Entry]
    /// The name of the file it was read from, for messages: `checkout.actionlog` or `checkout.jsonl`.
    public var file: String
    /// What the asynchronous handlers of an actor or event ViewModel did, one record per entry with
    /// an action, by seq: their run order, service calls and output events. Empty for a reducer's session.
    package var handlers: [HandlerRecord] = []

    /// Makes a recorded session from its parts.
    ///
    /// - Parameters:
    ///   - session: the session's metadata.
    ///   - entries: its entries in order.
    ///   - file: the file name messages name.
    package init(session: JournalSession, entries: [Entry], file: String) {
        self.session = session
        self.entries = entries
        self.file = file
    }

    /// How messages name the session: `session 3 "checkout"`, or `session "checkout"` when it came
    /// from a text file. The name is quoted as a JSON string, so quotes in it are escaped.
    package var displayName: String {
        var quoted: [UInt8] = []
        JSONValue.writeString(session.name, to: &quoted)
        let name = String(decoding: quoted, as: UTF8.self)
        return session.id == 0 ? "session \(name)" : "session \(session.id) \(name)"
    }
}
