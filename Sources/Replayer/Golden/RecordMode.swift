import ActionLog
/// When a golden assertion writes its golden file instead of only checking against it.
///
/// Chosen per call (`record:`) or by the environment variable `ACTIONLOG_RECORD`
/// (`never`, `missing`, `failed`, `all`). Without either, the default is ``missing`` on a developer's
/// machine and ``never`` when `CI` is set, so a golden that is missing fails on CI instead of being
/// recorded there and lost.
///
/// ```swift
/// assertReplay(golden: "fixtures/checkout.jsonl", of: .reducer(Checkout.reduce), record: .failed)
/// ```
///
/// ```sh
/// ACTIONLOG_RECORD=failed swift test --filter GoldenTests
/// ```
///
/// Writing a golden always fails the test with a message that says what was written, so a recording
/// is never mistaken for a pass.
///
/// **Times.** Goldens that a record mode writes are in a deterministic time form: every time is 0
/// (`"startedAt":0.0`, `"time":0.0`) and no entry has a `durationNs`
/// (every time 0, no durations), since wall-clock times differ in every
/// recording of the same script. A new golden recorded from actions, from a `.recorded` source or
/// from a new live session is written so; re-recording a reducer's golden keeps each entry's time
/// and duration as the golden has them (zero for one a record mode wrote). So recording again after
/// a change of behaviour changes only the lines of the entries whose content changed, and
/// `git diff` shows those. Re-recording an asynchronous golden from a new live session also says,
/// entry by entry, which recorded service calls it kept, changed, dropped or added. A golden exported
/// from a journal (`replay-cli export`) keeps its real times until a record mode rewrites it.
public struct RecordMode: Sendable, Hashable, CustomStringConvertible {
    /// The mode's name, as `ACTIONLOG_RECORD` spells it.
    public let description: String

    private init(_ name: String) { description = name }

    /// Never write: a missing golden fails, a divergence fails.
    public static let never = RecordMode("never")
    /// Record a golden that does not exist yet; check existing ones. The default outside CI.
    public static let missing = RecordMode("missing")
    /// Like ``missing``, and also re-record a golden that diverges: keep its recorded actions and
    /// rewrite its states and effects with today's reducer.
    public static let failed = RecordMode("failed")
    /// Re-record every golden, diverging or not.
    public static let all = RecordMode("all")

    /// Every mode, in order of how much it writes.
    static let allModes: [RecordMode] = [.never, .missing, .failed, .all]

    /// The mode named `name`, or `nil`.
    ///
    /// - Parameter name: `never`, `missing`, `failed` or `all`.
    init?(named name: String) {
        guard let mode = Self.allModes.first(where: { $0.description == name }) else { return nil }
        self = mode
    }

    /// The mode the environment asks for: `ACTIONLOG_RECORD` if set; otherwise ``never`` when `CI` is
    /// set (to anything but empty, `0` or `false`), else ``missing``.
    ///
    /// ```swift
    /// let mode = try RecordMode.fromEnvironment(["CI": "true"])   // .never
    /// ```
    ///
    /// - Parameter environment: the environment; the process's by default.
    /// - Throws: ``ReplayError`` when `ACTIONLOG_RECORD` names no mode.
    package static func fromEnvironment(_ environment: [String: String]) throws(ReplayError) -> RecordMode {
        if let name = environment["ACTIONLOG_RECORD"], !name.isEmpty {
            guard let mode = RecordMode(named: name) else {
                throw ReplayError(.unknownRecordMode, "ACTIONLOG_RECORD=\(name) is not a record mode; use never, missing, failed or all")
            }
            return mode
        }
        if let ci = environment["CI"], !["", "0", "false"].contains(ci.lowercased()) {
            return .never
        }
        return .missing
    }

    /// The mode a golden check runs in: `explicit` when the test gave one, else the environment's,
    /// with why, for messages; or the message of an `ACTIONLOG_RECORD` that names no mode.
    static func resolve(_ explicit: RecordMode?, environment: [String: String]) -> Result<(mode: RecordMode, why: String), ReplayError> {
        Result { () throws(ReplayError) in
            let mode = if let explicit { explicit } else { try fromEnvironment(environment) }
            return (mode, explanation(mode, explicit: explicit != nil, environment: environment))
        }
    }

    /// Why the mode is what it is, for messages: `record mode never, because CI is set`.
    static func explanation(_ mode: RecordMode, explicit: Bool, environment: [String: String]) -> String {
        if explicit { return "record mode \(mode)" }
        if let name = environment["ACTIONLOG_RECORD"], !name.isEmpty { return "ACTIONLOG_RECORD=\(name)" }
        if mode == .never { return "record mode never, because CI is set" }
        return "record mode \(mode)"
    }
}
