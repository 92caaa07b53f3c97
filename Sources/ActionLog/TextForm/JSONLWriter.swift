import Foundation

/// Writes the text form line by line into ``buffer``; the caller drains the buffer as it likes, so
/// a session of any length is written at the cost of one line at a time.
struct JSONLWriter {
    /// What was written and not yet taken by the caller.
    var buffer: [UInt8] = []
    private var isFirst = true

    /// The header line: the session's metadata.
    mutating func header(_ session: SessionHeader) {
        begin()
        add("actionlog", "\"session\"")
        add("format", String(RecordedSession.jsonlFormatVersion))
        add("name", string: session.name)
        // Only a stored id: a derived one is derived again from this header by whoever reads it.
        add("uuid", string: session.storedUUID?.uuidString.lowercased())
        add("status", string: session.status.rawValue)
        add("startedAt", time: session.startedAt)
        add("endedAt", time: session.endedAt)
        add("libraryVersion", string: session.libraryVersion)
        add("appVersion", string: session.appVersion)
        add("stateType", string: session.stateType)
        add("actionType", string: session.actionType)
        add("effectType", string: session.effectType)
        add("dropped", String(session.droppedCount))
        add("metadata", json: session.metadata)
        end()
    }

    /// One entry's line; `handler`: what its asynchronous handler did, if it had one.
    mutating func entry(_ entry: Entry, handler: HandlerRecord? = nil) {
        begin()
        add("seq", String(entry.seq))
        add("kind", string: entry.kind.rawValue)
        add("label", string: entry.label)
        add("time", time: entry.time)
        add("durationNs", entry.durationNanoseconds.map { String($0) })
        add("action", json: entry.action)
        add("effect", json: entry.effect)
        add("handler", json: handler?.jsonValue)
        switch entry.content {
        case .keyframe(let state):
            add("state", json: state)
        case .delta(let patch):
            key("patch")
            patch.writeCanonical(to: &buffer)
        case .gap(let dropped, let note):
            add("dropped", String(dropped))
            add("note", string: note)
        }
        end()
    }

    private mutating func begin() {
        buffer.append(UInt8(ascii: "{"))
        isFirst = true
    }

    private mutating func end() {
        buffer.append(UInt8(ascii: "}"))
        buffer.append(UInt8(ascii: "\n"))
    }

    private mutating func key(_ key: String) {
        if !isFirst { buffer.append(UInt8(ascii: ",")) }
        isFirst = false
        JSONValue.writeString(key, to: &buffer)
        buffer.append(UInt8(ascii: ":"))
    }

    /// Adds `"key":text`, where `text` is already JSON; nothing when `text` is `nil`.
    private mutating func add(_ key: String, _ text: String?) {
        guard let text else { return }
        self.key(key)
        buffer.append(contentsOf: text.utf8)
    }

    private mutating func add(_ key: String, string: String?) {
        guard let string else { return }
        self.key(key)
        JSONValue.writeString(string, to: &buffer)
    }

    private mutating func add(_ key: String, time: Date?) {
        add(key, time.map(JSONLTime.text))
    }

    private mutating func add(_ key: String, json: JSONValue?) {
        guard let json else { return }
        self.key(key)
        json.writeCanonical(to: &buffer)
    }
}

extension Journal {
    /// Writes a session's text form (see ``RecordedSession/jsonl()``) to `handle`, entry by entry:
    /// memory stays bounded however long the session, and the first lines are written at once.
    ///
    /// The session is checked as it is written, as an import checks it (``StateWalk`` and
    /// ``StateWalk/checkAction(of:)``): a damaged entry stops the export with an error naming
    /// it, after the lines before it were written. What exports imports again.
    ///
    /// The session is read in one read transaction: of a session a recorder is writing, the header
    /// and the entries are those committed when the export began. Until it ends, a recorder can
    /// write a journal in WAL mode but cannot start on a closed one (it waits up to its busy timeout).
    ///
    /// ```swift
    /// try journal.exportJSONL(3, to: FileHandle.standardOutput)
    /// ```
    ///
    /// - Parameters:
    ///   - id: the session.
    ///   - handle: where the text goes.
    /// - Throws: ``ActionLogError``: the session's errors, or ``ActionLogError/Code/fileSystem`` when
    ///   writing to `handle` fails (a full disk, a closed pipe).
    package func exportJSONL(_ id: JournalSession.ID, to handle: FileHandle) throws(ActionLogError) {
        try snapshot { () throws(ActionLogError) in
            let session = try self.session(id)
            var handlers = HandlerRecordPager(journal: self, session: id)
            var cursor = try entryCursor(in: id)
            try RecordedSession.writeJSONL(session: session.header, source: .journal(file: fileName, id: id), to: handle, handler: { seq throws(ActionLogError) in try handlers.record(at: seq) }) {
                () throws(ActionLogError) in try cursor.next()
            }
        }
    }

    /// ``exportJSONL(_:to:)`` with the text handed to `write` in chunks of about 64 KiB: for a caller
    /// that reports its own write failures (the CLI names the file it could not write).
    ///
    /// - Throws: ``ActionLogError`` for the session's errors, or what `write` throws.
    package func exportJSONL(_ id: JournalSession.ID, write: ([UInt8]) throws -> Void) throws {
        let session = try self.session(id)
        // An asynchronous session's handler records are read a window of entries at a time, as the entries are.
        var handlers = HandlerRecordPager(journal: self, session: id)
        var cursor = try entryCursor(in: id)
        try RecordedSession.writeJSONL(
            session: session.header, source: .journal(file: fileName, id: id), handler: { seq throws(ActionLogError) in try handlers.record(at: seq) },
            next: { () throws(ActionLogError) in try cursor.next() }, write: write)
    }
}

extension RecordedSession {
    /// Writes a session's text form from entries read one at a time, checking them on the way.
    package static func writeJSONL(
        session: SessionHeader, source: Source, to handle: FileHandle, handler: (Int) throws(ActionLogError) -> HandlerRecord? = { _ in nil },
        next: () throws(ActionLogError) -> Entry?
    ) throws(ActionLogError) {
        let (file, id) = (source.file, source.journalID)
        do {
            try writeJSONL(session: session, source: source, handler: handler, next: next) { bytes in
                do {
                    try handle.write(contentsOf: bytes)
                } catch {
                    throw ActionLogError(.fileSystem, file: file, session: id, reason: "cannot write the text form: \(error.localizedDescription)")
                }
            }
        } catch let error as ActionLogError {
            throw error
        } catch {
            // Unreachable: `next` and the writer above throw only ActionLogError.
            throw ActionLogError(.fileSystem, file: file, session: id, reason: "cannot write the text form: \(error)")
        }
    }

    /// Writes a session's text form from entries read one at a time, checking them on the way, and
    /// hands it to `write` in chunks of about 64 KiB.
    ///
    /// - Throws: ``ActionLogError`` for the session's errors, or what `write` throws.
    package static func writeJSONL(
        session: SessionHeader, source: Source, handler: (Int) throws(ActionLogError) -> HandlerRecord? = { _ in nil },
        next: () throws(ActionLogError) -> Entry?, write: ([UInt8]) throws -> Void
    ) throws {
        var writer = JSONLWriter()
        var states = StateWalk(file: source.file, session: source.journalID)
        writer.header(session)
        func drain(force: Bool) throws {
            guard force || writer.buffer.count >= 1 << 16 else { return }
            try write(writer.buffer)
            writer.buffer.removeAll(keepingCapacity: true)
        }
        while true {
            do {
                guard let entry = try next() else { break }
                try states.checkAction(of: entry)
                try states.advance(past: entry)
                writer.entry(entry, handler: try handler(entry.seq))
            } catch {
                // The lines before the damaged entry are written, then its error: the error is what
                // the caller reports, so a failure to write those lines too is not told over it.
                try? drain(force: true)
                throw error
            }
            try drain(force: false)
        }
        try drain(force: true)
    }
}
