extension Journal {
    /// Summarises a session: its entries by kind, the actions its gaps lost, its stored bytes, its
    /// labels by frequency, and its reducer durations with the slowest entries.
    ///
    /// It reads with SQL aggregates over the session's rows, in one read transaction, never the
    /// entries themselves: a session of a million entries costs a few passes over its rows and one
    /// array of its durations (8 bytes an entry), read sorted for the percentiles. States are
    /// measured, not parsed, so a damaged state does not stop it.
    ///
    /// ```swift
    /// let stats = try Journal(path: "checkout.actionlog").statistics(in: 2)
    /// print("\(stats.entries) entries, \(stats.bytesPerEntry) bytes each")
    /// ```
    ///
    /// - Parameters:
    ///   - session: the session's id.
    ///   - labels: the most labels to return in ``SessionStatistics/labels``; `nil` for all.
    ///   - slowest: how many of the slowest entries to return.
    /// - Throws: ``ActionLogError``: ``ActionLogError/Code/sessionNotFound`` when there is no such
    ///   session; ``ActionLogError/Code/corrupt`` naming the entry when a row's kind is unknown or its
    ///   duration or dropped count is not stored as an integer.
    package func statistics(in session: JournalSession.ID, labels: Int? = nil, slowest: Int = 5) throws(ActionLogError) -> SessionStatistics {
        try snapshot { () throws(ActionLogError) in
            try read(session: session) { connection in
                let exists = try connection.prepare("SELECT 1 FROM sessions WHERE id = ?1").firstRow([.integer(session)]) { _ in true } ?? false
                guard exists else { throw ActionLogError(.sessionNotFound, file: fileName, session: session, reason: "no such session") }
                return try Self.statistics(connection, session: session, labels: labels, slowest: slowest, file: fileName)
            }
        }
    }

    private static func statistics(
        _ connection: Connection, session: JournalSession.ID, labels: Int?, slowest: Int, file: String
    ) throws -> SessionStatistics {
        let id = SQLiteValue.integer(session)
        // `total()` sums as a real number, so a sum that would not fit an integer is clamped below
        // instead of failing the query, as `sum()` does.
        let counts = try connection.prepare("""
            SELECT count(*), total(kind = 'keyframe'), total(kind = 'delta'), total(kind = 'gap'),
                   total(CASE WHEN kind = 'gap' THEN dropped END),
                   total(length(CAST(state AS BLOB))), total(length(CAST(action AS BLOB))), total(length(CAST(effect AS BLOB))),
                   total(coalesce(length(CAST(label AS BLOB)), 0) + coalesce(length(CAST(note AS BLOB)), 0)),
                   count(DISTINCT label),
                   min(CASE WHEN kind NOT IN ('keyframe', 'delta', 'gap') THEN seq END),
                   min(CASE WHEN duration_ns IS NOT NULL AND typeof(duration_ns) <> 'integer' THEN seq END),
                   min(CASE WHEN dropped IS NOT NULL AND typeof(dropped) <> 'integer' THEN seq END)
            FROM entries WHERE session_id = ?1
            """).firstRow([id]) { row in
            (
                entries: Int(clamping: row.int(0)), keyframes: clamped(row.double(1)), deltas: clamped(row.double(2)),
                gaps: clamped(row.double(3)), dropped: clamped(row.double(4)),
                states: clamped(row.double(5)), actions: clamped(row.double(6)), effects: clamped(row.double(7)),
                other: clamped(row.double(8)), distinctLabels: Int(clamping: row.int(9)),
                unknownKind: row.optionalInt(10), misstoredDuration: row.optionalInt(11), misstoredDropped: row.optionalInt(12)
            )
        }
        guard let counts else { throw ActionLogError(.corrupt, file: file, session: session, reason: "the entries cannot be counted") }

        func fail(_ seq: Int64, _ reason: String) -> ActionLogError {
            ActionLogError(.corrupt, file: file, session: session, entry: Int(clamping: seq), reason: reason)
        }
        if let seq = counts.unknownKind {
            let kind = try connection.prepare("SELECT kind FROM entries WHERE session_id = ?1 AND seq = ?2")
                .firstRow([id, .integer(seq)]) { $0.text(0) } ?? nil
            throw fail(seq, "unknown entry kind \(JSONPatch.quoted(kind ?? "NULL"))")
        }
        for (seq, query, name) in [
            (counts.misstoredDuration, "SELECT duration_ns FROM entries WHERE session_id = ?1 AND seq = ?2", "duration"),
            (counts.misstoredDropped, "SELECT dropped FROM entries WHERE session_id = ?1 AND seq = ?2", "dropped count"),
        ] {
            guard let seq else { continue }
            let type = try connection.prepare(query)
                .firstRow([id, .integer(seq)]) { $0.nonIntegerType(0) } ?? nil
            throw fail(seq, "the \(name) is stored as \(type ?? "something else"), not as an integer")
        }

        var calls = 0
        if try connection.hasTable("calls") {
            calls = try connection.prepare("SELECT total(\(Schema.callTextBytes)) FROM calls WHERE session_id = ?1")
                .firstRow([id]) { clamped($0.double(0)) } ?? 0
        }
        let (other, overflow) = counts.other.addingReportingOverflow(calls)

        let histogram = try connection.prepare("""
            SELECT label, count(*) AS n FROM entries WHERE session_id = ?1 AND label IS NOT NULL
            GROUP BY label ORDER BY n DESC, label LIMIT ?2
            """).rows([id, .integer(labels.map { Int64(max(0, $0)) } ?? -1)]) { row in
            SessionStatistics.LabelCount(label: row.text(0) ?? "", entries: Int(clamping: row.int(1)))
        }

        // Sorted by SQLite's sorter (spilling to temporary files when large), read as one column.
        let durations = try connection.prepare("SELECT duration_ns FROM entries WHERE session_id = ?1 AND duration_ns IS NOT NULL ORDER BY duration_ns")
            .rows([id]) { $0.int(0) }
        var reducer: SessionStatistics.ReducerDurations?
        if !durations.isEmpty {
            let slowestEntries = try connection.prepare("""
                SELECT seq, label, duration_ns FROM entries WHERE session_id = ?1 AND duration_ns IS NOT NULL
                ORDER BY duration_ns DESC, seq LIMIT ?2
                """).rows([id, .integer(Int64(max(0, slowest)))]) { row in
                SessionStatistics.TimedEntry(seq: Int(clamping: row.int(0)), label: row.text(1), duration: .nanoseconds(row.int(2)))
            }
            func percentile(_ p: Int) -> Duration {
                .nanoseconds(durations[nearestRank(p, of: durations.count) - 1])
            }
            reducer = SessionStatistics.ReducerDurations(
                entries: durations.count, p50: percentile(50), p99: percentile(99), max: .nanoseconds(durations[durations.count - 1]),
                slowest: slowestEntries)
        }

        return SessionStatistics(
            session: session, entries: counts.entries, keyframes: counts.keyframes, deltas: counts.deltas, gaps: counts.gaps,
            droppedActions: counts.dropped,
            bytes: SessionStatistics.Bytes(states: counts.states, actions: counts.actions, effects: counts.effects, other: overflow ? .max : other),
            distinctLabels: counts.distinctLabels, labels: histogram, reducer: reducer)
    }
}

/// The nearest rank of the `p`-th percentile (0 < p ≤ 100) of `count` sorted values: ⌈p·count/100⌉,
/// at least 1, computed without overflow.
func nearestRank(_ p: Int, of count: Int) -> Int {
    let rank = count / 100 * p + (count % 100 * p + 99) / 100
    return min(count, max(1, rank))
}

/// A real number from SQLite's `total()` as an `Int`: rounded toward zero, clamped to `Int`'s range,
/// 0 for NaN.
private func clamped(_ value: Double) -> Int {
    guard !value.isNaN else { return 0 }
    if value >= 9_223_372_036_854_775_807.0 { return .max }
    if value <= -9_223_372_036_854_775_808.0 { return .min }
    return Int(value)
}
