/// One problem `verify` found in a journal, named by session and entry.
public struct JournalFinding: Sendable, Hashable, CustomStringConvertible {
    public let session: Session.ID?
    public let entry: Int?
    /// What is wrong, as a sentence fragment.
    public let problem: String

    public var description: String {
        var location: [String] = []
        if let session { location.append("session \(session)") }
        if let entry { location.append("entry \(entry)") }
        return location.isEmpty ? problem : "\(location.joined(separator: ", ")): \(problem)"
    }
}

/// What `verify` checked, and what it found.
public struct JournalVerification: Sendable, Hashable {
    public let sessions: Int
    public let entries: Int
    public let findings: [JournalFinding]
    public var isValid: Bool { findings.isEmpty }
}

extension Journal {
    /// Checks the journal's integrity: SQLite's own check, gapless sequence numbers starting at entry 0,
    /// an initial state in entry 0, JSON that parses in every action, state and effect, entry kinds with
    /// the columns they need, every delta applying to the state before it, gap counts that add up, and
    /// sane session statuses.
    ///
    /// Unlike the other readers, it does not stop at the first damaged row: it reports them all.
    ///
    /// ```swift
    /// let result = try Journal(path: "app.actionlog").verify()
    /// for finding in result.findings { print(finding) }
    /// ```
    ///
    /// - Throws: ``JournalError`` only when the file cannot be read at all.
    public func verify() throws(JournalError) -> JournalVerification {
        let sessions = try self.sessions()
        var findings: [JournalFinding] = []
        var entryCount = 0
        let integrity = try read { connection in
            try connection.prepare("PRAGMA quick_check").rows { $0.text(0) ?? "" }
        }
        if integrity != ["ok"] {
            findings += integrity.map { JournalFinding(session: nil, entry: nil, problem: "SQLite integrity check: \($0)") }
        }
        for session in sessions {
            let raws = try read(session: session.id) { connection in
                try Self.rawEntries(connection, session: session.id)
            }
            entryCount += raws.count
            findings += Self.check(session: session, entries: raws)
        }
        return JournalVerification(sessions: sessions.count, entries: entryCount, findings: findings)
    }

    private static func check(session: Session, entries: [RawEntry]) -> [JournalFinding] {
        var findings: [JournalFinding] = []
        func finding(_ entry: Int?, _ problem: String) {
            findings.append(JournalFinding(session: session.id, entry: entry, problem: problem))
        }
        if let ended = session.endedAt, ended < session.startedAt, session.status == .closed {
            finding(nil, "ended before it started")
        }
        if session.status == .closed, session.endedAt == nil {
            finding(nil, "closed without an end time")
        }
        guard let first = entries.first else {
            if session.status == .closed { finding(nil, "closed with no entries: the initial state is missing") }
            return findings
        }
        if first.seq != 0 {
            finding(0, "missing: the session starts at entry \(first.seq)")
        } else if first.kind != Entry.Kind.keyframe.rawValue || first.state == nil || first.action != nil {
            finding(0, "entry 0 must be a keyframe holding the initial state and no action")
        }
        var expected = first.seq
        var droppedTotal = 0
        for raw in entries {
            if raw.seq != expected {
                if raw.seq < expected {
                    finding(raw.seq, "out of order")
                } else if raw.seq == expected + 1 {
                    finding(expected, "missing: the entry is not in the file")
                } else {
                    finding(expected, "missing: entries \(expected)...\(raw.seq - 1) are not in the file")
                }
            }
            expected = raw.seq + 1
            func parses(_ text: String?, _ column: String) {
                guard let text else { return }
                do {
                    _ = try JSONValue(parsing: text)
                } catch {
                    finding(raw.seq, "the \(column) is not valid JSON: \(error)")
                }
            }
            parses(raw.action, "action")
            parses(raw.state, "state")
            parses(raw.effect, "effect")
            switch Entry.Kind(rawValue: raw.kind) {
            case .keyframe?, .delta?:
                if raw.state == nil { finding(raw.seq, "a \(raw.kind) without a state") }
                if raw.seq > 0, raw.action == nil { finding(raw.seq, "no action recorded") }
                if (raw.action == nil) != (raw.label == nil), raw.seq > 0 { finding(raw.seq, "an action label without an action, or the reverse") }
            case .gap?:
                if (raw.dropped ?? 0) <= 0 { finding(raw.seq, "a gap that lost no actions") }
                if raw.state != nil || raw.action != nil { finding(raw.seq, "a gap holding an action or a state") }
                droppedTotal += Int(raw.dropped ?? 0)
            case nil:
                finding(raw.seq, "unknown entry kind \"\(raw.kind)\"")
            }
        }
        // Every delta must apply to the state before it. After a problem already reported (a hole,
        // a row that does not parse, a delta that does not apply), deltas are unchecked until the
        // next keyframe: they have no known state to apply to.
        var state: JSONValue?
        var previousSeq = -1
        for raw in entries {
            defer { previousSeq = raw.seq }
            guard raw.seq == previousSeq + 1, let entry = try? raw.parsed(file: "") else {
                state = nil
                continue
            }
            if entry.kind == .delta, state == nil { continue }
            do {
                try entry.advance(&state, file: "")
            } catch {
                finding(raw.seq, error.reason)
                state = nil
            }
        }
        if droppedTotal != session.droppedCount {
            finding(nil, "the session counts \(session.droppedCount) dropped actions, but its gaps add up to \(droppedTotal)")
        }
        return findings
    }
}
