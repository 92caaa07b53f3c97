import ActionLog

/// What a replay found: how far it got, where the reducer's behaviour changed, and the entry that
/// stopped it, if any.
///
/// Its ``description`` is the readable report: a heading naming the file, session, entry and action,
/// then the differences, recorded (−) against replayed (+). Names, actions and values come from the
/// file, so the characters that could rewrite a terminal or break a line are escaped there (`\u{1B}`,
/// as in `ActionLogError.description`); the properties hold the text unescaped.
///
/// ```swift
/// let report = try Replay(journal: journal, session: 1, reducer: Counter.reduce).run()
/// if !report.isMatch { print(report) }
/// ```
public struct ReplayReport: Sendable, Equatable, CustomStringConvertible {
    /// The name of the file the session was read from.
    let file: String
    /// The session's header.
    package let session: SessionHeader
    /// How messages name the session: `session 3 "checkout"`, or `session "checkout"` for a text file.
    package let sessionName: String
    /// Entries whose action went through the reducer and whose state and effect matched.
    package let entriesReplayed: Int
    /// Entries with an action in the session (entry 0 and gaps not counted).
    package let entriesWithActions: Int
    /// Entries that could not be replayed because actions before them were lost: each `gap` and the
    /// entry after it (replay resumes from that entry's recorded state).
    public let skipped: [Int]
    /// Where today's reducer did not produce what was recorded, in order: the first only, unless
    /// ``ReplayOptions/stopAtFirstDivergence`` is `false`.
    public let divergences: [Divergence]
    /// The entry that could not be replayed (an action that no longer decodes, a state that does not
    /// encode, a session from a newer ActionLog); replay stopped there.
    public let failure: ReplayError?
    /// Things the replay noticed that are not divergences, e.g. a state type whose `==` disagrees with
    /// its encoding.
    public let warnings: [String]

    /// The first divergence, if the reducer's behaviour changed.
    public var divergence: Divergence? { divergences.first }

    /// Whether every replayed entry matched and nothing stopped the replay.
    public var isMatch: Bool { divergences.isEmpty && failure == nil }

    /// The report as people read it: see ``ReplayReport``.
    public var description: String {
        var blocks: [String] = []
        let subject = "\(sessionName) of \(file)".displayEscaped
        switch divergences.count {
        case 0 where failure == nil:
            blocks.append("Replayed \(entriesReplayed) of \(entriesWithActions) actions of \(subject): no divergence.")
        case 0:
            break
        case 1:
            let divergence = divergences[0]
            blocks.append("Replay diverged at entry \(divergence.seq) of \(subject) (\(divergence.summary.displayEscaped)).")
            blocks.append(divergence.differencesText)
        default:
            let entries = divergences.map { String($0.seq) }.joined(separator: ", ")
            blocks.append("Replay diverged at \(divergences.count) entries of \(subject): \(entries).")
            for divergence in divergences {
                blocks.append("Entry \(divergence.seq) (\(divergence.summary.displayEscaped)):\n\(divergence.differencesText)")
            }
        }
        if !divergences.isEmpty {
            blocks.append("(Recorded: −, Replayed: +)")
        }
        if let failure {
            let matching = entriesReplayed == 1 ? "1 matching entry" : "\(entriesReplayed) matching entries"
            blocks.append("Replay of \(subject) stopped after \(matching): \(failure)")
        }
        var notes: [String] = []
        if !skipped.isEmpty {
            notes.append("Skipped entries \(skipped.map(String.init).joined(separator: ", ")): actions were lost there (gaps).")
        }
        notes += warnings.map { "Warning: \($0.displayEscaped)." }
        if !notes.isEmpty { blocks.append(notes.joined(separator: "\n")) }
        return blocks.joined(separator: "\n\n")
    }
}

/// An entry where today's reducer does not produce what was recorded.
///
/// The report's ``ReplayReport/description`` shows it in full: the differing fields of the state
/// and the effect and, for an asynchronous ViewModel, the service call or output event that differs.
///
/// ```swift
/// if let divergence = report.divergence {
///     print(divergence.seq, divergence.label, divergence.stateDifferences.map(\.description))
/// }
/// ```
public struct Divergence: Sendable, Equatable {
    /// The entry (sequence number) whose state or effect differs.
    public let seq: Int
    /// The action's label, e.g. `input.queryChanged`.
    public let label: String
    /// The recorded action.
    public let action: JSONValue
    /// The action in one line, the way TCA prints actions: `addToCart(id: "p-7", quantity: 1)`.
    let summary: String
    /// Fields of the state that differ: recorded value, replayed value.
    public let stateDifferences: [FieldDifference]
    /// Fields of the effect that differ; a missing effect on one side is one difference at the root.
    public let effectDifferences: [FieldDifference]
    /// The state difference as a swift-custom-dump diff of the decoded states, when the state type is
    /// `Decodable & Equatable` and the recorded state decodes.
    package let stateDump: String?
    /// The effect difference as a swift-custom-dump diff, when the effect type allows it.
    let effectDump: String?
    /// For an asynchronous handler: the service call made that is not the one recorded.
    package internal(set) var serviceCall: ServiceCallDifference? = nil
    /// For an event ViewModel: the first output event that differs from the recorded one.
    package internal(set) var output: OutputDifference? = nil

    /// The divergence at `entry`, whose action is shown as `label`. A dump comes with the
    /// differences it shows: `nil` when there are none.
    init(
        at entry: Entry, label: String, state: [FieldDifference] = [], stateDump: String? = nil, effect: [FieldDifference] = [],
        effectDump: String? = nil, serviceCall: ServiceCallDifference? = nil, output: OutputDifference? = nil
    ) {
        seq = entry.seq
        self.label = label
        action = entry.action ?? .null
        summary = ActionJSON.summary(of: action, label: entry.label)
        stateDifferences = state
        effectDifferences = effect
        self.stateDump = stateDump
        self.effectDump = effectDump
        self.serviceCall = serviceCall
        self.output = output
    }

    /// The state and effect sections of the report, indented, each line escaped for a terminal.
    var differencesText: String {
        var sections: [String] = []
        // A section shows its dump when there is one (only with differences), else each difference.
        func section(_ title: String, _ dump: String?, _ differences: [FieldDifference]) {
            let lines =
                dump?.split(separator: "\n", omittingEmptySubsequences: false).map { "    \(String($0).displayEscaped)" }
                ?? differences.flatMap { difference in
                    [
                        "    − \(difference.path): \(difference.recorded?.canonicalText ?? "(absent)")".displayEscaped,
                        "    + \(difference.path): \(difference.replayed?.canonicalText ?? "(absent)")".displayEscaped,
                    ]
                }
            guard !lines.isEmpty else { return }
            sections.append((["  \(title):"] + lines).joined(separator: "\n"))
        }
        section("State", stateDump, stateDifferences)
        section("Effect", effectDump, effectDifferences)
        if let serviceCall { sections.append(serviceCall.text) }
        if let output { section("Output event \(output.index)", output.dump, output.differences) }
        return sections.joined(separator: "\n\n")
    }
}

/// What a replay found so far: what its report counts and lists.
struct ReplayFindings {
    let recording: RecordedSession
    /// Entries whose action was replayed and matched.
    var matched = 0
    /// Entries with an action in the session.
    var entriesWithActions = 0
    var skipped: [Int] = []
    var divergences: [Divergence] = []
    var warnings: [String] = []

    /// The report of the replay, stopped by `failure` if any.
    func report(_ failure: ReplayError?) -> ReplayReport {
        ReplayReport(
            file: recording.file, session: recording.session, sessionName: recording.displayName, entriesReplayed: matched,
            entriesWithActions: entriesWithActions, skipped: skipped, divergences: divergences, failure: failure, warnings: warnings)
    }
}

/// A service call of a replayed handler that is not the recorded one: another method or other
/// arguments, a call the recording does not have, or a recorded call the handler did not make.
package struct ServiceCallDifference: Sendable, Equatable {
    /// The call's place among the entry's calls: 0 for its first.
    package let index: Int
    /// The recorded call, e.g. `ProductService.fetchProduct("p-7")`; `nil` when the recording has no
    /// call there.
    package let recorded: String?
    /// The call made; `nil` when the handler's work ended without making it.
    package let made: String?

    /// The report's section:
    ///
    ///       Service call 0:
    ///         − ProductService.fetchProduct("p-7")
    ///         + ProductService.fetchProduct("p-8")
    var text: String {
        [
            "  Service call \(index):",
            "    − \(recorded ?? "(no call: the recording's handler returned)")".displayEscaped,
            "    + \(made ?? "(no call: the handler returned)")".displayEscaped,
        ].joined(separator: "\n")
    }
}

/// The first output event of an entry that differs from the recorded one (event MVVM).
package struct OutputDifference: Sendable, Equatable {
    /// The event's place among the entry's output events: 0 for its first.
    package let index: Int
    /// The differing fields; a missing event on one side is one difference at the root.
    package let differences: [FieldDifference]
    /// The difference as a swift-custom-dump diff, when the event type is `Decodable & Equatable`.
    let dump: String?
}
