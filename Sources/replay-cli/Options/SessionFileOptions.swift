import ActionLog
import ActionLogPostgres
import ArgumentParser
import CommandLineSupport
import Foundation

/// The file argument and `--session` of the commands that read one session of a journal or a
/// session's text form (`log`, `state`, `diff`, `export`, `report`). A text file holds one session,
/// and so may a journal: then `--session` can be left out.
struct SessionFileOptions: ParsableArguments {
    @Argument(
        help: ArgumentHelp("A journal (.actionlog), a session in text form (.jsonl), or a team store (postgres://...).", valueName: "file"),
        completion: .file(extensions: ["actionlog", "jsonl"]))
    var file: String

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "The session: its id, its uuid, or its name (the newest session of that name). Not needed when the file holds one session.",
            valueName: "id")
    )
    var session: String?

    func validate() throws {
        try refuseEmptyPath(file)
    }

    /// Whether `file` is a session's text form, by its extension.
    var isTextForm: Bool { RecordedSession.isTextFormPath(file) }

    /// Whether `file` is a team store's URL (`postgres://`).
    var isStore: Bool { PostgresLocation.isURL(file) }

    /// The file as output names it: a team store's URL without its password.
    var shownFile: String {
        guard isStore else { return file }
        return (try? PostgresLocation(url: file).description) ?? "postgres://…"
    }

    /// The file, opened (a text form read into a temporary journal, see ``OpenedFile``), and the
    /// session `--session` names in it.
    ///
    /// - Parameters:
    ///   - keepingPath: whether the journal's path must name it while the result lives.
    ///   - requiringEntries: whether a session without entries is refused (``requireEntries(_:in:)``).
    ///   - states: for a command that reads the states at these entries only: a team store's
    ///     session is read from the keyframe before the first through the last. A file is opened
    ///     whole, as always.
    func open(keepingPath: Bool = false, requiringEntries: Bool = true, states: ClosedRange<Int>? = nil) throws -> (file: OpenedFile, session: JournalSession) {
        let opened = try OpenedFile(file, keepingPath: keepingPath, session: session, states: states)
        let resolved = try opened.resolve(session)
        if requiringEntries { try requireEntries(resolved, in: opened.journal) }
        return (opened, resolved)
    }

    /// The files read: the text file, or the journal and its companions (`-wal`, `-shm`, `-journal`),
    /// with how messages name each.
    var filesRead: [(path: String, role: String)] {
        if isTextForm { return [(file, "the file being read")] }
        return [
            (file, "the journal being read"), (file + "-wal", "the write-ahead log of the journal being read"),
            (file + "-shm", "the shared memory file of the journal being read"),
            (file + "-journal", "the rollback journal of the journal being read"),
        ]
    }

    /// Writes the session's text form through `write`, entry by entry: a journal's session through a
    /// cursor, a text file line by line, checked on the way (in normal form, with no temporary
    /// journal). A session error is told and becomes the exit status; what `write` throws passes through.
    ///
    /// On a terminal, a long export shows how many entries it has written (``ProgressLine``), unless
    /// `showingProgress` is `false` (the text itself goes to the terminal).
    func exportJSONL(showingProgress: Bool = true, write: ([UInt8]) throws -> Void) throws {
        var progress: ProgressLine?
        defer { progress?.finish() }
        // Lines written, counted in the chunks: no JSON text holds a raw newline. Line 1 is the header.
        var lines = 0
        func counting(_ bytes: [UInt8]) throws {
            try write(bytes)
            guard let progress else { return }
            for byte in bytes where byte == UInt8(ascii: "\n") { lines += 1 }
            progress.update(max(0, lines - 1))
        }
        if isTextForm {
            progress = ProgressLine("export", total: nil, unit: "entries", isEnabled: showingProgress && Terminal.isErrorInteractive)
            try reportingJournalErrors {
                var reader = try RecordedSession.jsonlReader(at: URL(fileURLWithPath: file))
                if let session, session != reader.session.name {
                    throw OpenedFile.noSuchSession(session, file: reader.file, holding: reader.session.name)
                }
                let handlers = reader.handlers
                try RecordedSession.writeJSONL(
                    session: reader.session, source: .textFile(reader.file), handler: { handlers.bySeq[$0] },
                    next: { () throws(ActionLogError) in try reader.next() }, write: counting)
            }
            return
        }
        let (opened, resolved) = try open()
        progress = ProgressLine("export", total: resolved.entryCount, unit: "entries", isEnabled: showingProgress && Terminal.isErrorInteractive)
        try reportingJournalErrors { try opened.journal.exportJSONL(resolved.id, write: counting) }
    }
}
