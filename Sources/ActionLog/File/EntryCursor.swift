/// Reads a session's entries in order, a page of rows at a time: memory stays bounded however long
/// the session. Get one from ``Journal/entryCursor(in:from:)``.
///
/// ```swift
/// var cursor = try journal.entryCursor(in: id)
/// while let entry = try cursor.next() {
///     print(entry.seq, entry.label ?? "initial")
/// }
/// ```
///
/// Each page is read by primary key in its own short read, so a cursor never holds the journal
/// locked while its caller works, and a recorder writing meanwhile is not held up.
public struct EntryCursor: Sendable {
    /// Rows per page: large enough that the per-read overhead vanishes, small enough to stay in cache.
    static let pageSize = 512

    private let journal: Journal
    private let session: JournalSession.ID
    private var nextSeq: Int?
    /// The rows of the page not handed out yet, the next one last: each leaves by `popLast()`, moved
    /// out rather than copied, so that its columns are not retained and released once more.
    private var page: [RawEntry] = []
    private var exhausted = false
    /// Whether the rows read carry their states: a timeline's do not (see ``TimelineCursor``).
    private let readingStates: Bool
    /// Rows still to read when the caller wants only so many; `nil` for the rest of the session.
    private var remaining: Int?

    init(journal: Journal, session: JournalSession.ID, from seq: Int, readingStates: Bool = true, limit: Int? = nil) {
        self.readingStates = readingStates
        self.remaining = limit.map { max(0, $0) }
        self.journal = journal
        self.session = session
        self.nextSeq = max(0, seq)
    }

    /// The next entry, parsed, or `nil` after the last one.
    ///
    /// A row that does not parse is passed over once reported: the call after the error reads the
    /// row after it. An error reading the rows themselves (a damaged index, a page SQLite cannot
    /// read) ends the cursor.
    ///
    /// - Throws: ``ActionLogError`` naming the entry when its row cannot be read.
    public mutating func next() throws(ActionLogError) -> Entry? {
        guard let raw = try nextRaw() else { return nil }
        return try raw.parsed(file: journal.fileName)
    }

    /// The next entry, parsed except a keyframe's state, whose stored text comes beside it: for a
    /// walk that parses keyframes only when it needs them (``StateWalk/advance(past:keyframeText:)``).
    ///
    /// - Throws: ``ActionLogError`` naming the entry when its row cannot be read.
    package mutating func nextDeferringKeyframe() throws(ActionLogError) -> (entry: Entry, keyframeText: [UInt8]?)? {
        guard let raw = try nextRaw() else { return nil }
        return try raw.parsedDeferringKeyframe(file: journal.fileName)
    }

    /// The journal's file name, for messages.
    var fileName: String { journal.fileName }

    /// The next row as stored, not parsed: for readers that must go on past a damaged row.
    mutating func nextRaw() throws(ActionLogError) -> RawEntry? {
        if page.isEmpty {
            guard !exhausted, let from = nextSeq, remaining != 0 else { return nil }
            // A caller that wants a few rows (one entry) reads only those, not a whole page.
            let size = min(Self.pageSize, remaining ?? Self.pageSize)
            do {
                page = try journal.rawPage(session: session, from: from, limit: size, readingStates: readingStates)
            } catch {
                // Rows that cannot be read end the cursor: reading them again would fail again, so a
                // reader that goes on past errors stops here instead of asking for ever.
                exhausted = true
                throw error
            }
            exhausted = page.count < size
            remaining = remaining.map { $0 - page.count }
            guard let last = page.last else { return nil }
            if !last.seqIsNumber {
                // Text or a blob, which SQLite orders after every number and reads as 0 (or its
                // leading digits): nothing can follow it by value. The readers name the row.
                exhausted = true
            } else if last.seq < Int64(from) {
                // Only a damaged index answers "the entries from `from` on" with one before it:
                // going on from there would read the same rows again and again.
                exhausted = true
                page = []
                throw ActionLogError(.corrupt, file: journal.fileName, session: session, entry: from, reason: """
                    the entries' index is damaged: asked for the entries from \(from) on, it answered entry \(last.seq) last
                    """)
            } else {
                // Keyed by sequence number: a row at Int64.max ends the session.
                nextSeq = Int(last.seq).successor
            }
            page.reverse()
        }
        return page.popLast()
    }
}

/// Reads a session's timeline in order, a page of rows at a time, without their states: each entry
/// as ``EntrySummary``. Get one from `Journal.timelineCursor(in:from:limit:)`.
package struct TimelineCursor: Sendable {
    private var rows: EntryCursor

    init(journal: Journal, session: JournalSession.ID, from seq: Int, limit: Int?) {
        rows = EntryCursor(journal: journal, session: session, from: seq, readingStates: false, limit: limit)
    }

    /// The next entry, or `nil` after the last one; a row that does not parse is passed over once
    /// reported, as ``EntryCursor/next()`` does.
    ///
    /// - Throws: ``ActionLogError`` naming the entry when its row cannot be read.
    package mutating func next() throws(ActionLogError) -> EntrySummary? {
        guard let raw = try rows.nextRaw() else { return nil }
        return try raw.summary(file: rows.fileName)
    }

    /// What ``next(keeping:)`` read: an entry the filter kept, or the sequence number of one it
    /// passed over without parsing it.
    package enum Filtered {
        case kept(EntrySummary)
        case passed(seq: Int)
    }

    /// The next entry, parsed only when `keeps` keeps it, given the row's stored kind and label: a
    /// filtered timeline parses none of the actions it leaves out, so a damaged one fails nothing.
    /// A row whose sequence number is not stored as an integer is always parsed, to be named.
    ///
    /// - Parameter keeps: whether an entry of that kind and label is wanted.
    /// - Throws: ``ActionLogError`` naming the entry when a kept row cannot be read.
    package mutating func next(keeping keeps: (_ kind: String, _ label: String?) -> Bool) throws(ActionLogError) -> Filtered? {
        guard let raw = try rows.nextRaw() else { return nil }
        if raw.misstored == nil, raw.seq >= 0, !keeps(raw.stored.kind, raw.stored.label) { return .passed(seq: Int(raw.seq)) }
        return .kept(try raw.summary(file: rows.fileName))
    }
}
