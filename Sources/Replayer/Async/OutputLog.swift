import ActionLog

/// The output events of a replayed event ViewModel, checked against the recorded ones as they come.
final class OutputLog: Sendable {
    private struct State {
        var recorded: [Int: [OutputEvent]] = [:]
        var emitted: [Int: Int] = [:]
        var active: Int?
        var divergence: (seq: Int, difference: OutputDifference)?
        var finished: Set<Int> = []
    }
    private let state = Locked(State())
    private let ignoring: [FieldPattern]
    /// The session's redacted paths of output events: a replayed event is redacted as the recorder
    /// redacted the recorded one before they are compared.
    private let redactor: Redactor
    /// The custom-dump diff of a recorded event against none, for an event type that allows it.
    private let dumpAgainstNone: @Sendable (JSONValue) -> String?
    /// How the session wrote dates, and so how replayed events are encoded.
    private let dates: DateConvention

    init<Event: Encodable & Sendable>(ignoring: [FieldPattern], redactor: Redactor, dates: DateConvention, eventType: Event.Type) {
        self.ignoring = ignoring
        self.dates = dates
        self.redactor = redactor
        dumpAgainstNone = { recorded in
            DumpDiff.effectDiff(recorded: recorded, replayed: nil as Event?, ignored: IgnoredFields(patterns: [], redactor: .none), replayedJSON: nil)
        }
    }

    func begin(_ seq: Int, recorded: [OutputEvent]) {
        state.withLock { $0.recorded[seq] = recorded }
    }

    /// Events emitted outside any handler's work are entry `seq`'s until it finishes: entry 0's
    /// while the ViewModel is made, as they were journaled when recorded; after that, none's.
    func activate(_ seq: Int) {
        state.withLock { $0.active = seq }
    }

    /// The handler of `seq` returned: events emitted for it later are not compared, as they were
    /// not journaled when recorded.
    func finish(_ seq: Int) {
        state.withLock { state in
            state.finished.insert(seq)
            if state.active == seq { state.active = nil }
        }
    }

    /// Checks an event the replayed ViewModel emitted, against the next recorded one of its entry.
    func emitted<Event: Encodable>(_ event: Event) {
        let token = HandlerRun.current?.token
        let json = (try? JSONValueEncoder(dates: dates).encode(event)).map(redactor.keyframe)
        let ignored = IgnoredFields(patterns: ignoring, redactor: redactor)
        state.withLock { state in
            guard state.divergence == nil, let seq = token ?? state.active, !state.finished.contains(seq) else { return }
            let index = state.emitted[seq, default: 0]
            state.emitted[seq] = index + 1
            let recorded = state.recorded[seq].flatMap { index < $0.count ? $0[index].event : nil }
            let differences = ignored.differences(recorded, json)
            guard !differences.isEmpty else { return }
            let dump = DumpDiff.effectDiff(recorded: recorded, replayed: event, ignored: ignored, replayedJSON: json)
            state.divergence = (seq, OutputDifference(index: index, differences: differences, dump: dump))
        }
    }

    /// The first divergence found, if any.
    func divergence() -> (seq: Int, difference: OutputDifference)? {
        state.withLock { $0.divergence }
    }

    /// The first recorded event of `seq` the replayed handler did not emit, once it returned.
    func missing(_ seq: Int) -> OutputDifference? {
        let found: (index: Int, event: JSONValue)? = state.withLock { state in
            let index = state.emitted[seq, default: 0]
            guard let recorded = state.recorded[seq], index < recorded.count else { return nil }
            return (index, recorded[index].event)
        }
        guard let found else { return nil }
        return OutputDifference(
            index: found.index, differences: [FieldDifference(path: FieldPath(), recorded: found.event, replayed: nil)],
            dump: dumpAgainstNone(found.event))
    }
}
