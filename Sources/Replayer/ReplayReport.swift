import ActionLog

/// What a replay found: how far it got, and the first divergence or the entry that stopped it.
///
/// ```swift
/// let report = try Replay(journal: journal, session: 1, reducer: Counter.reduce).run()
/// if let divergence = report.divergence { print(divergence) }
/// ```
public struct ReplayReport: Sendable, Equatable, CustomStringConvertible {
    /// How a replay ended.
    public enum Outcome: Sendable, Equatable {
        /// Every replayed state and effect equals the recorded one.
        case matched
        /// The reducer produced a different state or effect at ``Divergence/seq``; replay stopped there.
        case diverged(Divergence)
        /// An entry could not be replayed (an action that no longer decodes, a state that does not
        /// encode); replay stopped there.
        case failed(ReplayFailure)
    }

    /// The journal's file name.
    public let file: String
    public let session: Session
    /// Entries whose action went through the reducer and whose result was compared.
    public let entriesReplayed: Int
    /// Entries with an action in the session (entry 0 and gaps not counted).
    public let entriesWithActions: Int
    /// Entries that could not be replayed because actions before them were lost: each `gap` and the
    /// entry after it (replay resumes from that entry's recorded state).
    public let skipped: [Int]
    public let outcome: Outcome

    /// The first divergence, if the reducer's behaviour changed.
    public var divergence: Divergence? {
        if case .diverged(let divergence) = outcome { return divergence }
        return nil
    }

    /// The failure that stopped the replay, if any.
    public var failure: ReplayFailure? {
        if case .failed(let failure) = outcome { return failure }
        return nil
    }

    /// Whether every replayed entry matched.
    public var isMatch: Bool { outcome == .matched }

    public var description: String {
        let where_ = "session \(session.id) \"\(session.name)\" of \(file)"
        var text: String
        switch outcome {
        case .matched:
            text = "Replayed \(entriesReplayed) of \(entriesWithActions) entries of \(where_): no divergence."
        case .diverged(let divergence):
            text = "Replay of \(where_) diverged after \(entriesReplayed) matching entries.\n\(divergence)"
        case .failed(let failure):
            text = "Replay of \(where_) stopped after \(entriesReplayed) matching entries: \(failure)"
        }
        if !skipped.isEmpty {
            text += "\nSkipped entries \(skipped.map(String.init).joined(separator: ", ")): actions were lost there (gaps)."
        }
        return text
    }
}

/// The first entry where today's reducer does not produce what was recorded.
public struct Divergence: Sendable, Equatable, CustomStringConvertible {
    public let seq: Int
    /// The action's label, e.g. `input.queryChanged`.
    public let label: String
    /// The recorded action.
    public let action: JSONValue
    /// Fields of the state that differ: recorded value, replayed value.
    public let stateDifferences: [FieldDifference]
    /// Fields of the effect that differ; a missing effect on one side is one difference at the root.
    public let effectDifferences: [FieldDifference]

    public var description: String {
        var lines = ["Entry \(seq) (\(label)) \(action.canonicalText):"]
        func section(_ title: String, _ differences: [FieldDifference]) {
            guard !differences.isEmpty else { return }
            lines.append("  \(title):")
            for difference in differences {
                lines.append("    − \(difference.path): \(difference.recorded?.canonicalText ?? "(absent)")")
                lines.append("    + \(difference.path): \(difference.replayed?.canonicalText ?? "(absent)")")
            }
        }
        section("state", stateDifferences)
        section("effect", effectDifferences)
        lines.append("(Recorded: −, Replayed: +)")
        return lines.joined(separator: "\n")
    }
}

/// An entry that could not be replayed, named by file, session and entry:
///
///     checkout.actionlog, session 3, entry 41: action "addToCart" no longer decodes: key "quantity" not found
public struct ReplayFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: Sendable, Equatable {
        /// The recorded action does not decode into today's action type.
        case actionDoesNotDecode
        /// A recorded state does not decode into today's state type.
        case stateDoesNotDecode
        /// The replayed state or effect threw while encoding.
        case encodingFailed
        /// The session has no usable entry 0 (initial state).
        case noInitialState
    }

    public let code: Code
    public let file: String
    public let session: Session.ID
    public let seq: Int
    public let label: String?
    /// What went wrong, e.g. `key "quantity" not found`.
    public let reason: String

    public var description: String {
        let location = "\(file), session \(session), entry \(seq)"
        switch code {
        case .actionDoesNotDecode:
            return "\(location): action \"\(label ?? "?")\" no longer decodes: \(reason)"
        case .stateDoesNotDecode:
            return "\(location): the recorded state no longer decodes: \(reason)"
        case .encodingFailed:
            return "\(location): \(reason)"
        case .noInitialState:
            return "\(location): \(reason)"
        }
    }
}
