import ActionLog
import Foundation
import PostgresNIO

/// Which sessions `replay-cli sessions` lists: every condition given must hold.
package struct SessionFilter: Sendable {
    /// The app version, exactly.
    package var appVersion: String?
    /// Started at or after.
    package var since: Date?
    /// Started before.
    package var until: Date?
    /// The session's name matches this pattern (`*` any run of characters, `?` one).
    package var name: String?
    /// Some entry's label matches this pattern.
    package var label: String?
    /// Only sessions that lost actions (a gap), or only sessions that did not.
    package var hasGaps: Bool?

    package init() {}

    /// Whether no condition is given.
    package var isEmpty: Bool {
        appVersion == nil && since == nil && until == nil && name == nil && label == nil && hasGaps == nil
    }

    /// A `*`/`?` pattern as a `LIKE` pattern, escaping `LIKE`'s own `%`, `_` and `\`.
    static func like(_ pattern: String) -> String {
        var result = ""
        for character in pattern.unicodeScalars {
            switch character {
            case "*": result += "%"
            case "?": result += "_"
            case "%", "_", "\\": result += "\\" + String(character)
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }
}

/// A complete session of a team store, as its list names it.
package struct StoreSession: Sendable, Hashable, CustomStringConvertible {
    /// Its global id: its key in the store.
    package let uuid: UUID
    package let name: String
    /// The entries its push counted in the journal it came from; the rows read back must be as many.
    package let entryCount: Int

    init(_ row: (UUID, String, Int64)) {
        uuid = row.0
        name = row.1
        entryCount = Int(clamping: row.2)
    }

    /// `session 0f1e… "checkout"`: how messages about it name it.
    package var description: String { "session \(uuid.uuidString.lowercased()) \"\(name)\"" }
}

extension PostgresStore {
    /// Reads the complete sessions `filter` keeps, oldest first, into `journal` (opened for writing):
    /// each session's row and its last entry without its texts, which is all a list of sessions
    /// reads (the count of entries and the last entry's time). Streamed: one session at a time.
    ///
    /// - Returns: how many sessions were read.
    /// - Throws: ``ActionLogError`` naming the server when it fails.
    package func readSessionList(_ filter: SessionFilter, into journal: Journal) async throws(ActionLogError) -> Int {
        let columns = StoredTable.sessionColumns.map { "s.\($0.name)" }.joined(separator: ", ")
        var conditions = ["s.complete"]
        var bindings = PostgresBindings()
        func parameter(_ add: (inout PostgresBindings) -> Void) -> String {
            add(&bindings)
            return "$\(bindings.count)"
        }
        if let version = filter.appVersion { conditions.append("s.app_version = \(parameter { $0.append(version) })") }
        if let since = filter.since { conditions.append("s.started_at >= \(parameter { $0.append(since.timeIntervalSince1970) })") }
        if let until = filter.until { conditions.append("s.started_at < \(parameter { $0.append(until.timeIntervalSince1970) })") }
        if let name = filter.name { conditions.append("s.name LIKE \(parameter { $0.append(SessionFilter.like(name)) })") }
        if let label = filter.label {
            conditions.append("""
                EXISTS (SELECT 1 FROM actionlog_entries l WHERE l.session_uuid = s.uuid AND l.label LIKE \(parameter { $0.append(SessionFilter.like(label)) }))
                """)
        }
        if let hasGaps = filter.hasGaps { conditions.append(hasGaps ? "(s.gap_count > 0 OR s.dropped > 0)" : "(s.gap_count = 0 AND s.dropped = 0)") }
        let query = PostgresQuery(unsafeSQL: """
            SELECT s.uuid, \(columns), e.seq, e.kind, e.time
            FROM actionlog_sessions s
            LEFT JOIN LATERAL (
                SELECT seq, kind, time FROM actionlog_entries WHERE session_uuid = s.uuid ORDER BY seq DESC LIMIT 1
            ) e ON true
            WHERE \(conditions.joined(separator: " AND "))
            ORDER BY s.started_at, s.uuid
            """, binds: bindings)
        let doing = "cannot list its sessions"
        var count = 0
        do {
            for try await row in try await connection.query(query, logger: logger) {
                let cells = Array(row)
                let uuid = try cells[0].decode(UUID.self)
                let header = try zip(StoredTable.sessionColumns, cells.dropFirst()).map { try Self.value($1, $0) }
                let id = try journal.insertStoredSession(header, uuid: uuid)
                let last = cells.suffix(3)
                if let seq = try last[last.startIndex].decode(Int64?.self) {
                    var entry = [StoredValue](repeating: .null, count: StoredTable.entries.columns.count)
                    entry[0] = .integer(seq)
                    entry[1] = try Self.value(last[last.startIndex + 1], StoredTable.entries.columns[1])
                    entry[2] = try Self.value(last[last.startIndex + 2], StoredTable.entries.columns[2])
                    try journal.insertStoredRows(.entries, session: id, [entry])
                }
                count += 1
            }
        } catch {
            throw failure(error, doing: doing)
        }
        return count
    }

    /// Resolves `selector` to a complete session of the store: its global id, or a name (the newest
    /// session of that name), or, left out, the store's only session.
    ///
    /// - Throws: ``ActionLogError`` (``ActionLogError/Code/sessionNotFound``) naming the server when
    ///   there is no such session, or, left out, when the store holds none or several.
    package func resolveSession(_ selector: String?) async throws(ActionLogError) -> StoreSession {
        let doing = "cannot find the session"
        let found: [StoreSession]
        if let selector, let uuid = UUID(uuidString: selector) {
            found = try await rows("SELECT uuid, name, entry_count FROM actionlog_sessions WHERE complete AND uuid = \(uuid)", doing: doing) {
                try StoreSession($0.decode((UUID, String, Int64).self))
            }
        } else if let selector {
            found = try await rows("""
                SELECT uuid, name, entry_count FROM actionlog_sessions WHERE complete AND name = \(selector)
                ORDER BY started_at DESC, uuid DESC LIMIT 1
                """, doing: doing) { try StoreSession($0.decode((UUID, String, Int64).self)) }
        } else {
            found = try await rows("SELECT uuid, name, entry_count FROM actionlog_sessions WHERE complete ORDER BY started_at LIMIT 2", doing: doing) {
                try StoreSession($0.decode((UUID, String, Int64).self))
            }
            if found.count > 1 {
                let count = try await rows("SELECT count(*) FROM actionlog_sessions WHERE complete", doing: doing) { try $0.decode(Int64.self) }.first ?? 0
                throw ActionLogError(.sessionNotFound, file: location.description, reason: "\(count) sessions; choose one with --session (its uuid or its name)")
            }
        }
        guard let first = found.first else {
            let what = selector.map { UUID(uuidString: $0) != nil ? "no session \($0.lowercased())" : "no session named \"\($0)\"" } ?? "no sessions"
            throw ActionLogError(.sessionNotFound, file: location.description, reason: what)
        }
        return first
    }

    /// The store's complete sessions, oldest first (by start, then id); and how many sessions a push
    /// is still under way for, or stopped part way (which readers leave out until a push completes them).
    ///
    /// - Throws: ``ActionLogError`` naming the server when it fails.
    package func completeSessions() async throws(ActionLogError) -> (complete: [StoreSession], incomplete: Int) {
        let doing = "cannot list its sessions"
        let complete = try await rows(
            "SELECT uuid, name, entry_count FROM actionlog_sessions WHERE complete ORDER BY started_at, uuid", doing: doing
        ) { try StoreSession($0.decode((UUID, String, Int64).self)) }
        let incomplete = try await rows("SELECT count(*) FROM actionlog_sessions WHERE NOT complete", doing: doing) { try $0.decode(Int64.self) }.first ?? 0
        return (complete, Int(clamping: incomplete))
    }

    /// Reads the complete session `uuid` into `journal` (opened for writing), row for row as
    /// stored, a page of rows at a time: memory stays bounded however long the session. With
    /// `states`, only the rows a reader of the states at those entries needs: from the last
    /// keyframe at or before the first of them through the last (and what those entries recorded),
    /// so that `state --at N` of a long session reads what a file's reader reads, not the session.
    /// The journal's session then holds those entries only, at their own numbers.
    ///
    /// - Returns: the session's id in `journal`.
    /// - Throws: ``ActionLogError`` naming the server and the session when it fails.
    package func readSession(
        _ uuid: UUID, into journal: Journal, states: ClosedRange<Int>? = nil, progress: (Int) -> Void = { _ in }
    ) async throws(ActionLogError) -> JournalSession.ID {
        let subject = "session \(uuid.uuidString.lowercased())"
        let doing = "cannot read it"
        let columns = StoredTable.sessionColumns.map(\.name).joined(separator: ", ")
        let header = try await rows(
            PostgresQuery(unsafeSQL: "SELECT \(columns) FROM actionlog_sessions WHERE uuid = $1 AND complete", binds: Self.bindings(uuid)),
            session: subject, doing: doing
        ) { row in try zip(StoredTable.sessionColumns, row).map { try Self.value($1, $0) } }.first
        guard let header else {
            throw ActionLogError(.sessionNotFound, file: location.description, reason: "no session \(uuid.uuidString.lowercased())")
        }
        // The entries read: all of them, or from the keyframe before the first state asked for.
        var span: ClosedRange<Int64>?
        if let states {
            // The keyframe the state walk starts from: the primary key's index, read backwards from the entry.
            let first = Int64(clamping: states.lowerBound)
            var bindings = Self.bindings(uuid)
            bindings.append(first)
            let keyframe = try await rows(
                PostgresQuery(unsafeSQL: """
                    SELECT max(seq) FROM actionlog_entries WHERE session_uuid = $1 AND seq <= $2 AND kind = 'keyframe'
                    """, binds: bindings),
                session: subject, doing: doing
            ) { try $0.decode(Int64?.self) }.first ?? nil
            span = (keyframe ?? 0)...max(keyframe ?? 0, Int64(clamping: states.upperBound))
        }
        let id = try journal.insertStoredSession(header, uuid: uuid)
        var read = 0
        for table in StoredTable.allCases {
            let names = table.columns.map(\.name).joined(separator: ", ")
            let keys = table.columns.prefix(table.keyCount).map(\.name).joined(separator: ", ")
            var bindings = Self.bindings(uuid)
            var condition = "session_uuid = $1"
            if let span {
                bindings.append(span.lowerBound)
                bindings.append(span.upperBound)
                condition += " AND seq BETWEEN $2 AND $3"
            }
            let query = PostgresQuery(
                unsafeSQL: "SELECT \(names) FROM actionlog_\(table.rawValue) WHERE \(condition) ORDER BY \(keys)", binds: bindings)
            var page: [[StoredValue]] = []
            page.reserveCapacity(512)
            do {
                for try await row in try await connection.query(query, logger: logger) {
                    page.append(try zip(table.columns, row).map { try Self.value($1, $0) })
                    if page.count == 512 {
                        try journal.insertStoredRows(table, session: id, page)
                        if table == .entries {
                            read += page.count
                            progress(read)
                        }
                        page.removeAll(keepingCapacity: true)
                    }
                }
                try journal.insertStoredRows(table, session: id, page)
            } catch {
                throw failure(error, session: subject, doing: doing)
            }
        }
        return id
    }

    /// A cell as the value a journal stores in `column`.
    static func value(_ cell: PostgresCell, _ column: StoredColumn) throws -> StoredValue {
        guard let bytes = cell.bytes else { return .null }
        switch column.kind {
        case .integer: return .integer(try cell.decode(Int64.self))
        case .real: return .real(try cell.decode(Double.self))
        case .text: return .text(Array(bytes.readableBytesView))
        }
    }
}
