import ActionLog
import Foundation
import HostileFileSupport
import Replayer

/// Runs every reader of the library over one file and collects what went wrong: an error that is
/// not a named one (a ``ActionLogError`` naming the file, and for entry-level problems the session
/// or line and the entry; a ``ReplayError``), or readers that disagree about whether a session
/// is valid. A crash or a hang is a failure by itself: the test process dies or never ends.
struct ReaderRun {
    let directory: TemporaryDirectory
    private(set) var problems: [String] = []
    /// How many calls threw a named error, and how many returned: that the run reads something.
    private(set) var refusals = 0
    private(set) var successes = 0

    init(directory: TemporaryDirectory) {
        self.directory = directory
    }

    // MARK: - Errors

    /// Checks that `error` is named: the file is `file` (or one of `files`), the description starts
    /// with it, and an entry-level error says where the entry is.
    private mutating func expectNamed(_ error: any Error, _ call: String, files: [String], text: Bool) {
        refusals += 1
        if let failure = error as? ReplayError {
            if !files.contains(failure.file ?? "") || !failure.description.hasPrefix(failure.file ?? "?") {
                problems.append("\(call): a replay failure that does not name the file: \(failure)")
            }
            return
        }
        guard let error = error as? ActionLogError else {
            problems.append("\(call): threw \(type(of: error)), not an ActionLogError: \(error)")
            return
        }
        let description = error.description
        guard let file = error.file, files.contains(file), description.hasPrefix(file + (error.session != nil || error.entry != nil ? ", " : ": ")) else {
            problems.append("\(call): the error does not name the file (\(files)): \(description)")
            return
        }
        if error.reason.isEmpty || description.contains("Error Domain=") {
            problems.append("\(call): the error does not say what is wrong: \(description)")
        }
        if error.entry != nil, error.sqliteCode == nil, error.file == files.first {
            // An entry that is not in the file has no line to point at.
            if text, error.line == nil, error.code != .entryNotFound {
                problems.append("\(call): an entry of a text file named without its line: \(description)")
            }
            if !text, error.session == nil {
                problems.append("\(call): an entry named without its session: \(description)")
            }
        }
    }

    /// Runs `body`; a thrown error must be named. Returns the result, or `nil` after an error.
    private mutating func call<T>(_ name: String, files: [String], text: Bool = false, _ body: () throws -> T) -> T? {
        do {
            let result = try body()
            successes += 1
            return result
        } catch {
            expectNamed(error, name, files: files, text: text)
            return nil
        }
    }

    /// Uses what was read the way `diff`, `state` and replay reports do.
    private func look(at values: [JSONValue]) {
        for (left, right) in zip(values, values.dropFirst()) {
            _ = left.differences(to: right).map(\.description)
            _ = left.isEquivalent(to: right)
            _ = left == right
        }
        for value in values {
            _ = value.canonicalText
            _ = value.prettyText
            _ = try? JSONValue(parsing: value.canonicalText)
        }
    }

    // MARK: - A journal

    /// Every reader over the journal at `path`.
    mutating func readJournal(at path: String) {
        let file = URL(fileURLWithPath: path).lastPathComponent
        let files = [file]
        let directory = self.directory
        guard let journal = call("Journal(path:)", files: files, { try Journal(path: path) }) else { return }
        let verification = call("verify()", files: files) { try journal.verify() }
        guard let sessions = call("sessions()", files: files, { try journal.sessions() }) else { return }
        for session in sessions {
            let id = session.id
            let name = "session \(id)"
            let entries = call("\(name): entries(in:)", files: files) { try journal.entries(in: id) }
            var walked: [Entry] = []
            _ = call("\(name): entryCursor walk", files: files) { () throws -> Void in
                var cursor = try journal.entryCursor(in: id)
                while let entry = try cursor.next() { walked.append(entry) }
            }
            let last = max(0, session.entryCount - 1)
            var states: [JSONValue] = []
            var stateFailures: [String] = []
            for seq in Set([0, 1, HostileFixture.gapSeq, HostileFixture.gapSeq + 1, last / 2, last, last + 1, Int.max, -1]).sorted() {
                let gap = entries?.first { $0.seq == seq }?.kind == .gap
                if let state = call("\(name): state(at: \(seq))", files: files, { try journal.state(at: seq, in: id) }) {
                    states.append(state)
                } else if let entries, !gap, entries.contains(where: { $0.seq == seq }) {
                    stateFailures.append("state(at: \(seq))")
                }
            }
            look(at: states)
            let exported = directory.path("export-\(id).jsonl")
            _ = FileManager.default.createFile(atPath: exported, contents: nil)
            let didExport = call("\(name): exportJSONL", files: files) { () throws -> Void in
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: exported))
                defer { try? handle.close() }
                try journal.exportJSONL(id, to: handle)
            } != nil
            let replay = Replay(journal: journal, session: id, reducer: reduceBasket)
            let report = call("\(name): Replay.run()", files: files) { try replay.run() }
            _ = report?.description
            for seq in [0, HostileFixture.gapSeq + 1, last] {
                _ = call("\(name): Replay.state(at: \(seq))", files: files) { try replay.state(at: seq) }
            }
            // Handler records, whole and a window at a time as export and log read them.
            let handlers = call("\(name): handlerRecords(in:)", files: files) { try journal.handlerRecords(in: id) }
            let paged = call("\(name): HandlerRecordPager walk", files: files) { () throws -> [HandlerRecord] in
                var pager = HandlerRecordPager(journal: journal, session: id)
                var records: [HandlerRecord] = []
                for seq in walked.map(\.seq) + [HostileFixture.actions.count + 1] {
                    if let record = try pager.record(at: seq) { records.append(record) }
                }
                return records
            }
            _ = handlers?.map { $0.records.map { "\($0)" } }
            let recorded = call("\(name): recordedSession", files: files) { try journal.recordedSession(id) }
            if let recorded {
                let copy = directory.path("copy-\(id).actionlog")
                _ = call("\(name): insert into another journal", files: files + ["copy-\(id).actionlog"]) {
                    try Journal(path: copy, mode: .readWrite).insert(recorded)
                }
            }
            // A session verify finds nothing wrong with reads back through every reader.
            if let verification, !verification.findings.contains(where: { $0.session == id || $0.session == nil }) {
                var disagreeing = stateFailures
                if entries == nil { disagreeing.append("entries(in:)") }
                if !didExport { disagreeing.append("exportJSONL") }
                if report == nil { disagreeing.append("Replay.run()") }
                if recorded == nil { disagreeing.append("recordedSession") }
                if handlers == nil { disagreeing.append("handlerRecords(in:)") }
                if paged == nil { disagreeing.append("HandlerRecordPager") }
                if !disagreeing.isEmpty {
                    problems.append("\(name): verify finds nothing wrong, but \(disagreeing.joined(separator: ", ")) failed")
                }
            }
            if let entries, entries != walked {
                problems.append("\(name): entries(in:) and the entry cursor disagree")
            }
            // What export wrote reads back and imports.
            if didExport {
                let before = problems.count
                readText(at: exported)
                if problems.count > before { problems.append("\(name): the problems above are in the text export wrote") }
            }
        }
    }

    // MARK: - A text form

    /// Every reader over the text form at `path`.
    mutating func readText(at path: String) {
        let url = URL(fileURLWithPath: path)
        let file = url.lastPathComponent
        let target = "import-\(UUID().uuidString).actionlog"
        let directory = self.directory
        let recorded = call("RecordedSession(contentsOfJSONL:)", files: [file], text: true) { try RecordedSession(contentsOfJSONL: url) }
        var importable = false
        if let recorded {
            importable = call("checkImportable()", files: [file], text: true) { try recorded.checkImportable() } != nil
            var states: [JSONValue] = []
            for seq in Set([0, 1, HostileFixture.gapSeq + 1, recorded.entries.count - 1, recorded.entries.count, Int.max, -1]).sorted() {
                if let state = call("state(at: \(seq)) of the text", files: [file], text: true, { try recorded.state(at: seq) }) {
                    states.append(state)
                }
            }
            look(at: states)
            _ = recorded.jsonl()
            let replay = Replay(recording: recorded, reducer: reduceBasket)
            _ = call("Replay(recording:).run()", files: [file], text: true) { try replay.run() }?.description
            _ = call("Replay(recording:).state(at: 1)", files: [file], text: true) { try replay.state(at: 1) }
        }
        let imported = call("Journal.importJSONL", files: [file, target], text: true) {
            try Journal.importJSONL(at: url, into: directory.path(target))
        }
        if importable, imported == nil {
            problems.append("checkImportable() passes, but importJSONL refuses the file")
        }
        if recorded != nil, !importable, imported != nil {
            problems.append("checkImportable() refuses the file, but importJSONL imports it")
        }
        if let imported {
            // What was imported reads back as the same text.
            let back = directory.path("reexport-\(UUID().uuidString).jsonl")
            _ = FileManager.default.createFile(atPath: back, contents: nil)
            _ = call("export of the imported session", files: [target]) { () throws -> Void in
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: back))
                defer { try? handle.close() }
                try Journal(path: directory.path(target)).exportJSONL(imported, to: handle)
            }
        }
    }
}
