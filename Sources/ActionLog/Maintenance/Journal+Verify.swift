import Foundation

/// One problem `verify` found in a journal, named by session and entry.
package struct JournalFinding: Sendable, Hashable, CustomStringConvertible {
    /// What part of the journal a finding is about: a value a script can `switch` on, and what
    /// `replay-cli verify --json` prints as `code`.
    package enum Code: String, Sendable, Hashable {
        /// SQLite's own check of the file (`PRAGMA quick_check`) failed.
        case integrity
        /// A session's row: its status or times do not add up.
        case session
        /// An entry: missing, unreadable, or breaking a rule of ``StateWalk``.
        case entry
        /// An asynchronous session's handler records (service calls, output events).
        case handlerRecord
    }

    package let session: JournalSession.ID?
    package let entry: Int?
    /// What is wrong, as a sentence fragment.
    package let problem: String
    /// What part of the journal the finding is about.
    package let code: Code

    /// A finding, as ``Journal/verify()`` makes them: for tools that report their own checks in
    /// the same shape.
    ///
    /// ```swift
    /// let finding = JournalFinding(session: 2, entry: 7, problem: "the action is not valid JSON")
    /// print(finding)   // session 2, entry 7: the action is not valid JSON
    /// ```
    ///
    /// - Parameters:
    ///   - session: the session, or `nil` for the file as a whole.
    ///   - entry: the entry, or `nil` for the session (or file) as a whole.
    ///   - problem: what is wrong.
    ///   - code: what part of the journal the finding is about; by default an entry.
    package init(session: JournalSession.ID?, entry: Int?, problem: String, code: Code = .entry) {
        self.session = session
        self.entry = entry
        self.problem = problem
        self.code = code
    }

    /// `session S, entry E: problem`, with the characters that could rewrite a terminal escaped
    /// (`\u{1B}`, as in ``ActionLogError/description``); ``problem`` holds the text unescaped.
    package var description: String {
        var location: [String] = []
        if let session { location.append("session \(session)") }
        if let entry { location.append("entry \(entry)") }
        return (location.isEmpty ? problem : "\(location.joined(separator: ", ")): \(problem)").displayEscaped
    }
}

/// What `verify` checked, and what it found.
package struct JournalVerification: Sendable, Hashable {
    package let sessions: Int
    package let entries: Int
    package let findings: [JournalFinding]
    /// What is not damage but limits what a session tells, by entry: an asynchronous handler whose
    /// turn the recorder took from it (``HandlerRecord/releasedAt``: replay reports the entry as not
    /// reproducible), output events emitted outside any handler's work and not journaled
    /// (``HandlerRecord/untrackedOutputs``). They do not make the journal invalid.
    package let notes: [JournalFinding]
    package var isValid: Bool { findings.isEmpty }
}

extension Journal {
    /// Checks the journal's integrity: SQLite's own check, that the file is whole pages (not cut
    /// short), every row's checksum (``Checksums``; rows without one are counted in a note), then
    /// every session's entries against the
    /// rules of ``StateWalk`` (entries 0, 1, 2, … without holes, entry 0 the initial state, every
    /// delta applying within bounds to the state before it, gap counts that add up) and
    /// ``StateWalk/checkAction(of:)``, JSON that parses in every action, state and effect, the
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
    /// - Throws: ``ActionLogError`` only when the file cannot be read at all.
    package func verify() throws(ActionLogError) -> JournalVerification {
        try verify(progress: { _ in })
    }

    /// ``verify()``, telling `progress` how many entries it has checked so far, after each one:
    /// for a caller that shows progress (`replay-cli verify` on a terminal). The total to expect is
    /// the sum of the sessions' ``JournalSession/entryCount``.
    ///
    /// - Parameter progress: called with the number of entries checked, from 1 up.
    /// - Throws: ``ActionLogError`` only when the file cannot be read at all.
    package func verify(progress: (Int) -> Void) throws(ActionLogError) -> JournalVerification {
        try snapshot { () throws(ActionLogError) in try verifySnapshot(progress: progress) }
    }

    private func verifySnapshot(progress: (Int) -> Void) throws(ActionLogError) -> JournalVerification {
        var sessions = sessionCursor()
        var sessionCount = 0
        var findings: [JournalFinding] = []
        var notes: [JournalFinding] = []
        var entryCount = 0
        let integrity = try read { connection in
            try connection.prepare("PRAGMA quick_check").rows { $0.text(0) ?? "" }
        }
        if integrity != ["ok"] {
            findings += integrity.map { JournalFinding(session: nil, entry: nil, problem: "SQLite integrity check: \($0)", code: .integrity) }
        }
        if let problem = try partialPage() {
            findings.append(JournalFinding(session: nil, entry: nil, problem: problem, code: .integrity))
        }
        // Readers are not moved by a trigger; writers refuse the file, and this says why.
        for trigger in try read({ try Schema.triggers($0) }) {
            findings.append(JournalFinding(session: nil, entry: nil, problem: JournalFile.triggerRefusal(trigger), code: .integrity))
        }
        while let row = try sessions.nextRow() {
            sessionCount += 1
            let session: JournalSession
            switch row {
            case .success(let read):
                session = read
            case .failure(let error):
                // A session row that cannot be read (its status, times or metadata): a finding, and
                // its entries, which need what the row says, are not checked.
                findings.append(JournalFinding(session: error.session, entry: nil, problem: error.reason, code: .session))
                continue
            }
            var cursor = try entryCursor(in: session.id)
            let checkedBefore = entryCount
            let (count, unchecked, sessionFindings) = try check(session: session, cursor: &cursor) { progress(checkedBefore + $0) }
            entryCount += count
            findings += sessionFindings
            if let note = try uncheckedNote(session: session.id, entries: unchecked) { notes.append(note) }
            findings += try unrecordedHandlers(of: session)
            // The handler records of an asynchronous session: readable, and each under an entry; a
            // window of entries at a time, so that memory stays bounded however long the session,
            // each window after the first starting at the next record.
            do {
                var next: Int? = 0
                while let from = next {
                    let (end, overflow) = from.addingReportingOverflow(HandlerRecordPager.windowSize * 8)
                    do {
                        let records = try handlerRecords(in: session.id, seqs: from...(overflow ? Int.max : end - 1))
                        // The entries there are, over the records' span (at most a window): an entry
                        // missing before the last is no reason to doubt a record under a later one.
                        let seqs = records.map(\.seq)
                        var present: Set<Int> = []
                        if let first = seqs.min(), let last = seqs.max() {
                            present = try entrySeqs(in: session.id, from: first, through: last)
                        }
                        for handler in records where !present.contains(handler.seq) {
                            findings.append(JournalFinding(session: session.id, entry: handler.seq, problem: "a handler record for an entry the session does not have", code: .handlerRecord))
                        }
                        notes += records.flatMap { Self.notes(on: $0, in: session.id) }
                    } catch {
                        findings.append(JournalFinding(session: session.id, entry: error.entry, problem: error.reason, code: .handlerRecord))
                    }
                    // A damaged index that answers an earlier entry ends the walk with a finding (see
                    // firstHandlerSeq), rather than reading the same windows again.
                    next = overflow ? nil : try firstHandlerSeq(in: session.id, from: end)
                }
            } catch {
                findings.append(JournalFinding(session: session.id, entry: error.entry, problem: error.reason, code: .handlerRecord))
            }
        }
        return JournalVerification(sessions: sessionCount, entries: entryCount, findings: findings, notes: notes)
    }

    /// What a handler record says that limits what its entry tells: see ``JournalVerification/notes``.
    package static func notes(on handler: HandlerRecord, in session: JournalSession.ID?) -> [JournalFinding] {
        var notes: [JournalFinding] = []
        if let place = handler.releasedAt {
            notes.append(JournalFinding(session: session, entry: handler.seq, problem: """
                not reproducible: its handler waited in its turn for something ActionLog cannot see, and the recorder gave \
                the turn on at place \(place) of the run order
                """, code: .handlerRecord))
        }
        if handler.untrackedOutputs > 0 {
            let events = handler.untrackedOutputs == 1 ? "1 output event was" : "\(handler.untrackedOutputs) output events were"
            notes.append(JournalFinding(session: session, entry: handler.seq, problem: """
                \(events) emitted outside any handler's work (a timer, Task.detached, a GCD or delegate callback) before it \
                was written, and not journaled
                """, code: .handlerRecord))
        }
        return notes
    }

    /// The entries of an asynchronous session (an actor or an event ViewModel, as its metadata says)
    /// that have no handler record: each entry after the initial state that is not a gap has one
    /// (its place in the run order and its service calls), which replay and the text form need.
    /// The first ``unrecordedShown`` are findings of their own, the rest counted in one more; by
    /// SQL over the primary keys, so memory stays bounded however long the session.
    private func unrecordedHandlers(of session: JournalSession) throws(ActionLogError) -> [JournalFinding] {
        guard let architecture = SessionArchitecture.of(session.metadata).architecture, architecture.recordsHandlers else { return [] }
        let condition = """
            FROM entries e WHERE e.session_id = ?1 AND e.seq > 0 AND e.kind != 'gap'
            AND NOT EXISTS (SELECT 1 FROM handlers h WHERE h.session_id = e.session_id AND h.seq = e.seq)
            """
        let (seqs, count) = try read(session: session.id) { connection in
            let seqs = try connection.prepare("SELECT e.seq " + condition + " ORDER BY e.seq LIMIT ?2")
                .rows([.integer(session.id), .integer(Int64(Self.unrecordedShown))]) { Int($0.int(0)) }
            let count = seqs.count < Self.unrecordedShown ? seqs.count
                : try connection.prepare("SELECT count(*) " + condition).firstRow([.integer(session.id)]) { Int($0.int(0)) } ?? 0
            return (seqs, count)
        }
        var findings = seqs.map { seq in
            JournalFinding(
                session: session.id, entry: seq,
                problem: architecture.missingHandlerRecord,
                code: .handlerRecord)
        }
        if count > seqs.count {
            findings.append(JournalFinding(session: session.id, entry: nil, problem: "\(count - seqs.count) more entries without a handler record", code: .handlerRecord))
        }
        return findings
    }

    /// How many entries without a handler record ``unrecordedHandlers(of:)`` names one by one.
    static let unrecordedShown = 10

    /// The sequence numbers of the session's entries from `first` through `last` (stored as
    /// integers), by the primary key.
    private func entrySeqs(in session: JournalSession.ID, from first: Int, through last: Int) throws(ActionLogError) -> Set<Int> {
        let seqs = try read(session: session) { connection in
            try connection.cachedStatement(
                "SELECT seq FROM entries WHERE session_id = ?1 AND seq BETWEEN ?2 AND ?3 AND typeof(seq) = 'integer'"
            ).rows([.integer(session), .integer(Int64(first)), .integer(Int64(last))]) { Int($0.int(0)) }
        }
        return Set(seqs)
    }

    private func check(
        session: JournalSession, cursor: inout EntryCursor, progress: (Int) -> Void
    ) throws(ActionLogError) -> (checked: Int, unchecked: Int, [JournalFinding]) {
        var findings: [JournalFinding] = []
        func finding(_ entry: Int?, _ problem: String) {
            findings.append(JournalFinding(session: session.id, entry: entry, problem: problem, code: entry == nil ? .session : .entry))
        }
        func finding(_ error: ActionLogError) {
            finding(error.entry, error.reason)
        }
        for problem in session.recordProblems { finding(nil, problem) }
        var states = StateWalk(file: fileName, session: session.id)
        var count = 0
        var unchecked = 0
        while true {
            let next: RawEntry?
            do {
                next = try cursor.nextRaw()
            } catch {
                // The rows cannot be read on (a damaged index): reported, and the session ends here.
                finding(error)
                break
            }
            guard let raw = next else { break }
            count += 1
            progress(count)
            if raw.checksum == .absent { unchecked += 1 }
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
        return (count, unchecked, findings)
    }

    /// What `verify` says of a session with rows that carry no checksum (``Checksums``): written
    /// before ActionLog checksummed its rows, they read and verify as before, but a change to their
    /// bytes that SQLite's checks accept is not caught. `nil` when every row has one.
    ///
    /// - Parameter entries: how many of the session's entries have none, as the walk counted them.
    private func uncheckedNote(session: JournalSession.ID, entries: Int) throws(ActionLogError) -> JournalFinding? {
        let records = try read(session: session) { connection -> Int in
            let checksums = try Checksums.tablesWithColumn(connection)
            var count = 0
            for table in ["handlers", "calls"] where try connection.hasTable(table) {
                // Both names are constants of this library, never input.
                let unchecked = checksums.contains(table) ? " AND checksum IS NULL" : ""
                count += Int(try connection.scalarInt("SELECT count(*) FROM \(table) WHERE session_id = ?1" + unchecked, [.integer(session)]) ?? 0)
            }
            return count
        }
        guard entries > 0 || records > 0 else { return nil }
        var counted: [String] = []
        if entries > 0 { counted.append(entries == 1 ? "1 entry" : "\(Self.grouped(entries)) entries") }
        if records > 0 { counted.append(records == 1 ? "1 handler row" : "\(Self.grouped(records)) handler rows") }
        return JournalFinding(session: session, entry: nil, problem: """
            \(counted.joined(separator: " and ")) without checksums (written before ActionLog checksummed its rows): \
            a change to their bytes that SQLite's checks accept goes unnoticed
            """)
    }

    /// `1234567` as `1,234,567`.
    static func grouped(_ value: Int) -> String {
        var digits = String(value.magnitude)
        var index = digits.endIndex
        while digits.distance(from: digits.startIndex, to: index) > 3 {
            index = digits.index(index, offsetBy: -3)
            digits.insert(",", at: index)
        }
        return value < 0 ? "-" + digits : digits
    }

    /// What `verify` says of a file shorter than its header says (cut short: a copy that did not
    /// finish, `head -c -1`), whose missing bytes SQLite reads as zeros. Bytes after the last page
    /// (a failed extension on a full disk leaves some) are no damage: SQLite never reads them. `nil`
    /// when the file is whole, or its header's page count is not valid (SQLite then counts the
    /// pages from the file's size), or the file cannot be read (the reads say why).
    /// See <https://www.sqlite.org/fileformat2.html#database_header>.
    private func partialPage() throws(ActionLogError) -> String? {
        // With a write-ahead log, pages past the file's end may be in the log, which an unfinished
        // checkpoint (a disk full) leaves there: the file is whole as SQLite reads it.
        let log = (try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? NSNumber
        guard (log?.int64Value ?? 0) == 0, let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: 100), header.count == 100,
            let size = try? handle.seekToEnd()
        else { return nil }
        let bytes = Array(header)
        func word(_ at: Int) -> UInt64 { bytes[at..<at + 4].reduce(0) { $0 << 8 | UInt64($1) } }
        let rawPageSize = UInt64(bytes[16]) << 8 | UInt64(bytes[17])
        let pageSize = rawPageSize == 1 ? 65_536 : rawPageSize
        // The in-header size is valid when the change counter matches the version-valid-for number.
        guard pageSize >= 512, word(24) == word(92) else { return nil }
        let (expected, overflow) = word(28).multipliedReportingOverflow(by: pageSize)
        guard !overflow, size < expected else { return nil }
        return """
            the file is \(Self.grouped(Int(clamping: size))) bytes, where its header says \(Self.grouped(Int(clamping: word(28)))) pages of \
            \(Self.grouped(Int(pageSize))) bytes (\(Self.grouped(Int(clamping: expected))) bytes): it was cut short, and SQLite reads \
            the missing \(expected - size == 1 ? "byte" : "\(Self.grouped(Int(clamping: expected - size))) bytes") as zeros
            """
    }
}

extension RecordedSession {
    /// Checks a session's text form (`.jsonl`, a golden) by the rules ``Journal/verify(progress:)``
    /// applies to a journal's sessions, reading it a line at a time. A text form is read as import
    /// reads it, so the check stops at the first problem, which it reports as the one finding.
    ///
    /// ```swift
    /// let result = try RecordedSession.verifyJSONL(at: URL(fileURLWithPath: "fixtures/checkout.jsonl"))
    /// print(result.isValid ? "OK" : result.findings.map(\.description).joined(separator: "\n"))
    /// ```
    ///
    /// - Parameter url: the text file.
    /// - Returns: one session, the entries read before any problem, and the problem as a finding.
    /// - Throws: ``ActionLogError`` when the file cannot be read at all (missing, a directory, a journal
    ///   rather than a text form).
    package static func verifyJSONL(at url: URL) throws(ActionLogError) -> JournalVerification {
        var reader = try jsonlReader(at: url)
        var entries = 0
        do throws(ActionLogError) {
            while try reader.next() != nil { entries += 1 }
        } catch where error.code == .corrupt {
            let finding = JournalFinding(session: nil, entry: error.entry, problem: error.detail, code: error.entry == nil ? .session : .entry)
            return JournalVerification(sessions: 1, entries: entries, findings: [finding], notes: [])
        }
        let notes = reader.handlers.inOrder.flatMap { Journal.notes(on: $0, in: nil) }
        return JournalVerification(sessions: 1, entries: entries, findings: [], notes: notes)
    }
}
