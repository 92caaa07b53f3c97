/// A whole session in memory, its header and every entry: what a replay reads, what a golden
/// file holds, and what `replay-cli export` writes as text.
///
/// Read one from a journal with ``Journal/recordedSession(_:)``, or from the JSONL text form with
/// `RecordedSession(contentsOfJSONL:)`. Its ``source`` says which, and how messages name it.
///
/// ```swift
/// let recorded = try Journal(path: "app.actionlog").recordedSession(3)
/// print(recorded.session.name, recorded.entries.count)
/// ```
public struct RecordedSession: Sendable, Hashable {
    /// Where a session was read from: a session of a journal, known by its id there, or a text
    /// file, which carries no id.
    public enum Source: Sendable, Hashable {
        /// Session `id` of the journal named `file`.
        case journal(file: String, id: JournalSession.ID)
        /// The text form in the file named by the string: `checkout.jsonl`.
        case textFile(String)

        /// The file's name.
        package var file: String {
            switch self {
            case .journal(let file, _), .textFile(let file): file
            }
        }

        /// The session's id in its journal, or `nil` for a text file.
        package var journalID: JournalSession.ID? {
            if case .journal(_, let id) = self { id } else { nil }
        }
    }

    /// Where the session was read from.
    public var source: Source
    /// What the session records about itself besides its entries.
    public var session: SessionHeader
    /// Every entry, in order, entry 0 (the initial state) first, gaps included.
    public var entries: [Entry]
    /// What the asynchronous handlers of an actor or event ViewModel did, one record per entry with
    /// an action, by seq: their run order, service calls and output events. Empty for a reducer's session.
    package var handlers: [HandlerRecord] = []

    /// Makes a recorded session from its parts.
    ///
    /// - Parameters:
    ///   - session: the session's header.
    ///   - entries: its entries in order.
    ///   - source: where it was read from.
    package init(session: SessionHeader, entries: [Entry], source: Source) {
        self.session = session
        self.entries = entries
        self.source = source
    }

    /// The name of the file it was read from, for messages: `checkout.actionlog` or `checkout.jsonl`.
    package var file: String { source.file }

    /// The session's id in its journal, or `nil` for a text file: how messages locate the session.
    package var journalID: JournalSession.ID? { source.journalID }

    /// How messages name the session: `session 3 "checkout"`, or `session "checkout"` when it came
    /// from a text file. The name is quoted as a JSON string, so quotes in it are escaped.
    package var displayName: String {
        var quoted: [UInt8] = []
        JSONValue.writeString(session.name, to: &quoted)
        let name = String(decoding: quoted, as: UTF8.self)
        return journalID.map { "session \($0) \(name)" } ?? "session \(name)"
    }
}
