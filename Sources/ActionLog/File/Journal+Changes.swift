import Foundation

extension Journal {
    /// The entries that changed the value at `path` of a session's state, newest first: which
    /// action set a field, and what it was before and after.
    ///
    /// An entry counts when its change touched the path, a parent of it (replaced, or an array
    /// reordered around it) or a child of it, and the value at the path differs before and after it
    /// (``FieldChange/touchedPaths`` says which). The entry after a gap counts what the lost actions
    /// changed too (``FieldChange/droppedBefore``).
    ///
    /// ```swift
    /// let total = JSONPointer("/cart/total")!
    /// let last = try journal.changes(to: total, in: session.id, limit: 1).first
    /// let firstZero = try journal.changes(to: total, in: session.id, becoming: 0)
    /// ```
    ///
    /// A journal written by this version keeps an index of what each entry changed, so the answer
    /// takes a few lookups whatever the session's length; for a session recorded without it (by an
    /// older ActionLog, until a writer opens the file), the entries are walked.
    ///
    /// - Parameters:
    ///   - path: where in the state; not the root (every entry changes the whole state).
    ///   - session: the session's id.
    ///   - seq: the newest entry to consider; `nil` for the whole session.
    ///   - value: list only the entries after which the value is this one (when it *became* it).
    ///   - limit: the most entries returned.
    /// - Returns: up to `limit` changes, the newest first.
    /// - Throws: ``ActionLogError``: ``ActionLogError/Code/invalidArgument`` for the root path or a
    ///   limit below 1; ``ActionLogError/Code/sessionNotFound``; ``ActionLogError/Code/corrupt`` naming
    ///   the entry when a state on the way cannot be rebuilt.
    public func changes(
        to path: JSONPointer, in session: JournalSession.ID, through seq: Int? = nil, becoming value: JSONValue? = nil, limit: Int = 20
    ) throws(ActionLogError) -> [FieldChange] {
        guard !path.isRoot else {
            throw ActionLogError(.invalidArgument, file: fileName, session: session, reason: """
                the path is the whole state, which every entry changes: name a path inside it (`/cart/total`)
                """)
        }
        guard limit >= 1 else {
            throw ActionLogError(.invalidArgument, file: fileName, session: session, reason: "the limit must be at least 1 (got \(limit))")
        }
        return try snapshot { () throws(ActionLogError) -> [FieldChange] in
            let numbers = try actionNumbers(in: session)
            let through = Swift.min(seq ?? .max, numbers.entryCount - 1)
            guard through >= 1 else { return [] }
            var search = FieldChangeSearch(path: path, becoming: value, limit: limit, numbers: numbers)
            if try hasChangeIndex(session) {
                try search.useIndex(of: self, session: session, through: through)
            } else {
                try search.walk(self, session: session, through: through)
            }
            return search.found
        }
    }

    /// Whether the session's rows in the change index are complete (``ChangeIndex``).
    private func hasChangeIndex(_ session: JournalSession.ID) throws(ActionLogError) -> Bool {
        try read(session: session) { connection in
            guard try connection.hasTable("change_index"), try connection.hasTable("changes"), try connection.hasTable("change_paths") else { return false }
            return try connection.cachedStatement("""
                SELECT 1 FROM change_index c JOIN sessions s ON s.id = c.session_id
                WHERE c.session_id = ?1 AND c.started_at = s.started_at
                """).firstRow([.integer(session)]) { _ in true } ?? false
        }
    }
}

/// One search of ``Journal/changes(to:in:through:becoming:limit:)``: the candidates, from the index
/// or a walk, and the values that decide which of them changed the value at the path.
private struct FieldChangeSearch {
    let path: JSONPointer
    let target: String
    let becoming: JSONValue?
    let limit: Int
    let numbers: ActionNumbers
    private(set) var found: [FieldChange] = []

    init(path: JSONPointer, becoming: JSONValue?, limit: Int, numbers: ActionNumbers) {
        self.path = path
        self.target = path.description
        self.becoming = becoming
        self.limit = limit
        self.numbers = numbers
    }

    /// Whether a change at the stored path `touched` may change the value at the path: it is the
    /// path, a parent (the root `""` included) or a child.
    func relates(_ touched: String) -> Bool {
        touched == target || touched.isEmpty || target.hasPrefix(touched + "/") || touched.hasPrefix(target + "/")
    }

    /// Whether a change from `old` to `new` is one to list.
    func lists(old: JSONValue?, new: JSONValue?) -> Bool {
        guard old != new else { return false }
        guard let becoming else { return true }
        return new == becoming
    }

    // MARK: With the index

    /// Candidates from the index, newest first, in batches; each decided with the states around it.
    mutating func useIndex(of journal: Journal, session: JournalSession.ID, through: Int) throws(ActionLogError) {
        let paths = try pathIDs(journal, session: session)
        guard !paths.isEmpty else { return }
        var states = StateProbe(journal: journal, session: session)
        var upper = through
        // A batch is decided with one walk from its oldest entry's keyframe: batches grow while they
        // find less than asked (a value that few entries became), so a search back through a whole
        // session costs one keyframe per 4,096 candidates, not one per few dozen.
        // The first batch is what was asked for (most candidates are changes to list), a few more.
        var batchSize = limit + 8
        while found.count < limit, upper >= 1 {
            defer { batchSize = Swift.min(4096, batchSize * 2) }
            let batch = try candidates(journal, session: session, paths: paths, through: upper, count: batchSize)
            guard let oldest = batch.first?.seq else { return }
            var decided: [FieldChange] = []
            for candidate in batch {
                if let change = try decide(candidate.seq, touched: candidate.touched, states: &states) { decided.append(change) }
            }
            found.append(contentsOf: decided.reversed().prefix(limit - found.count))
            upper = oldest - 1
        }
    }

    /// The numbers of the stored paths that relate to the path: itself, its parents, its children.
    private func pathIDs(_ journal: Journal, session: JournalSession.ID) throws(ActionLogError) -> [(id: Int64, path: String)] {
        try journal.read(session: session) { connection in
            var found: [(id: Int64, path: String)] = []
            let exact = try connection.cachedStatement("SELECT id, path FROM change_paths WHERE path = ?1")
            for length in 0...path.tokens.count {
                let prefix = JSONPointer(tokens: Array(path.tokens.prefix(length))).description
                found += try exact.rows([.text(prefix)]) { (id: $0.int(0), path: $0.text(1) ?? "") }
            }
            // Children: the texts that start with the path and a slash; "0" is the byte after "/".
            found += try connection.cachedStatement("SELECT id, path FROM change_paths WHERE path >= ?1 AND path < ?2")
                .rows([.text(target + "/"), .text(target + "0")]) { (id: $0.int(0), path: $0.text(1) ?? "") }
            return found
        }
    }

    /// Beyond this many child paths, the children's rows are read in one statement rather than one
    /// lookup each.
    static let childrenReadApart = 256

    /// The newest `count` entries at or before `through` that touched one of `paths`, oldest first,
    /// each with what it touched: the newest rows of each path, merged.
    private func candidates(
        _ journal: Journal, session: JournalSession.ID, paths: [(id: Int64, path: String)], through: Int, count: Int
    ) throws(ActionLogError) -> [(seq: Int, touched: [String])] {
        var touched: [Int: [String]] = [:]
        try journal.read(session: session) { connection in
            let statement = try connection.cachedStatement("""
                SELECT seq FROM changes WHERE session_id = ?1 AND path_id = ?2 AND seq <= ?3 AND seq >= 1
                ORDER BY seq DESC LIMIT ?4
                """)
            // The path and its parents, one lookup each; its children too while they are few. Many
            // children (a history of 100,000 lines, each its own path) are read in one statement,
            // SQLite keeping the newest rows of them all.
            let children = paths.filter { $0.path.hasPrefix(target + "/") }
            let separately = children.count > Self.childrenReadApart ? paths.filter { !$0.path.hasPrefix(target + "/") } : paths
            for path in separately {
                for seq in try statement.rows([.integer(session), .integer(path.id), .integer(Int64(through)), .integer(Int64(count))], { Int(clamping: $0.int(0)) }) {
                    touched[seq, default: []].append(path.path)
                }
            }
            guard separately.count < paths.count else { return }
            let together = try connection.cachedStatement("""
                SELECT c.seq, p.path FROM change_paths p JOIN changes c ON c.session_id = ?1 AND c.path_id = p.id
                WHERE p.path >= ?2 AND p.path < ?3 AND c.seq <= ?4 AND c.seq >= 1
                ORDER BY c.seq DESC LIMIT ?5
                """)
            let rows = try together.rows([.integer(session), .text(target + "/"), .text(target + "0"), .integer(Int64(through)), .integer(Int64(count))]) {
                (seq: Int(clamping: $0.int(0)), path: $0.text(1) ?? "")
            }
            for row in rows { touched[row.seq, default: []].append(row.path) }
        }
        return touched.keys.sorted(by: >).prefix(count).reversed().map { ($0, touched[$0, default: []].sorted()) }
    }

    /// The change entry `seq` made at the path, when it changed the value there and is one to list.
    private func decide(_ seq: Int, touched: [String], states: inout StateProbe) throws(ActionLogError) -> FieldChange? {
        // The state before: the last entry before `seq` that is not a gap.
        let (gaps, dropped) = numbers.gapsBefore(seq)
        let before = seq - 1 - gaps
        guard before >= 0 else { return nil }
        let old = try states.state(at: before)?.value(at: path)
        guard let after = try states.state(at: seq) else { return nil }
        let new = after.value(at: path)
        guard lists(old: old, new: new) else { return nil }
        return FieldChange(
            seq: seq, action: numbers.action(ofEntry: seq), label: try states.label(at: seq),
            touchedPaths: touched.compactMap(JSONPointer.init), oldValue: old, newValue: new, droppedBefore: dropped)
    }

    // MARK: Without the index

    /// Walks the session up to `through`, keeping the newest `limit` changes.
    mutating func walk(_ journal: Journal, session: JournalSession.ID, through: Int) throws(ActionLogError) {
        var cursor = try journal.entryCursor(in: session)
        var states = StateWalk(file: journal.fileName, session: session)
        var tracker = ChangeTracker()
        // The value at the path after the last entry that was not a gap.
        var value: JSONValue?
        var dropped = 0
        var newestFirst: [FieldChange] = []
        while let entry = try cursor.next(), entry.seq <= through {
            guard let touched = try tracker.advance(&states, past: entry) else {
                if case .gap(let count, _) = entry.content { dropped = dropped.addingSaturating(count) } else { value = states.state?.value(at: path) }
                continue
            }
            let old = value
            value = states.state?.value(at: path)
            defer { dropped = 0 }
            let related = touched.filter(relates)
            guard !related.isEmpty, lists(old: old, new: value) else { continue }
            newestFirst.insert(FieldChange(
                seq: entry.seq, action: numbers.action(ofEntry: entry.seq), label: entry.label,
                touchedPaths: related.compactMap(JSONPointer.init), oldValue: old, newValue: value, droppedBefore: dropped), at: 0)
            if newestFirst.count > limit { newestFirst.removeLast() }
        }
        found = newestFirst
    }
}

/// Rebuilds states at entries asked for in increasing order, walking forward from the last one
/// when it is near, with one cursor, rather than from its keyframe again: a run of changes close
/// together costs one keyframe and one read of the entries between.
private struct StateProbe {
    let journal: Journal
    let session: JournalSession.ID
    /// The walk at ``position``, and the cursor reading on from there.
    private var walk: StateWalk?
    private var cursor: EntryCursor?
    private var position = -1
    /// How far forward a walk goes rather than starting from the target's keyframe.
    private static let reach = 4096

    init(journal: Journal, session: JournalSession.ID) {
        self.journal = journal
        self.session = session
    }

    /// The state after entry `seq`; `nil` for a gap. The caller keeps no reference to the whole
    /// state beyond its next call (the walk patches it in place).
    mutating func state(at seq: Int) throws(ActionLogError) -> JSONValue? {
        if walk != nil, position <= seq, seq - position <= Self.reach, var walking = walk, var reading = cursor {
            walk = nil
            cursor = nil
            while position < seq, let entry = try reading.next() {
                try walking.advance(past: entry)
                position = entry.seq
            }
            if position == seq, let state = walking.state {
                (walk, cursor) = (walking, reading)
                return state
            }
        }
        walk = nil
        cursor = nil
        let state: JSONValue
        do {
            state = try journal.state(at: seq, in: session)
        } catch where error.code == .entryNotFound {
            return nil
        }
        walk = StateWalk(file: journal.fileName, session: session, after: seq, state: state)
        cursor = try journal.entryCursor(in: session, from: seq + 1)
        position = seq
        return state
    }

    /// The label of entry `seq`'s action.
    func label(at seq: Int) throws(ActionLogError) -> String? {
        var cursor = try journal.timelineCursor(in: session, from: seq, limit: 1)
        return try cursor.next()?.label
    }
}
