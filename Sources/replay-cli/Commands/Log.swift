import ActionLog
import ActionLogViewer
import ArgumentParser
import CommandLineSupport
import Foundation

/// `replay-cli log FILE --session ID [--from SEQ] [--limit N] [--label PATTERN] [--kind KIND] [--follow] [--json]`:
/// the timeline of a session.
struct Log: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the timeline of a session: one line per entry.",
        discussion: """
            Lines are printed as the entries are read, a page at a time, so the first ones come at once \
            however long the session. With --json, each entry is one JSON object on its own line (JSON \
            Lines), ready for `jq -c`. States are not read: a damaged state does not stop the timeline. \
            Control characters in labels and actions are printed escaped (\\u{1B}), so each entry is one line. \
            --label and --kind keep the entries that match (both, when both are given), and --limit counts \
            the entries printed; an entry's service calls and output events go with it.

            --follow prints what is there, then the entries a recorder commits, as they commit (it looks \
            every 0.2 s, reading only the entries after the last one printed), like `tail -f`. It ends \
            with exit status 0 once the session is no longer being recorded (closed, or its recorder \
            died), after its last entries, or on Ctrl-C or SIGTERM. It cannot be combined with --limit. \
            It waits for a journal that does not exist yet and for a session that has not started \
            (a --session no session has yet; without --session, the first session), looking every \
            0.2 s: for ever, or up to --wait-timeout seconds, then it exits 1 saying what is missing.

            FILE may be a session's text form (.jsonl), which prints what its journal prints (session \
            is null with --json: a text form has no id); --follow needs a journal.

            Examples:
              replay-cli log app.actionlog --session checkout --label 'add*'
              replay-cli log app.actionlog --session 3 --kind gap --json
              replay-cli log app.actionlog --session checkout --follow
            """
    )

    @OptionGroup var source: SessionFileOptions

    // Unconditional, so that a negative value reaches validate() rather than reading as an unknown option.
    @Option(parsing: .unconditional, help: ArgumentHelp("The first entry to print.", valueName: "seq"))
    var from = 0

    @Option(parsing: .unconditional, help: ArgumentHelp("The most entries to print.", valueName: "n"))
    var limit: Int?

    @Option(help: ArgumentHelp(
        "Only entries whose label matches: * stands for any characters, ? for one; the rest matches itself (at most 1000 characters).",
        valueName: "pattern"))
    var label: String?

    @Option(help: ArgumentHelp("Only entries of this kind: keyframe, delta or gap.", valueName: "kind"))
    var kind: String?

    @Flag(name: .shortAndLong, help: "Keep printing the entries a recorder commits, until the session is no longer recorded.")
    var follow = false

    @Option(name: .customLong("wait-timeout"), parsing: .unconditional, help: ArgumentHelp(
        "With --follow, how long to wait for a journal or a session that is not there yet, in seconds (0.5, 30). Default: for ever.",
        valueName: "seconds"))
    var waitTimeout: Double?

    @Flag(help: "Print JSON Lines for scripts: one object per entry.")
    var json = false

    func validate() throws {
        guard from >= 0 else { throw ValidationError("--from must be 0 or more, not \(from)") }
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more, not \(limit)") }
        if let kind, Entry.Kind(rawValue: kind) == nil {
            throw ValidationError("--kind must be keyframe, delta or gap, not \(kind.displayEscaped)")
        }
        if let label {
            do throws(LabelPattern.TooLong) {
                _ = try LabelPattern(label)
            } catch {
                throw ValidationError(error.description)
            }
        }
        if follow, limit != nil {
            throw ValidationError("--limit and --follow cannot be used together: --follow prints every entry to come")
        }
        if let waitTimeout {
            guard follow else { throw ValidationError("--wait-timeout goes with --follow: only --follow waits for a journal or a session") }
            guard waitTimeout.isFinite, waitTimeout >= 0, waitTimeout <= 1e9 else {
                throw ValidationError("--wait-timeout must be a number of seconds from 0 to 1000000000, not \(waitTimeout)")
            }
        }
        if follow, source.isTextForm {
            throw ValidationError(
                "--follow follows a journal that an app records into; \(source.file.displayEscaped) is a session in text form (.jsonl), which nothing records into")
        }
        if follow, source.isStore {
            throw ValidationError("--follow follows a journal that an app records into; a team store holds closed sessions only (push sends them once closed)")
        }
    }

    /// Whether `entry` is one the filters keep.
    private func keeps(_ entry: EntrySummary, pattern: LabelPattern?) -> Bool {
        keeps(kind: entry.kind.rawValue, label: entry.label, pattern: pattern)
    }

    /// Whether an entry of that kind and label is one the filters keep.
    private func keeps(kind: String, label: String?, pattern: LabelPattern?) -> Bool {
        if let wanted = self.kind, kind != wanted { return false }
        if let pattern { return label.map(pattern.matches) ?? false }
        return true
    }

    func run() throws {
        // Installed before anything is printed: a signal sent as soon as the first lines appear
        // already asks --follow to stop, instead of ending the process.
        let stop = follow ? StopSignal() : nil
        let found: (OpenedFile, JournalSession)?
        if let stop {
            found = try waitForSession(stop: stop)
        } else {
            found = try source.open(requiringEntries: false)
        }
        // Stopped by a signal before there was anything to print.
        guard let (opened, session) = found else { return }
        let journal = opened.journal
        // A session being recorded may have no entries yet: following it waits for them.
        if !(follow && session.status == .recording) { try requireEntries(session, in: journal) }
        // validate() refused a pattern too long: this one is not.
        let pattern = try label.map { text throws(LabelPattern.TooLong) in try LabelPattern(text) }
        let filtering = pattern != nil || kind != nil
        // With a filter, --limit counts the entries printed, not the entries read.
        let readLimit = filtering ? nil : limit
        // An asynchronous session's service calls and output events, printed under their entry: read
        // a window of entries at a time, asked for every entry read so that each window is read
        // just after the page of entries it covers (a live session's records are then all there).
        var handlers = HandlerRecordPager(journal: journal, session: session.id)
        var printer = Printer(session: session, shownID: opened.shownID(session), json: json)
        if json { printer.numbers = try reportingErrors { () throws(ActionLogError) in try journal.actionNumbers(in: session.id) } }
        var printed = 0
        var next: Int? = from
        var cursor = try reportingErrors { () throws(ActionLogError) in try journal.timelineCursor(in: session.id, from: from, limit: readLimit) }
        var damaged = false
        // With --follow, a signal during this first walk (a long session) ends it as it ends the follow.
        while filtering ? printed < (limit ?? .max) : true, stop?.isRequested != true {
            let read: TimelineCursor.Filtered
            do {
                // An entry the filters leave out is not parsed: a damaged action there fails nothing.
                guard let found = try cursor.next(keeping: { keeps(kind: $0, label: $1, pattern: pattern) }) else { break }
                read = found
            } catch where error.code == .corrupt {
                // The cursor has passed the damaged entry, or has ended.
                next = try passOver(error, after: next, printer: &printer, damaged: &damaged)
                continue
            } catch {
                try printer.flush()
                return try reportingErrors { () throws(ActionLogError) in throw error }
            }
            let entry: EntrySummary
            switch read {
            case .kept(let kept):
                entry = kept
            case .passed(let seq):
                next = Self.following(seq, after: next)
                _ = try reportingErrors { () throws(ActionLogError) in try handlers.record(at: seq) }
                continue
            }
            // A kept entry is one the filters keep: the cursor asked them of its stored kind and label.
            next = Self.following(entry.seq, after: next)
            let handler = try reportingErrors { () throws(ActionLogError) in try handlers.record(at: entry.seq) }
            printed += 1
            try printer.print(entry, handler: handler)
        }
        try printer.flush()
        // After an entry at the largest sequence number there is, no entry can follow. A damaged
        // entry ends nothing: the follow goes on, and the exit status says so at the end.
        if let stop, !stop.isRequested, session.status == .recording, let next {
            try follow(journal: journal, session: session.id, from: next, pattern: pattern, printer: &printer, stop: stop, damaged: &damaged)
        }
        if damaged { throw ExitCode.failure }
    }

    // MARK: - Following

    /// The journal and the session to follow, once they are there: a journal a recorder has not
    /// created yet, or a session it has not started, is waited for, looking every ``pollInterval``,
    /// up to `--wait-timeout`; `nil` when a signal asks to stop first.
    private func waitForSession(stop: StopSignal) throws -> (OpenedFile, JournalSession)? {
        let deadline = waitTimeout.map { ContinuousClock.now + .milliseconds(Int64(($0 * 1000).rounded(.up))) }
        var toldWaiting = false
        var options = SessionOptions()
        options.session = source.session
        while true {
            let missing: ActionLogError
            do throws(ActionLogError) {
                let journal = try Journal(path: source.file)
                do throws(ActionLogError) {
                    return (OpenedFile(journal: journal), try options.find(in: journal))
                } catch where error.code == .sessionNotFound {
                    // Without --session, a journal of several sessions is the user's to choose in, not to wait on.
                    if source.session == nil, try journal.sessionCount() > 1 { throw error }
                    missing = error
                }
            } catch where error.code == .fileNotFound || JournalFile.isUnfinishedWrite(error)
                || (error.code == .notAJournal && error.reason == JournalFile.emptyDatabaseReason)
            {
                // Not there yet, or being created by a recorder: looked at again, opened afresh.
                missing = error
            } catch {
                return try reportingErrors { () throws(ActionLogError) in throw error }
            }
            if let deadline, ContinuousClock.now >= deadline {
                let waited = waitTimeout.map { Format.seconds($0) } ?? ""
                Terminal.printError("\(missing.description); gave up after waiting \(waited) for it (--wait-timeout)")
                throw ExitCode.failure
            }
            if !toldWaiting, Terminal.isErrorInteractive {
                Terminal.printWarning("\(missing.description); waiting for it (Ctrl-C to stop)")
                toldWaiting = true
            }
            if stop.wait(Self.pollInterval) { return nil }
        }
    }

    /// Polls the session every ``pollInterval`` and prints the entries committed since the last
    /// look, until the session is no longer being recorded or a signal asks to stop.
    private func follow(
        journal: Journal, session: JournalSession.ID, from seq: Int, pattern: LabelPattern?, printer: inout Printer, stop: StopSignal,
        damaged: inout Bool
    ) throws {
        // `nil` after an entry at the largest sequence number there is: nothing can follow it, and
        // the follow ends once that entry is printed.
        var next: Int? = seq
        // The file followed: a journal deleted and made again at the same path is another file, whose
        // session of the same id (its lock found by the path) is not this one.
        let followed = FileIdentity(path: source.file)
        while let from = next, !stop.wait(Self.pollInterval) {
            guard let followed, FileIdentity(path: source.file) == followed else {
                try printer.flush()
                Terminal.printError("\(journal.fileName.displayEscaped): the journal was removed or replaced while it was followed; the follow ends here")
                throw ExitCode.failure
            }
            // The status is read before the entries: once it says the recording ended, every entry
            // of the session is committed, and the read below sees them all.
            let status = try reportingErrors { () throws(ActionLogError) in try journal.session(session).status }
            // The gaps committed since, for the action numbers of the entries after them.
            if json { printer.numbers = try reportingErrors { () throws(ActionLogError) in try journal.actionNumbers(in: session) } }
            var cursor = try reportingErrors { () throws(ActionLogError) in try journal.timelineCursor(in: session, from: from) }
            var fresh: [EntrySummary] = []
            while let current = next {
                let read: EntrySummary?
                do {
                    read = try cursor.next()
                } catch where error.code == .corrupt && error.entry != nil {
                    // The follow goes on past it (the cursor has passed it), as the first walk does.
                    try print(fresh, journal: journal, session: session, pattern: pattern, printer: &printer)
                    fresh.removeAll(keepingCapacity: true)
                    next = try passOver(error, after: current, printer: &printer, damaged: &damaged)
                    continue
                } catch {
                    try printer.flush()
                    return try reportingErrors { () throws(ActionLogError) in throw error }
                }
                guard let entry = read else { break }
                // Printed already: only a damaged index answers an entry before the one asked for.
                guard entry.seq >= current else { continue }
                fresh.append(entry)
                next = Self.following(entry.seq, after: current)
                // A page at a time, so a recorder far ahead costs bounded memory.
                if fresh.count >= EntryPageSize.rows {
                    try print(fresh, journal: journal, session: session, pattern: pattern, printer: &printer)
                    fresh.removeAll(keepingCapacity: true)
                }
            }
            try print(fresh, journal: journal, session: session, pattern: pattern, printer: &printer)
            try printer.flush()
            if status != .recording { return }
        }
        try printer.flush()
    }

    /// Prints new entries with their handler records, read for those entries only.
    private func print(
        _ entries: [EntrySummary], journal: Journal, session: JournalSession.ID, pattern: LabelPattern?, printer: inout Printer
    ) throws {
        guard let head = entries.first, let tail = entries.last, head.seq <= tail.seq else { return }
        let records = try reportingErrors { () throws(ActionLogError) in try journal.handlerRecords(in: session, seqs: head.seq...tail.seq) }
        let handlers = records.bySeq
        for entry in entries where keeps(entry, pattern: pattern) { try printer.print(entry, handler: handlers[entry.seq]) }
    }

    /// Names a damaged entry on standard error, after the lines before it, and returns the entry to
    /// read after it, when `next` was (`nil` after the largest sequence number there is).
    private func passOver(_ error: ActionLogError, after next: Int?, printer: inout Printer, damaged: inout Bool) throws -> Int? {
        try printer.flush()
        Terminal.printError(error.description)
        damaged = true
        guard let seq = error.entry else { return next }
        return Self.following(seq, after: next)
    }

    /// The entry to read after entry `seq`, when `next` was: past it, never back (a damaged index may
    /// answer an entry already read), and `nil` after the largest sequence number there is.
    static func following(_ seq: Int, after next: Int?) -> Int? {
        guard let next else { return nil }
        return seq.successor.map { max(next, $0) }
    }

    /// How long `--follow` waits between two looks at the journal.
    static let pollInterval: DispatchTimeInterval = .milliseconds(200)

    // MARK: - Lines

    /// Prints entries as table rows or JSON Lines, buffered.
    private struct Printer {
        let session: JournalSession
        /// The session's id in `--json` lines: `nil` for a text form.
        let shownID: JournalSession.ID?
        let json: Bool
        var output = BufferedOutput()
        var table = StreamingTable(header: ["SEQ", "OFFSET", "ACTION", "JSON"], width: Terminal.width)
        /// The session's action numbers, for `--json` (`actionNumber`).
        var numbers: ActionNumbers?

        init(session: JournalSession, shownID: JournalSession.ID?, json: Bool) {
            self.session = session
            self.shownID = shownID
            self.json = json
        }

        /// Prints `entry`, and under it what its asynchronous handler did, if it has a record.
        mutating func print(_ entry: EntrySummary, handler: HandlerRecord?) throws {
            if json {
                var line = Log.json(entry, session: session, shownID: shownID)
                if case .object(var members) = line {
                    if let handler { members["handler"] = handler.jsonValue }
                    // Counting the actions gaps lost (for a gap, the first it lost).
                    members["actionNumber"] = numbers.map { JSONOutput.number($0.action(ofEntry: entry.seq)) } ?? .null
                    line = .object(members)
                }
                try output.write(line.canonicalText.jsonDisplayEscaped)
                return
            }
            let gap = entry.gap != nil
            table.add(Log.row(entry, session: session), styles: gap ? [1: .dim, 2: .yellow, 3: .yellow] : [1: .dim])
            for record in handler?.records ?? [] { table.add(Log.row(record)) }
            for note in handler.map({ Journal.notes(on: $0, in: nil) }) ?? [] {
                table.add(["", "", "  note", note.problem], styles: [2: .yellow, 3: .yellow])
            }
            if table.pending >= EntryPageSize.rows { try table.flush(into: &output) }
        }

        /// Prints what is waiting.
        mutating func flush() throws {
            if !json { try table.flush(into: &output) }
            try output.flush()
        }
    }

    private static func row(_ entry: EntrySummary, session: JournalSession) -> [String] {
        let offset = Format.seconds(entry.time.timeIntervalSince(session.startedAt), sign: true)
        if let (dropped, note) = entry.gap {
            return [String(entry.seq), offset, "(gap)", note ?? "\(dropped) actions lost"]
        }
        guard let label = entry.label, let action = entry.action else {
            return [String(entry.seq), offset, "(initial state)", ""]
        }
        return [String(entry.seq), offset, label, action.canonicalText]
    }

    /// A service call or an output event, under its entry: `call ProductService.fetchProduct("p-7") → {…}`.
    private static func row(_ record: HandlerRecord.Record) -> [String] {
        switch record {
        case .call(let call):
            return ["", "", "  call", "\(call) \(call.answerText)"]
        case .output(let event):
            return ["", "", "  output", event.event.canonicalText]
        }
    }

    /// One line of `log --json`, in the naming of ``JSONOutput``.
    private static func json(_ entry: EntrySummary, session: JournalSession, shownID: JournalSession.ID?) -> JSONValue {
        let gap = entry.gap
        // Optional members typed one by one: in one literal they cost the type checker most of a second.
        let label: JSONValue = entry.label.map(JSONValue.string) ?? .null
        let reducer: JSONValue = entry.reducerDuration.map(JSONOutput.nanoseconds) ?? .null
        let dropped: JSONValue = gap.map { JSONOutput.number($0.dropped) } ?? .null
        let note: JSONValue = gap?.note.map(JSONValue.string) ?? .null
        let members: [String: JSONValue] = [
            "session": shownID.map(JSONOutput.number) ?? .null,
            "seq": JSONOutput.number(entry.seq),
            "kind": .string(entry.kind.rawValue),
            "time": JSONOutput.time(entry.time),
            "offsetNanoseconds": JSONOutput.nanoseconds(entry.time.timeIntervalSince(session.startedAt)),
            "label": label,
            "action": entry.action ?? .null,
            "effect": entry.effect ?? .null,
            "reducerNanoseconds": reducer,
            "dropped": dropped,
            "note": note,
        ]
        return .object(members)
    }
}

/// How many rows the CLI reads and prints at a time.
enum EntryPageSize {
    static let rows = 512
}

extension ServiceCall {
    /// How the call was answered, as `log` and `diff` print it: `→ {…}` or `threw {…}`.
    var answerText: String {
        switch outcome {
        case .returned(let value): "→ \(value.canonicalText)"
        case .threw(let error): "threw \(error.canonicalText)"
        }
    }
}
