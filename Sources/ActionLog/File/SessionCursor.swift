/// Reads a journal's sessions in order of their ids (oldest first), a page of rows at a time:
/// memory stays bounded however many sessions the file holds. Get one from
/// ``Journal/sessionCursor()``.
///
/// ```swift
/// var cursor = journal.sessionCursor()
/// while let session = try cursor.next() {
///     print(session.id, session.name)
/// }
/// ```
public struct SessionCursor: Sendable {
    /// Rows per page: the per-read overhead vanishes, and a page of sessions stays small.
    static let pageSize = 512

    private let journal: Journal
    /// The id of the last row read, which the next page starts after; `nil` before the first page.
    private var lastID: JournalSession.ID?
    /// The rows of the page not handed out yet, the next one last.
    private var page: [Result<JournalSession, ActionLogError>] = []
    private var exhausted = false

    init(journal: Journal) {
        self.journal = journal
    }

    /// The next session, or `nil` after the last one.
    ///
    /// A damaged session row (an unknown status, a time that is not a number, metadata that is not
    /// JSON) is reported by the error it throws; the call after the error reads the row after it.
    ///
    /// - Throws: ``ActionLogError`` naming the file and the session when its row cannot be read.
    public mutating func next() throws(ActionLogError) -> JournalSession? {
        guard let row = try nextRow() else { return nil }
        return try row.get()
    }

    /// The next session row, read or the error that names it, or `nil` after the last one: for the
    /// readers that go on past a damaged row (`verify`, the CLI's lists).
    ///
    /// - Throws: ``ActionLogError`` when the rows themselves cannot be read; the cursor then ends.
    package mutating func nextRow() throws(ActionLogError) -> Result<JournalSession, ActionLogError>? {
        if page.isEmpty {
            guard !exhausted else { return nil }
            let rows: [(id: JournalSession.ID, row: Result<JournalSession, ActionLogError>)]
            do {
                rows = try journal.sessionPage(after: lastID, limit: Self.pageSize)
            } catch {
                exhausted = true
                throw error
            }
            exhausted = rows.count < Self.pageSize
            guard let last = rows.last else { return nil }
            // Ids are the table's integer keys, read in ascending order: only a damaged index answers
            // with one not after the last, and nothing follows the greatest id.
            if let lastID, last.id <= lastID { exhausted = true }
            if last.id == .max { exhausted = true }
            lastID = last.id
            page = rows.reversed().map(\.row)
        }
        return page.popLast()
    }
}
