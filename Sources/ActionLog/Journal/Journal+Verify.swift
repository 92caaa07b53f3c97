/// One problem `verify` found in a journal, named by session and entry.
public struct JournalFinding: Sendable, Hashable, CustomStringConvertible {
    public let session: Session.ID?
    public let entry: Int?
    /// What is wrong, as a sentence fragment.
    public let problem: String

    /// `session S, entry E: problem`, with the characters that could rewrite a terminal escaped
    /// (`\u{1B}`, as in ``JournalError/description``); ``problem`` holds the text unescaped.
    public var description: String {
        var location: [String] = []
        if let session { location.append("session \(session)") }
        if let entry { location.append("entry \(entry)") }
        return (location.isEmpty ? problem : "\(location.joined(separator: ", ")): \(problem)").displayEscaped
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
    /// Checks the journal's integrity: SQLite's own check, then every session's entries against the
    /// rules of ``SessionStates`` (entries 0, 1, 2, … without holes, entry 0 the initial state, every
    /// delta applying within bounds to the state before it, gap counts that add up) and
    /// ``SessionStates/checkAction(of:)``, JSON that parses in every action, state and effect, the
    /// handler records of asynchronous sessions (see ``HandlerRecord``), and sane session statuses.
    ///
    /// Unlike the other readers, it does not stop at the first damaged row: it reports them all.
    /// It reads one page of entries at a time, so a session of any length costs bounded memory, and
    /// reads everything in one read transaction: a journal a recorder is writing is checked as it
    /// was when the verify began, its sessions' counters with the entries they count.
    ///
    /// ```swift
    /// let result = try Journal(path: "app.actionlog").verify()
    /// for finding in result.findings { print(finding) }
    /// ```
    ///
    /// - Throws: ``JournalError`` only when the file cannot be read at all.
    public func verify() throws(JournalError) -> JournalVerification {
        try snapshot { () throws(JournalError) in try verifySnapshot() }
    }

    private func verifySnapshot() throws(JournalError) -> JournalVerification {
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
            var cursor = try entryCursor(in: session.id)
            let (count, sessionFindings) = try check(session: session, cursor: &cursor)
            entryCount += count
            findings += sessionFindings
            // The handler records of an asynchronous session: readable, and each under an entry; a
            // window of entries at a time, so that memory stays bounded however long the session.
            do {
                guard let last = try lastHandlerSeq(in: session.id) else { continue }
                var from = 0
                while from <= last {
                    let (end, overflow) = from.addingReportingOverflow(HandlerRecordPager.windowSize * 8)
                    do {
                        for handler in try handlerRecords(in: session.id, seqs: from...(overflow ? Int.max : end - 1)) where handler.seq >= count {
                            findings.append(JournalFinding(session: session.id, entry: handler.seq, problem: "a handler record for an entry the session does not have"))
                        }
                    } catch {
                        findings.append(JournalFinding(session: session.id, entry: error.entry, problem: error.reason))
                    }
                    if overflow { break }
                    from = end
                }
            } catch {
                findings.append(JournalFinding(session: session.id, entry: error.entry, problem: error.reason))
            }
        }
        return JournalVerification(sessions: sessions.count, entries: entryCount, findings: findings)
    }

    private func check(session: Session, cursor: inout EntryCursor) throws(JournalError) -> (Int, [JournalFinding]) {
        var findings: [JournalFinding] = []
        func finding(_ entry: Int?, _ problem: String) {
            findings.append(JournalFinding(session: session.id, entry: entry, problem: problem))
        }
        func finding(_ error: JournalError) {
            finding(error.entry, error.reason)
        }
        if let ended = session.endedAt, ended < session.startedAt, session.status == .closed {
            finding(nil, "ended before it started")
        }
        if session.status == .closed, session.endedAt == nil {
            finding(nil, "closed without an end time")
        }
        var states = SessionStates(file: fileName, session: session.id)
        var count = 0
        while let raw = try cursor.nextRaw() {
            count += 1
            let entry: Entry
            do {
                entry = try raw.parsed(file: fileName)
            } catch {
                finding(error)
                states.skip(Int(raw.seq))
                continue
            }
            do {
                try states.checkAction(of: entry)
            } catch {
                finding(error)
            }
            do {
                try states.advance(past: entry)
            } catch {
                finding(error)
            }
        }
        // A session whose recorder is live, or died before entry 0 was committed, may have none yet.
        if count > 0 || session.status == .closed {
            do {
                try states.finish(droppedCount: session.droppedCount)
            } catch {
                finding(error)
            }
        }
        return (count, findings)
    }
}
