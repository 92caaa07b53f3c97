import Foundation

/// Every failure ActionLog reports, from a text that is not JSON to a journal that cannot be read or
/// a recorder that lost entries: a ``code`` to match on, where it happened, and why.
///
/// The ``description`` reads like a sentence a person can act on, naming the place first:
///
///     checkout.actionlog, session 3, entry 41: the state is not valid JSON: invalid JSON at byte 12: unexpected end of text
///
/// Match on ``code`` to react programmatically:
///
/// ```swift
/// do {
///     let journal = try Journal(readingAt: "checkout.actionlog")
/// } catch let error as ActionLogError where error.code == .fileNotFound {
///     print("no journal yet")
/// }
/// ```
///
/// The location is one shape for every code: ``file``, ``session``, ``entry`` and ``line``, each
/// where it applies. Names, labels and paths come from files, so the description escapes what could
/// rewrite a terminal or break the line (ESC, CR, LF, bidirectional controls…) as `\u{1B}`; the
/// properties hold the text unescaped.
public struct ActionLogError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, for code that reacts to it.
    public enum Code: Sendable, Hashable {
        // MARK: JSON and JSON Patch

        /// A text is not JSON (RFC 8259); ``ActionLogError/offset`` is the byte where reading stopped.
        case invalidJSON
        /// A patch document is not a valid JSON Patch: not an array, a member missing or of the wrong
        /// type, an unknown `op`, or a malformed JSON Pointer.
        case invalidPatch
        /// A location a patch operation needs does not exist: a missing member, an index out of range,
        /// a token that is not an array index, or a step into a value that is neither object nor array.
        case locationNotFound
        /// A patch's `test` operation found a different value.
        case testFailed
        /// A patch operation is well formed but not allowed: removing the whole document, or moving a
        /// value into one of its own children.
        case notAllowed
        /// Applying a patch would nest the document deeper than ``JSONValue/maximumDepth`` levels.
        case tooDeep
        /// Applying a patch would make the document heavier than a rebuilt state may be: the mark of a
        /// patch bomb.
        case tooLarge

        // MARK: Journals

        /// The file does not exist (readers never create one).
        case fileNotFound
        /// The file is not an SQLite database at all.
        case notADatabase
        /// An SQLite database, but not an ActionLog journal.
        case notAJournal
        /// Written by a newer ActionLog whose schema this version does not know.
        case newerSchema
        /// No session with the requested id.
        case sessionNotFound
        /// No entry with the requested sequence number.
        case entryNotFound
        /// An entry or session whose content cannot be read (bad JSON, impossible values).
        case corrupt
        /// SQLite reported an error; ``ActionLogError/sqliteCode`` holds its extended result code.
        case sqlite
        /// The file system refused an operation (for example the session lock).
        case fileSystem
        /// A value given by the caller cannot be used (for example a redacted path that is not a JSON Pointer).
        case invalidArgument
        /// A live recorder writes to the journal, and the operation would block it (a vacuum); or
        /// another connection held the journal locked for longer than this one waits (`SQLITE_BUSY`,
        /// `SQLITE_LOCKED`). Both pass: the operation may be tried again.
        case busy
        /// A value to record threw while encoding: an action, a state, an effect, or a recorder's
        /// initial state.
        case encodingFailed

        // MARK: Recording (reported to the recorder's error handler; the app keeps running)

        /// A transaction failed (disk full, read-only file, I/O error); its entries were lost. Reported
        /// once per episode: the failures after it are counted, not reported, until a write succeeds,
        /// and what they lost is then written as one gap. Also reported when the session cannot be
        /// marked closed.
        case writeFailed
        /// The journal file (or its write-ahead log) was deleted, moved away or replaced by another
        /// file while recording. Nothing more is written to the session, the new file at the path is
        /// left alone, and what is recorded from then on is counted as lost.
        case fileGone
        /// Entries were dropped because the writer fell behind. Reported once per overload: later
        /// drops are counted (in the recorder's statistics and in the session's gaps) without a report
        /// until the writer has kept up for a second. Under a sustained load the writer catches up and
        /// falls behind many times a second: that is one overload, told once.
        case dropped
        /// A keyframe showed that the state's `==` disagrees with its `encode(to:)`: the recorder now
        /// encodes that session's states in full.
        case equalityMismatch
        /// The retention policy could not be applied when the recorder opened the journal; the old
        /// sessions stay until the next recorder (or `replay-cli prune`) removes them.
        case retentionFailed
        /// An asynchronous handler kept its turn for over the recorder's `turnRelease` without
        /// awaiting a recorded call or returning, with another handler waiting behind it: it waits for
        /// something ActionLog cannot see. Its turn was given on, so that the app goes on; the order
        /// from there was decided by time, so its entry is marked and replay reports it as not
        /// reproducible.
        case turnHeld
        /// An event ViewModel emitted an output event outside any handler's work after its first
        /// action (from a timer, `Task.detached`, a GCD or delegate callback): it is not journaled.
        /// Said once per session; the rest are counted.
        case untrackedWork

        // MARK: Recorded services, on replay

        /// A replayed service call threw the recorded error, whose type was not declared to the
        /// service's recorder: ``ActionLogError/recordedType`` names it and the description is what it said.
        case recordedError
        /// A replayed handler made a service call that is not the recorded one; replay stops there and
        /// reports the divergence.
        case serviceCallDiverged
    }

    /// What went wrong.
    public let code: Code
    /// The file concerned (a journal's or text file's name), if any.
    public let file: String?
    /// The session concerned (its id in the journal), if any.
    public let session: Int64?
    /// The entry (sequence number) concerned, if any.
    public let entry: Int?
    /// The line of a text file concerned, if any.
    public let line: Int?
    /// The explanation, without the location.
    public let reason: String
    /// For ``Code/invalidJSON``: the UTF-8 byte offset where reading stopped.
    public let offset: Int?
    /// For ``Code/sqlite``: SQLite's extended result code (<https://www.sqlite.org/rescode.html>).
    public let sqliteCode: Int32?
    /// For ``Code/recordedError``: `String(reflecting:)` of the recorded error's type.
    public let recordedType: String?
    /// For ``Code/recordedError``: the recorded error's `localizedDescription`, when it read
    /// differently from its description.
    let recordedLocalizedDescription: String?

    /// Makes an error; ActionLog's readers, writers and replay make them, so most code only reads them.
    ///
    /// - Parameters:
    ///   - code: what went wrong.
    ///   - file: the file concerned.
    ///   - session: the session concerned.
    ///   - entry: the entry concerned.
    ///   - line: the line of a text file concerned.
    ///   - reason: the explanation, without the location.
    package init(
        _ code: Code, file: String? = nil, session: Int64? = nil, entry: Int? = nil, line: Int? = nil, reason: String,
        offset: Int? = nil, sqliteCode: Int32? = nil, recordedType: String? = nil, recordedLocalizedDescription: String? = nil
    ) {
        self.code = code
        self.file = file
        self.session = session
        self.entry = entry
        self.line = line
        self.reason = reason
        self.offset = offset
        self.sqliteCode = sqliteCode
        self.recordedType = recordedType
        self.recordedLocalizedDescription = recordedLocalizedDescription
    }

    /// Text that is not JSON: `reason`, found at byte `offset`.
    package init(invalidJSON reason: String, offset: Int) {
        self.init(.invalidJSON, reason: reason, offset: offset)
    }

    /// `file, session S, entry E: line L: reason`, leaving out what is not known (a text that is not
    /// JSON reads `invalid JSON at byte 12: unexpected end of text`), with the characters that could
    /// rewrite a terminal escaped. A ``Code/recordedError`` reads as the recorded error did.
    public var description: String {
        if code == .recordedError { return reason }
        let location = [file, session.map { "session \($0)" }, entry.map { "entry \($0)" }].compactMap(\.self)
            .joined(separator: ", ")
        return (location.isEmpty ? detail : "\(location): \(detail)").displayEscaped
    }

    /// What the description says after the file, session and entry, unescaped: `line L: ` where a
    /// text file's line is known, then the reason (`invalid JSON at byte 12: …` for text that is not JSON).
    package var detail: String {
        let message = code == .invalidJSON ? "invalid JSON at byte \(offset ?? 0): \(reason)" : reason
        return line.map { "line \($0): \(message)" } ?? message
    }
}

extension ActionLogError: LocalizedError {
    /// What `localizedDescription` shows: the ``description``; for a ``Code/recordedError``, the
    /// recorded error's own localized description.
    public var errorDescription: String? { recordedLocalizedDescription ?? description }
}
