import Foundation

/// The change index: for each entry, the paths of the state its change touched, so that "which
/// entries changed `/cart/total`" is a lookup by path rather than a walk of the session.
///
/// Three tables, added to a journal of the current version without changing it (``Schema/additions``):
/// `change_paths` gives each path (a JSON Pointer's text) a number once per journal; `changes`
/// holds one row per entry and path it touched, keyed by session, path and entry; `change_index`
/// lists the sessions whose rows are complete, with their start time (so that rows left by a session
/// an older ActionLog removed are never taken for those of the session that reused its id).
///
/// What an entry touched is the paths of the operations of its change from the state before it
/// (cut to their parents when there are more than ``ChangeIndex/pathsPerEntry``):
/// its delta, or for a keyframe the change the writer computed (or a reader diffs). Beside each
/// path, an `add` or `remove` that may shift the elements of an array after it (one not at the
/// array's end) touches the array too, and a `move` or `copy` touches its source and both arrays.
/// Where what changed is not known (the first entry after a failed write), the entry touched the
/// root, `""`. A reader lists an entry for a path when it touched the path, a parent or a child of
/// it, and the value there differs before and after: the index may list more entries than changed
/// the value, never fewer.
enum ChangeIndex {
    /// The path stored for an entry whose change is not known: every path's parent.
    static let unknownChange = ""

    /// The paths `patch` touches, as stored: each operation's path, the source of a `move` or `copy`,
    /// and the array of an insertion or removal that shifts elements after it. `after` is the state
    /// the patch produced, used to tell an append (which shifts nothing) from an insertion; `nil`
    /// counts every insertion and removal as shifting.
    ///
    /// - Parameters:
    ///   - patch: an entry's change.
    ///   - after: the state after it.
    static func paths(of patch: JSONPatch, after: JSONValue?) -> [String] {
        var paths: Set<String> = []
        func touch(_ pointer: JSONPointer) { paths.insert(pointer.description) }
        func touchShiftedArray(_ pointer: JSONPointer, removal: Bool) {
            guard let index = pointer.tokens.last, !pointer.isRoot, index == "-" || JSONPointer.arrayIndex(index) != nil else { return }
            let parent = JSONPointer(tokens: Array(pointer.tokens.dropLast()))
            if index == "-" { return }  // Appended: nothing shifts.
            if let after, case .array(let elements)? = after.value(at: parent), let position = JSONPointer.arrayIndex(index) {
                // An insertion at the end, or the removal of the last element, shifts nothing.
                if removal ? position == elements.count : position == elements.count - 1 { return }
            }
            touch(parent)
        }
        for operation in patch.operations {
            switch operation {
            case .add(let path, _):
                touch(path)
                touchShiftedArray(path, removal: false)
            case .remove(let path):
                touch(path)
                touchShiftedArray(path, removal: true)
            case .replace(let path, _):
                touch(path)
            case .move(let from, let path):
                touch(from)
                touch(path)
                touchShiftedArray(from, removal: true)
                touchShiftedArray(path, removal: false)
            case .copy(_, let path):
                touch(path)
                touchShiftedArray(path, removal: false)
            case .test:
                break
            }
        }
        return coarsened(paths).sorted()
    }

    /// The most paths stored for one entry: beyond it, paths are cut to their parents.
    static let pathsPerEntry = 8

    /// `paths`, cut to their parents one level at a time (deepest first) until at most
    /// ``pathsPerEntry`` remain: a change that rewrites 20 results of 5 fields each is stored as a
    /// change of `/results`, not as 100 rows. A parent stands for its children (a reader lists an
    /// entry for a child path through its parent, when the value there changed), so nothing is missed.
    static func coarsened(_ paths: Set<String>) -> Set<String> {
        var paths = paths
        while paths.count > pathsPerEntry {
            let deepest = paths.map { $0.utf8.count(where: { $0 == UInt8(ascii: "/") }) }.max() ?? 0
            guard deepest > 0 else { break }
            paths = Set(paths.map { path in
                guard path.utf8.count(where: { $0 == UInt8(ascii: "/") }) == deepest, let slash = path.lastIndex(of: "/") else { return path }
                return String(path[..<slash])
            })
        }
        return paths
    }
}

// MARK: - Writing

/// Writes an entry's touched paths into `changes`, numbering paths in `change_paths` as it meets
/// them. One per connection and session; rows go in with their entries, in the same transaction.
final class ChangeIndexWriter {
    private let connection: Connection
    private let session: JournalSession.ID
    /// Path numbers met so far. Numbers never change once given (paths are never removed), so a
    /// number read or given by another connection stays right; bounded, and cleared when full.
    private var ids: [String: Int64] = [:]
    private static let cacheLimit = 65_536

    init(connection: Connection, session: JournalSession.ID) {
        self.connection = connection
        self.session = session
    }

    /// Stores that entry `seq` touched `paths`.
    ///
    /// - Throws: ``SQLiteError`` when a write fails; call it inside the entry's transaction.
    func insert(seq: Int, paths: [String]) throws(SQLiteError) {
        guard !paths.isEmpty else { return }
        let statement = try connection.cachedStatement("INSERT OR IGNORE INTO changes (session_id, path_id, seq) VALUES (?1, ?2, ?3)")
        for path in paths {
            try statement.bind(session, at: 1)
            try statement.bind(try id(of: path), at: 2)
            try statement.bind(Int64(seq), at: 3)
            try statement.run()
        }
    }

    /// Marks the session's rows complete: readers use the index for it from then on.
    ///
    /// - Parameter startedAt: the session's start time, as its row stores it.
    func markComplete(startedAt: Double) throws(SQLiteError) {
        try connection.cachedStatement("INSERT OR REPLACE INTO change_index (session_id, started_at) VALUES (?1, ?2)")
            .execute([.integer(session), .real(startedAt)])
    }

    /// Removes the session's rows and mark: before indexing it anew.
    func removeAll() throws(SQLiteError) {
        try connection.cachedStatement("DELETE FROM changes WHERE session_id = ?1").execute([.integer(session)])
        try connection.cachedStatement("DELETE FROM change_index WHERE session_id = ?1").execute([.integer(session)])
    }

    private func id(of path: String) throws(SQLiteError) -> Int64 {
        if let id = ids[path] { return id }
        let select = try connection.cachedStatement("SELECT id FROM change_paths WHERE path = ?1")
        try select.bind([.text(path)])
        let found = try select.step() ? Row(statement: select).int(0) : nil
        select.reset()
        let id: Int64
        if let found {
            id = found
        } else {
            try connection.cachedStatement("INSERT INTO change_paths (path) VALUES (?1)").execute([.text(path)])
            id = connection.lastInsertedRowID
        }
        if ids.count >= Self.cacheLimit { ids.removeAll(keepingCapacity: true) }
        ids[path] = id
        return id
    }
}

// MARK: - Walking

/// Follows a session's states entry by entry, advancing a ``StateWalk``, and says which paths each
/// entry touched: how the index is built for a session recorded without it, how an import indexes
/// what it stores, and how a reader answers without the index.
///
/// It holds no reference to the walk's state while a delta patches it (which would make the patch
/// copy what it changes). The entry after a gap changed what differs from the state before the gap
/// (``StateWalk/stateBeforeGap``): a delta says so by its patch, a keyframe (what a journal of
/// schema version 2 or older holds there) by its diff from that state.
struct ChangeTracker {
    /// Advances `states` past `entry` and returns the paths the entry touched; `nil` for entry 0
    /// and gaps, which change nothing.
    ///
    /// - Throws: what ``StateWalk/advance(past:)`` throws.
    mutating func advance(_ states: inout StateWalk, past entry: Entry) throws(ActionLogError) -> [String]? {
        switch entry.content {
        case .gap:
            try states.advance(past: entry)
            return nil
        case .delta:
            let patch = try states.advance(past: entry)
            guard entry.seq > 0 else { return nil }
            guard let patch else { return [ChangeIndex.unknownChange] }
            return ChangeIndex.paths(of: patch, after: states.state)
        case .keyframe(let state):
            let previous = states.state ?? states.stateBeforeGap
            try states.advance(past: entry)
            guard entry.seq > 0 else { return nil }
            guard let previous else { return [ChangeIndex.unknownChange] }
            return ChangeIndex.paths(of: JSONPatch.diff(from: previous, to: state), after: state)
        }
    }
}

extension Journal {
    /// Indexes the sessions that have no complete rows in the change index (recorded before it, by
    /// an older ActionLog, or imported by one), except those a live recorder writes: what a writer
    /// does when it opens a journal. A session that does not read (damaged) is left unindexed:
    /// readers then walk it, and `verify` says what is wrong.
    ///
    /// Each session goes in transactions of a few thousand entries, its mark last; a build cut
    /// short leaves rows without a mark, which the next build replaces.
    func indexUnindexedSessions() {
        let missing: [(id: JournalSession.ID, startedAt: Double, status: String)]
        do {
            missing = try read { connection in
                try connection.prepare("""
                    SELECT s.id, s.started_at, s.status FROM sessions s LEFT JOIN change_index c ON c.session_id = s.id
                    WHERE c.session_id IS NULL OR c.started_at IS NOT s.started_at
                    ORDER BY s.id
                    """).rows { (id: $0.int(0), startedAt: $0.double(1), status: $0.text(2) ?? "") }
            }
        } catch {
            return
        }
        for session in missing where !(session.status == SessionHeader.Status.recording.rawValue && SessionLock.isHeld(journal: path, session: session.id)) {
            try? index(session.id, startedAt: session.startedAt)
        }
    }

    /// Builds the change index of one session, replacing any rows it had.
    private func index(_ session: JournalSession.ID, startedAt: Double) throws(ActionLogError) {
        var cursor = EntryCursor(journal: self, session: session, from: 0)
        var states = StateWalk(file: fileName, session: session)
        var tracker = ChangeTracker()
        var pending: [(seq: Int, paths: [String])] = []
        var first = true
        func flush(complete: Bool) throws(ActionLogError) {
            let rows = pending
            pending = []
            let clear = first
            first = false
            try read(session: session) { connection in
                try connection.transaction {
                    let writer = ChangeIndexWriter(connection: connection, session: session)
                    if clear { try writer.removeAll() }
                    for row in rows { try writer.insert(seq: row.seq, paths: row.paths) }
                    if complete { try writer.markComplete(startedAt: startedAt) }
                }
            }
        }
        while let entry = try cursor.next() {
            if let paths = try tracker.advance(&states, past: entry) {
                pending.append((entry.seq, paths))
                if pending.count >= 4096 { try flush(complete: false) }
            }
        }
        try states.requireEntries()
        try flush(complete: true)
    }
}
