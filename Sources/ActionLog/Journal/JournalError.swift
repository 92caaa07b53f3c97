/// A journal that cannot be opened or read, named down to the file, session and entry.
///
/// The description reads like a sentence a person can act on:
///
///     checkout.actionlog, session 3, entry 41: the state is not valid JSON: invalid JSON at byte 12: unexpected end of text
///
/// Match on ``code`` to react programmatically.
///
/// Names, labels and paths come from files, so the description escapes what could rewrite a
/// terminal or break the line (ESC, CR, LF, bidirectional controls…) as `\u{1B}`; ``file`` and
/// ``reason`` hold the text unescaped.
public struct JournalError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, for code that reacts to it.
    public enum Code: Sendable, Equatable {
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
        /// An entry or session row whose content cannot be read (bad JSON, impossible values).
        case corrupt
        /// SQLite reported an error; see ``sqlite``.
        case sqlite
        /// The file system refused an operation (for example the session lock).
        case fileSystem
        /// A value given by the caller cannot be used (for example a redacted path that is not a JSON Pointer).
        case invalidArgument
        /// A live recorder writes to the journal, and the operation would block it (a vacuum); or
        /// another connection held the journal locked for longer than this one waits (`SQLITE_BUSY`,
        /// `SQLITE_LOCKED`). Both pass: the operation may be tried again.
        case busy
        /// A value to record did not encode: a recorder's initial state.
        case encodingFailed
    }

    public let code: Code
    /// The journal's file name.
    public let file: String
    /// The session concerned, if any.
    public let session: Int64?
    /// The entry (sequence number) concerned, if any.
    public let entry: Int?
    /// The explanation, without the location prefix.
    public let reason: String
    /// The SQLite error behind a ``Code/sqlite`` error.
    public let sqlite: SQLiteError?

    public init(_ code: Code, file: String, session: Int64? = nil, entry: Int? = nil, reason: String, sqlite: SQLiteError? = nil) {
        self.code = code
        self.file = file
        self.session = session
        self.entry = entry
        self.reason = reason
        self.sqlite = sqlite
    }

    /// `file, session S, entry E: reason`, leaving out what is not known, with the characters that
    /// could rewrite a terminal escaped (`\u{1B}`; see ``JournalError``).
    public var description: String {
        var location = file
        if let session { location += ", session \(session)" }
        if let entry { location += ", entry \(entry)" }
        return "\(location): \(reason)".displayEscaped
    }
}
