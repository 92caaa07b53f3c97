import ActionLog

/// Every failure the Replayer reports: an entry that could not be replayed, or a golden assertion
/// that could not run. A ``code`` to match on, where it happened, and why:
///
///     checkout.actionlog, session 3 "checkout", entry 41: action "addToCart" no longer decodes: key "quantity" not found
///
/// ```swift
/// do { try migrate(golden: "fixtures/checkout.jsonl", upcasters: upcasters, as: Checkout.Event.self) }
/// catch let error as ReplayError where error.code == .notMigratable { print(error) }
/// ```
///
/// The location has the shape of `ActionLogError`'s: ``file``, ``session`` and ``entry``, each where
/// it applies; an error about a session names it first, an error about a golden file as a whole says
/// which in its sentence. Reading a journal or a text file fails with `ActionLogError`. The
/// description escapes the characters that could rewrite a terminal or break the line (`\u{1B}`);
/// the properties hold the text unescaped.
public struct ReplayError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, for code that reacts to it.
    public enum Code: Sendable, Equatable {
        // MARK: Replaying a session

        /// The recorded action does not decode into today's action type.
        case actionDoesNotDecode
        /// An upcaster threw while rewriting the recorded action.
        case upcastFailed
        /// A recorded state does not decode into today's state type.
        case stateDoesNotDecode
        /// The replayed state or effect threw while encoding.
        case encodingFailed
        /// The session has no usable entry 0 (initial state).
        case noInitialState
        /// The session was recorded by a newer ActionLog than this reader.
        case newerSession
        /// The session was recorded by another kind of code than the replay drives (a reducer, an
        /// actor ViewModel, an event ViewModel), or with another set of services.
        case wrongArchitecture
        /// A recorded service result (or error) does not decode into today's type.
        case serviceResultDoesNotDecode
        /// The records of the session's asynchronous handlers do not describe a run that can be replayed.
        case damagedHandlerRecords
        /// The recorder took an asynchronous handler's turn from it (`HandlerRecord.releasedAt`):
        /// the handler waited, in its turn, for something ActionLog cannot see, so the order of what
        /// followed was decided by time and no replay can follow it. The entries before were replayed.
        case notReproducible

        // MARK: Golden files

        /// `ACTIONLOG_RECORD` names no record mode.
        case unknownRecordMode
        /// There is no golden at the path.
        case missingGolden
        /// The golden holds no session of the name asked for, or several and none was named.
        case sessionNotFound
        /// The golden could not be written.
        case writeFailed
        /// The upcasters split an action, so a golden of one action per entry cannot hold the result.
        case notMigratable
    }

    /// What went wrong.
    public let code: Code
    /// The file concerned, if any.
    public let file: String?
    /// The session's id in its journal; `nil` for a session in text form, or when no session is concerned.
    public let session: Int64?
    /// How messages name the session: `session 3 "checkout"`, or `session "checkout"` in text form.
    let sessionName: String?
    /// The entry, or `nil` when the whole session or file is concerned.
    public let entry: Int?
    /// The action's label, when the failure concerns an action.
    public let label: String?
    /// What went wrong, e.g. `key "quantity" not found`; for an error about a file as a whole, the
    /// whole sentence.
    public let reason: String

    /// An error about a golden file as a whole: `reason` is the sentence, naming the file.
    package init(_ code: Code, file: String? = nil, _ reason: String) {
        self.code = code
        self.file = file
        self.session = nil
        self.sessionName = nil
        self.entry = nil
        self.label = nil
        self.reason = reason
    }

    /// An error about a session or one of its entries, with every part of its place.
    package init(
        _ code: Code, file: String, session: Int64?, sessionName: String, entry: Int?, label: String? = nil, reason: String
    ) {
        self.code = code
        self.file = file
        self.session = session
        self.sessionName = sessionName
        self.entry = entry
        self.label = label
        self.reason = reason
    }

    /// What an upcaster throws to refuse an action it cannot rewrite; the replay reports it at the
    /// entry, as ``Code/upcastFailed`` with `reason`.
    ///
    /// ```swift
    /// Upcaster(label: "pay") { _ in throw ReplayError.upcastFailed("payments recorded before 2.0 cannot be replayed") }
    /// ```
    ///
    /// - Parameter reason: the explanation, shown in the replay report.
    public static func upcastFailed(_ reason: String) -> ReplayError {
        ReplayError(.upcastFailed, reason)
    }

    /// The error as people read it: the location, then what went wrong (see ``ReplayError``).
    public var description: String {
        guard let file, let sessionName else { return reason.displayEscaped }
        let location = "\(file), \(sessionName)" + (entry.map { ", entry \($0)" } ?? "")
        let message =
            switch code {
            case .actionDoesNotDecode: "\(location): action \"\(label ?? "?")\" no longer decodes: \(reason)"
            case .upcastFailed: "\(location): the upcaster for \"\(label ?? "?")\" failed: \(reason)"
            case .stateDoesNotDecode: "\(location): the recorded state no longer decodes: \(reason)"
            case .serviceResultDoesNotDecode: "\(location): the result of service call \"\(label ?? "?")\" no longer decodes: \(reason)"
            case .notReproducible: "\(location) (\(label ?? "?")) is not reproducible: \(reason)"
            default: "\(location): \(reason)"
            }
        return message.displayEscaped
    }
}

extension RecordedSession {
    /// A failure of replaying this session at entry `seq` (`nil`: the session as a whole), whose
    /// action is `label`.
    func failure(_ code: ReplayError.Code, entry seq: Int? = nil, label: String? = nil, _ reason: String) -> ReplayError {
        ReplayError(code, file: file, session: journalID, sessionName: displayName, entry: seq, label: label, reason: reason)
    }

    /// Runs `body`, which walks this session's states, with its errors located as ``locate(_:)`` does.
    func locating<T>(_ body: () throws(ActionLogError) -> T) throws(ActionLogError) -> T {
        do {
            return try body()
        } catch {
            throw locate(error)
        }
    }

    /// A failure of replaying `entry` of this session.
    func failure(_ code: ReplayError.Code, at entry: Entry, _ reason: String) -> ReplayError {
        failure(code, entry: entry.seq, label: entry.label, reason)
    }

    /// The failure of replaying this session when its list of redacted paths cannot be read.
    ///
    /// - Parameter problem: why the list cannot be read.
    func unreadable(_ problem: RedactionMetadataError) -> ReplayError {
        failure(.newerSession, """
            the session's redacted paths cannot be read (\(problem.reason)), so its placeholders cannot be told from changes; \
            replay it with the ActionLog that recorded it
            """)
    }

    /// Why a recorded value does not decode, and, when it failed at a place the session's paths
    /// redacted, that it holds a placeholder: `expected Int at token: …; the value at /signedIn/token
    /// was redacted when it was recorded (by "action:/signedIn/token"), and its placeholder does not
    /// decode into today's type`. The metadata is read here, on the failure's path only.
    ///
    /// - Parameters:
    ///   - error: what decoding threw.
    ///   - json: the value decoded, when the description may name the enum case it holds.
    ///   - scope: the redactor of the value's kind, from the session's redaction.
    ///   - anchor: where the value is in the terms of that redactor's paths (a call's result).
    func undecodable(
        _ error: any Error, decoding json: JSONValue? = nil, redactedBy scope: (Redaction) -> Redactor, at anchor: [String] = []
    ) -> String {
        let reason = json.map { JSONValue.describe(error, decoding: $0) } ?? JSONValue.describe(error)
        guard case .success(let redaction) = Redaction.recorded(in: session.metadata),
            let note = scope(redaction).placeholderNote(for: error, at: anchor)
        else { return reason }
        return "\(reason); \(note)"
    }
}
