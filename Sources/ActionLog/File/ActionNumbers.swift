/// The numbers of a session's actions, counting the actions its gaps lost: action 1 is the first
/// action dispatched, entry 0 (the initial state) is action 0, and a gap of 3 lost actions takes 3
/// numbers and no entry. So "the state after action k" names the same step whatever the writer
/// dropped, where entry numbers shift at every gap.
///
/// Worked out from the session's gap entries alone (read through the `entries_gaps` index where the
/// file has it), never stored: files of every version have them.
package struct ActionNumbers: Sendable {
    /// The session's gaps in order: the gap's entry, the first action it lost and how many.
    package private(set) var gaps: [(seq: Int, firstAction: Int, dropped: Int)] = []
    /// Entries in the session, for "no such action".
    package let entryCount: Int

    /// Numbers from the gaps of a session of `entryCount` entries, given in order of their entries
    /// with the actions each lost; a count below 1 (a damaged row) counts as 1.
    package init(gaps: [(seq: Int, dropped: Int)], entryCount: Int) {
        self.entryCount = entryCount
        var offset = 0  // action number minus entry number, past the gaps so far
        for gap in gaps {
            let dropped = Swift.max(1, gap.dropped)
            self.gaps.append((gap.seq, gap.seq.addingSaturating(offset), dropped))
            offset = offset.addingSaturating(dropped - 1)
        }
    }

    /// How many gaps are at or before entry `seq`: a binary search.
    private func gapCount(through seq: Int) -> Int {
        var low = 0
        var high = gaps.count
        while low < high {
            let middle = (low + high) / 2
            if gaps[middle].seq <= seq { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The entries just before `seq` that are gaps, and the actions they lost: `seq - 1`, `seq - 2`, …
    /// as long as each is a gap. What lies between entry `seq` and the last state known before it.
    package func gapsBefore(_ seq: Int) -> (count: Int, dropped: Int) {
        var index = gapCount(through: seq - 1) - 1
        var count = 0
        var dropped = 0
        while index >= 0, gaps[index].seq == seq - 1 - count {
            dropped = dropped.addingSaturating(gaps[index].dropped)
            count += 1
            index -= 1
        }
        return (count, dropped)
    }

    /// The action that produced entry `seq` (0 for entry 0): its number counting lost actions. For
    /// a gap, the first action it lost.
    package func action(ofEntry seq: Int) -> Int {
        // The last gap at or before `seq`.
        let low = gapCount(through: seq)
        guard low > 0 else { return seq }
        let gap = gaps[low - 1]
        if gap.seq == seq { return gap.firstAction }
        return gap.firstAction.addingSaturating(gap.dropped).addingSaturating(seq - gap.seq - 1)
    }

    /// Where action `number` is: the entry it produced, or the gap that lost it.
    package enum Place: Equatable, Sendable {
        case entry(Int)
        case lost(gap: Int)
        case beyondEnd(actions: Int)
    }

    /// Where action `number` is.
    package func place(ofAction number: Int) -> Place {
        guard number >= 0 else { return .beyondEnd(actions: entryCount == 0 ? 0 : action(ofEntry: entryCount - 1)) }
        var offset = 0
        for gap in gaps {
            if number < gap.firstAction { break }
            if number - gap.firstAction < gap.dropped { return .lost(gap: gap.seq) }
            offset = offset.addingSaturating(gap.dropped - 1)
        }
        let seq = number - offset
        guard seq >= 0, seq < entryCount else {
            return .beyondEnd(actions: entryCount == 0 ? 0 : action(ofEntry: entryCount - 1))
        }
        return .entry(seq)
    }
}

extension Int {
    /// `self + other`, or the nearest bound when that overflows: for counts read from a file.
    func addingSaturating(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }
}

extension Journal {
    /// The action numbers of a session (``ActionNumbers``).
    ///
    /// - Throws: ``ActionLogError`` when the session does not exist or the file cannot be read.
    package func actionNumbers(in session: JournalSession.ID) throws(ActionLogError) -> ActionNumbers {
        let entryCount = try self.session(session).entryCount
        let gaps = try read(session: session) { connection in
            // SQLite's planner takes the primary key (a scan of the session) over the partial index
            // unless told; a file without the index, or with another of its name, is read without it.
            let query = "SELECT seq, dropped FROM entries %@ WHERE session_id = ?1 AND kind = 'gap' ORDER BY seq"
            func gaps(_ sql: String) throws -> [(seq: Int, dropped: Int)] {
                try connection.cachedStatement(sql).rows([.integer(session)]) { (seq: Int(clamping: $0.int(0)), dropped: Int(clamping: $0.int(1))) }
            }
            if try connection.scalarInt("SELECT 1 FROM sqlite_schema WHERE type = 'index' AND name = 'entries_gaps' AND tbl_name = 'entries'") != nil,
                let found = try? gaps(query.replacingOccurrences(of: "%@", with: "INDEXED BY entries_gaps"))
            {
                return found
            }
            return try gaps(query.replacingOccurrences(of: "%@ ", with: ""))
        }
        return ActionNumbers(gaps: gaps, entryCount: entryCount)
    }

    /// The entry that action `number` of a session produced, counting the actions its gaps lost:
    /// action 0 is the initial state (entry 0), action 1 the first action dispatched. Where the
    /// writer dropped actions, entry numbers fall behind action numbers; this finds the entry whose
    /// state is the one after action `number`.
    ///
    /// ```swift
    /// let seq = try journal.seq(ofAction: 20_000, in: session.id)
    /// let state = try journal.state(at: seq, in: session.id)
    /// ```
    ///
    /// - Parameters:
    ///   - number: the action's number, from 0.
    ///   - session: the session's id.
    /// - Returns: the entry's sequence number.
    /// - Throws: ``ActionLogError`` with code ``ActionLogError/Code/entryNotFound`` when a gap lost
    ///   the action (`action 20000 was dropped: gap at entry 19801`) or the session has fewer
    ///   actions; ``ActionLogError/Code/sessionNotFound`` when there is no such session.
    public func seq(ofAction number: Int, in session: JournalSession.ID) throws(ActionLogError) -> Int {
        let numbers = try actionNumbers(in: session)
        switch numbers.place(ofAction: number) {
        case .entry(let seq):
            return seq
        case .lost(let gap):
            throw ActionLogError(.entryNotFound, file: fileName, session: session, reason: """
                action \(number) was dropped: gap at entry \(gap)
                """)
        case .beyondEnd(let actions):
            throw ActionLogError(.entryNotFound, file: fileName, session: session, reason: """
                no action \(number): the session has actions 0...\(actions)
                """)
        }
    }
}
