import Foundation

/// Which sessions a ``RetentionPolicy`` removes from a journal, decided from the file without
/// changing it: the dry run and the real one make the same plan.
///
/// Sessions go oldest first (by start time, then id). The age limit goes first, then the count,
/// then the bytes; a live session is skipped by all three and the next oldest goes instead.
/// Reading costs the sessions table, plus, for the bytes limit when the file's pages in use exceed
/// it, one pass over the entries' texts (the pages in use bound the texts from above, so a journal
/// under its limit is not read at all).
struct RetentionPlan {
    private(set) var removed: [PruneReport.Removal] = []
    private(set) var keptLive: [JournalSession.ID] = []
    private(set) var remainingSessions = 0
    private(set) var remainingBytes: Int?

    private struct Candidate {
        /// Its place among the sessions, oldest first.
        let order: Int
        let id: JournalSession.ID
        let name: String
        let status: SessionHeader.Status
        let isLive: Bool
        let startedAt: Double
        let endedAt: Double?
    }

    init(connection: Connection, path: String, file: String, policy: RetentionPolicy, now: Date) throws {
        var order = 0
        var remaining = try connection.prepare("SELECT id, name, status, started_at, ended_at FROM sessions ORDER BY started_at, id").rows { row in
            let id = row.int(0)
            order += 1
            let stored = row.text(2) ?? ""
            guard let status = SessionHeader.Status(rawValue: stored) else {
                throw ActionLogError(.corrupt, file: file, session: id, reason: "unknown session status \(JSONPatch.quoted(stored))")
            }
            let isLive = status == .recording && SessionLock.isHeld(journal: path, session: id)
            return Candidate(
                order: order, id: id, name: row.text(1) ?? "", status: status == .recording && !isLive ? .interrupted : status,
                isLive: isLive, startedAt: row.double(3), endedAt: row.optionalDouble(4))
        }
        var removals: [(candidate: Candidate, reason: PruneReport.Reason)] = []
        var keptLive: [JournalSession.ID] = []
        func remove(where test: (Candidate) throws -> Bool, reason: PruneReport.Reason) rethrows {
            var kept: [Candidate] = []
            for candidate in remaining {
                if try test(candidate) { removals.append((candidate, reason)) } else { kept.append(candidate) }
            }
            remaining = kept
        }
        func noteLive(_ candidate: Candidate) {
            if !keptLive.contains(candidate.id) { keptLive.append(candidate.id) }
        }

        if let age = policy.maximumAge {
            let cutoff = now.timeIntervalSince1970 - max(0, Double(age.components.seconds) + Double(age.components.attoseconds) * 1e-18)
            let lastEntry = try connection.prepare("SELECT max(time) FROM entries WHERE session_id = ?1")
            try remove(where: { candidate in
                var ended = candidate.endedAt
                if ended == nil { ended = try lastEntry.firstRow([.integer(candidate.id)]) { $0.optionalDouble(0) } ?? nil }
                guard (ended ?? candidate.startedAt) < cutoff else { return false }
                if candidate.isLive { noteLive(candidate) }
                return !candidate.isLive
            }, reason: .age)
        }
        if let limit = policy.maximumSessions {
            var excess = remaining.count - max(0, limit)
            remove(where: { candidate in
                guard excess > 0, !candidate.isLive else { return false }
                excess -= 1
                return true
            }, reason: .count)
            for candidate in remaining where excess > 0 && candidate.isLive {
                noteLive(candidate)
                excess -= 1
            }
        }
        var sizes: [JournalSession.ID: (entries: Int, bytes: Int)] = [:]
        let hasCalls = try connection.hasTable("calls")
        if let limit = policy.maximumBytes.map({ max(0, $0) }), try Self.pagesInUse(connection) > limit {
            sizes = try Self.sizes(connection, hasCalls: hasCalls)
            var total = remaining.reduce(0) { $0.addingClamped(sizes[$1.id]?.bytes ?? 0) }
            remove(where: { candidate in
                guard total > limit, !candidate.isLive else { return false }
                total -= sizes[candidate.id]?.bytes ?? 0
                return true
            }, reason: .size)
            if total > limit { remaining.filter(\.isLive).forEach(noteLive) }
            remainingBytes = total
        }

        let size = try connection.prepare("SELECT count(*), \(Self.textBytes) FROM entries WHERE session_id = ?1")
        let callSize = hasCalls ? try connection.prepare("SELECT \(Self.callBytes) FROM calls WHERE session_id = ?1") : nil
        for (candidate, reason) in removals.sorted(by: { $0.candidate.order < $1.candidate.order }) {
            let measured = try sizes[candidate.id] ?? size.firstRow([.integer(candidate.id)]) { (Int(clamping: $0.int(0)), Int(clamping: $0.int(1))) }
                .map { measured in
                    let calls = try callSize?.firstRow([.integer(candidate.id)]) { Int(clamping: $0.int(0)) } ?? 0
                    return (measured.0, measured.1.addingClamped(calls))
                }
            let (entries, bytes) = measured ?? (0, 0)
            removed.append(PruneReport.Removal(
                id: candidate.id, name: candidate.name, status: candidate.status, entryCount: entries, bytes: bytes, reason: reason))
        }
        self.keptLive = keptLive
        remainingSessions = remaining.count
    }

    /// The UTF-8 bytes of an entry row's texts, summed over the rows of the query (0 for none).
    private static let textBytes = """
        coalesce(sum(coalesce(length(CAST(label AS BLOB)), 0) + coalesce(length(CAST(action AS BLOB)), 0)
            + coalesce(length(CAST(state AS BLOB)), 0) + coalesce(length(CAST(effect AS BLOB)), 0)
            + coalesce(length(CAST(note AS BLOB)), 0)), 0)
        """

    /// The UTF-8 bytes of the texts of the service calls and output events of an asynchronous
    /// handler's entries (the `calls` table), summed over the rows of the query.
    private static let callBytes = "coalesce(sum(\(Schema.callTextBytes)), 0)"

    /// Every session's entry count and bytes (its entries' texts and its calls' texts), in one pass
    /// over each table.
    private static func sizes(_ connection: Connection, hasCalls: Bool) throws -> [JournalSession.ID: (entries: Int, bytes: Int)] {
        var sizes: [JournalSession.ID: (entries: Int, bytes: Int)] = [:]
        let rows = try connection.prepare("SELECT session_id, count(*), \(textBytes) FROM entries GROUP BY session_id").rows {
            ($0.int(0), Int(clamping: $0.int(1)), Int(clamping: $0.int(2)))
        }
        for (id, entries, bytes) in rows { sizes[id] = (entries, bytes) }
        if hasCalls {
            let calls = try connection.prepare("SELECT session_id, \(callBytes) FROM calls GROUP BY session_id").rows {
                ($0.int(0), Int(clamping: $0.int(1)))
            }
            for (id, bytes) in calls {
                let size = sizes[id] ?? (0, 0)
                sizes[id] = (size.entries, size.bytes.addingClamped(bytes))
            }
        }
        return sizes
    }

    /// The bytes of the file's pages in use (not free): an upper bound of the texts they hold.
    private static func pagesInUse(_ connection: Connection) throws -> Int {
        let pages = try connection.scalarInt("PRAGMA page_count") ?? 0
        let free = try connection.scalarInt("PRAGMA freelist_count") ?? 0
        let size = try connection.scalarInt("PRAGMA page_size") ?? 0
        let (bytes, overflow) = max(0, pages - free).multipliedReportingOverflow(by: max(0, size))
        return overflow ? .max : Int(clamping: bytes)
    }
}
