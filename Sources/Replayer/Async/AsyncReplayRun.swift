import ActionLog
import Foundation

/// One replay of an asynchronous session: starts each recorded action's handler on a fresh
/// ViewModel and gives the recorded service answers, turn by turn in the recorded run order,
/// checking each call, output event and state snapshot against the recording.
///
/// The driver gives one turn at a time and waits, on the caller's task (no thread blocked), until
/// the handler whose turn it is awaits its next service call or returns. So handlers interleave as
/// they did when recorded, whatever the machine's threads do, and a replay gives the same result
/// every time. It waits for what the handlers do, never for a clock: a busy machine makes a replay
/// slower, never different.
struct AsyncReplayRun<State: Codable & Sendable, Action: Codable & Sendable> {
    let recording: RecordedSession
    let options: ReplayOptions
    let architecture: SessionArchitecture
    let services: [String]
    /// The output events of an event ViewModel, checked as they come; `nil` for an actor ViewModel.
    let outputs: OutputLog?

    private enum Turn {
        case start(Int)
        case answer(Int, call: Int)
    }

    /// What the driver knows of each entry with an action.
    private struct Step {
        var entry: Entry
        var label: String
        var actions: [Action]
        var handler: HandlerRecord
        var state: JSONValue
        var calls: [ServiceCall]
        /// The recorded calls the replayed handler has made, by index; their answers wait in
        /// ``pending`` until their turns.
        var made: Set<Int> = []
        var pending: [Int: PendingCall] = [:]
        /// Whether the handler's turn has ended: it waits for an answer, or its code has returned.
        var turnEnded = false
        /// Whether the handler's own code has returned (tasks it started may go on).
        var returned = false

        /// The recorded call a call made now stands for: the first one not made yet with the same
        /// service, method and arguments. Calls made one after the other match in order; calls in
        /// flight side by side (`async let`, a task group) match whatever order their tasks made
        /// them in, which Swift does not fix.
        func match(_ made: String) -> Int? {
            calls.indices.first { !self.made.contains($0) && calls[$0].description == made }
        }

        /// The first recorded call not made yet: what a divergence shows as expected.
        var firstNotMade: Int? {
            calls.indices.first { !made.contains($0) }
        }
    }

    /// What the driver did with a handler's event.
    private enum Taken {
        case next
        case stop(ReplayReport)
    }

    func run(make: @MainActor @Sendable (State) -> ReplayedViewModel<State, Action>) async -> ReplayReport {
        var findings = ReplayFindings(recording: recording)
        findings.entriesWithActions = recording.entries.count { $0.action != nil }
        if let refusal = refusal() { return findings.report(refusal) }
        /// Ends the replay at a service call or an output event of `step` that is not the recorded one.
        func diverged(_ step: Step, call: ServiceCallDifference? = nil, output: OutputDifference? = nil) -> ReplayReport {
            findings.divergences.append(Divergence(at: step.entry, label: step.label, serviceCall: call, output: output))
            return findings.report(nil)
        }

        // The recorded states and actions, up to the first gap: actions lost there cannot be
        // replayed into a ViewModel that cannot be set to a recorded state.
        var states = StateWalk(file: recording.file, session: recording.journalID)
        var steps: [Int: Step] = [:]
        var order: [Int] = []
        var initial: JSONValue?
        let handlers = recording.handlers.bySeq
        for entry in recording.entries {
            if case .gap = entry.content {
                findings.skipped = recording.entries.filter { $0.seq >= entry.seq }.map(\.seq)
                break
            }
            do {
                try states.advance(past: entry)
            } catch {
                return findings.report(recording.failure(.damagedHandlerRecords, entry: entry.seq, "\(error.reason)"))
            }
            guard let state = states.state else { continue }
            guard let actionJSON = entry.action else {
                if entry.seq == 0 { initial = state }
                continue
            }
            let decoded: [(label: String, action: Action)]
            do {
                decoded = try recording.actions(of: entry, actionJSON, upcasters: options.upcasters)
            } catch {
                return findings.report(error)
            }
            guard let handler = handlers[entry.seq] else {
                return findings.report(recording.failure(.damagedHandlerRecords, at: entry, "the entry has no record of its handler, so its turns are unknown"))
            }
            let label = entry.label ?? decoded.first?.label ?? "?"
            steps[entry.seq] = Step(entry: entry, label: label, actions: decoded.map(\.action), handler: handler, state: state, calls: handler.calls)
            order.append(entry.seq)
        }
        guard let initial else {
            return findings.report(recording.failure(.noInitialState, entry: 0, "the session has no initial state (entry 0)"))
        }
        let initialState: State
        do {
            initialState = try initial.decode(State.self)
        } catch {
            return findings.report(recording.failure(.stateDoesNotDecode, entry: 0, recording.undecodable(error, decoding: initial, redactedBy: \.state)))
        }

        // The run order: every start and every answer, by its recorded position.
        var turns: [(position: Int, turn: Turn)] = []
        for seq in order {
            guard let step = steps[seq] else { continue }
            turns.append((step.handler.started, .start(seq)))
            var previous = step.handler.started
            for (index, call) in step.calls.enumerated() {
                guard call.answered > previous else {
                    return findings.report(recording.failure(.damagedHandlerRecords, entry: seq, "call \(index) is answered at place \(call.answered) of the run order, not after place \(previous)"))
                }
                previous = call.answered
                turns.append((call.answered, .answer(seq, call: index)))
            }
            if let released = step.handler.releasedAt, released <= step.handler.started {
                return findings.report(recording.failure(.damagedHandlerRecords, entry: seq, "the handler's turn was taken from it at place \(released) of the run order, not after its start at place \(step.handler.started)"))
            }
        }
        func seq(of turn: Turn) -> Int {
            switch turn { case .start(let seq), .answer(let seq, _): seq }
        }
        turns.sort { ($0.position, seq(of: $0.turn)) < ($1.position, seq(of: $1.turn)) }
        for (previous, next) in zip(turns, turns.dropFirst()) where previous.position == next.position {
            return findings.report(recording.failure(.damagedHandlerRecords, entry: seq(of: next.turn), "two turns hold the same place \(next.position) in the run order"))
        }

        var finished: Set<Int> = []
        // The first handler whose turn the recorder took from it: the run order is followed up to there.
        let firstRelease = order.compactMap { seq in steps[seq]?.handler.releasedAt.map { (position: $0, seq: seq) } }
            .min { ($0.position, $0.seq) < ($1.position, $1.seq) }
        func notReproducible(_ seq: Int) -> ReplayReport {
            let step = steps[seq]
            let place = step?.handler.releasedAt ?? 0
            return findings.report(recording.failure(.notReproducible, entry: seq, label: step?.label, """
                when it was recorded, its handler kept its turn without awaiting a recorded call or returning, with another \
                handler waiting behind it: it waited for something ActionLog cannot see (another handler's task, a \
                continuation, a stream). The recorder gave the turn on at place \(place) of the run order, so what followed \
                was ordered by time, which no replay can follow; the entries that ended before it replayed
                """))
        }
        // What the ViewModel emits while it is made (set up in `bind`, `start()`) is entry 0's.
        let initialRecord = handlers[0] ?? HandlerRecord(seq: 0, started: 0, records: [])
        outputs?.begin(0, recorded: initialRecord.outputs)
        outputs?.activate(0)
        let viewModel = await make(initialState)
        outputs?.finish(0)
        if let entry = recording.entries.first, entry.seq == 0, let outputs {
            let step = Step(entry: entry, label: "initial state", actions: [], handler: initialRecord, state: initial, calls: [])
            if let difference = outputs.divergence()?.difference ?? outputs.missing(0) { return diverged(step, output: difference) }
        }
        let dates = DateConvention.recorded(in: recording.session.metadata)
        let host = ReplayHost(dates: dates)
        // Read by `refusal()` first, which refuses a damaged list.
        let redaction = (try? Redaction.recorded(in: recording.session.metadata).get()) ?? .none
        let redactor = redaction.state
        defer {
            host.stop()
            for step in steps.values { for call in step.pending.values { call.fail(ReplayStopped()) } }
        }
        /// Takes the next event of handler `seq`: checks a call against the recording and keeps it
        /// for its answer's turn, or checks the state once all the handler's work has ended.
        func take(_ seq: Int) async -> Taken {
            guard var step = steps[seq], !finished.contains(seq) else { return .next }
            let event = await host.mailbox(for: seq).next()
            if let divergence = outputs?.divergence(), let step = steps[divergence.seq] {
                return .stop(diverged(step, output: divergence.difference))
            }
            switch event {
            case .called(let pending):
                // Its arguments redacted as the recorder redacted the recorded ones: a call is the
                // recorded one when they agree outside the redacted places.
                var request = pending.request
                request.arguments = redaction.arguments(request.arguments, service: request.service, method: request.method)
                let made = request.description
                guard let index = step.match(made) else {
                    let expected = step.firstNotMade
                    let recorded = expected.map { step.calls[$0].description }
                    pending.fail(ActionLogError.serviceCallDiverged(seq: seq, recorded: recorded, made: made))
                    let difference = ServiceCallDifference(index: expected ?? step.calls.count, recorded: recorded, made: made)
                    return .stop(diverged(step, call: difference))
                }
                step.made.insert(index)
                step.pending[index] = pending
                if pending.endsTurn { step.turnEnded = true }
                steps[seq] = step
                return .next
            case .returned, .finished:
                steps[seq]?.returned = true
                steps[seq]?.turnEnded = true
                guard case .finished = event else { return .next }
                outputs?.finish(seq)
                if let missing = step.firstNotMade {
                    let difference = ServiceCallDifference(index: missing, recorded: step.calls[missing].description, made: nil)
                    return .stop(diverged(step, call: difference))
                }
                if let missing = outputs?.missing(seq) {
                    return .stop(diverged(step, output: missing))
                }
                let snapshot = await viewModel.snapshot()
                let replayed: JSONValue
                do {
                    replayed = try JSONValueEncoder(dates: dates).encode(snapshot)
                } catch {
                    return .stop(findings.report(recording.failure(.encodingFailed, entry: seq, label: step.label, "the replayed state does not encode: \(error)")))
                }
                let ignored = IgnoredFields(patterns: options.ignoring, redactor: redactor)
                let differences = ignored.differences(step.state, redactor.keyframe(replayed))
                finished.insert(seq)
                if differences.isEmpty {
                    findings.matched += 1
                } else {
                    let dump = DumpDiff.diff(recorded: step.state, replayed: snapshot, ignored: ignored, replayedJSON: replayed)
                    findings.divergences.append(Divergence(at: step.entry, label: step.label, state: differences, stateDump: dump))
                    if options.stopAtFirstDivergence { return .stop(findings.report(nil)) }
                }
                return .next
            }
        }

        /// Lets handler `seq` run its turn: until it awaits a call that ends its turn, its code
        /// returns, or all its work ends; calls made beside its running code are taken as they come.
        func runTurn(_ seq: Int) async -> ReplayReport? {
            while let step = steps[seq], !step.turnEnded, !finished.contains(seq) {
                if case .stop(let report) = await take(seq) { return report }
            }
            return nil
        }

        /// Gives handler `seq` the answer of recorded call `index`, which it has made.
        func deliver(_ seq: Int, _ index: Int) -> ReplayReport? {
            guard let call = steps[seq]?.pending.removeValue(forKey: index), let recorded = steps[seq]?.calls[index] else { return nil }
            // The task that gets the answer runs in the handler's turn when the call ended its turn,
            // or when the handler's code has returned (what runs then is that task alone).
            if call.endsTurn || steps[seq]?.returned == true { steps[seq]?.turnEnded = false }
            if let error = call.deliver(recorded.outcome) {
                let json: JSONValue? = if case .returned(let json) = recorded.outcome { json } else { nil }
                let reason = recording.undecodable(error, decoding: json, redactedBy: \.calls, at: [recorded.service, recorded.method, "result"])
                return findings.report(recording.failure(.serviceResultDoesNotDecode, entry: seq, label: "\(recorded.service).\(recorded.method)", reason))
            }
            return nil
        }

        /// The first call of handler `seq` that its own code made and waits for, and whose answer the
        /// recording gave in the same unbroken run of the handler's turns as turn `place`, the answer
        /// of a call not made yet.
        func heldWithinTurn(_ seq: Int, from place: Int) -> Int? {
            guard let step = steps[seq] else { return nil }
            var next = place
            while next < turns.count, case .answer(seq, let call) = turns[next].turn {
                if let pending = step.pending[call], pending.endsTurn { return call }
                next += 1
            }
            return nil
        }

        for (place, (position, turn)) in turns.enumerated() {
            if let firstRelease, position >= firstRelease.position { return notReproducible(firstRelease.seq) }
            let seq: Int
            switch turn {
            case .start(let started):
                seq = started
                guard let step = steps[seq] else { continue }
                outputs?.begin(seq, recorded: step.handler.outputs)
                let entry = ReplayedEntry(seq: seq, label: step.label, recorded: step.handler)
                let run = HandlerRun(token: seq, host: host, entry: entry)
                let mailbox = host.mailbox(for: seq)
                let actions = step.actions
                let handle = viewModel.handle
                Task {
                    await run.runOwnPath {
                        for action in actions { await handle(action) }
                    }
                    if !run.isWorkFinished {
                        mailbox.post(.returned)
                        await run.waitForWork()
                    }
                    mailbox.post(.finished)
                }
            case .answer(let answered, let index):
                seq = answered
                guard !finished.contains(seq), steps[seq]?.calls.indices.contains(index) == true else { continue }
                // A call in flight beside another may not be made yet when its answer's turn comes:
                // the handler's events are taken until it is (or until its work ends without it).
                while let step = steps[seq], !step.made.contains(index), !finished.contains(seq) {
                    if step.turnEnded, !step.returned, let held = heldWithinTurn(seq, from: place) {
                        // Its own code waits for a call the recording answered later in this same
                        // turn, and cannot make this one before: that answer is given first.
                        if let report = deliver(seq, held) { return report }
                        continue
                    }
                    if case .stop(let report) = await take(seq) { return report }
                }
                if let report = deliver(seq, index) { return report }
            }
            // The handler's answers that follow at once in the run order were given within its turn
            // (calls in flight side by side): they come before it is waited for.
            if place + 1 < turns.count, case .answer(seq, _) = turns[place + 1].turn { continue }
            // The turn the recorder took from the handler: it waited for what replay cannot give.
            if let released = steps[seq]?.handler.releasedAt, place + 1 == turns.count || turns[place + 1].position >= released {
                return notReproducible(seq)
            }
            if let report = await runTurn(seq) { return report }
        }
        if let firstRelease { return notReproducible(firstRelease.seq) }
        // The handlers whose work had not ended by their last turn: their events, as they come.
        for seq in order {
            while !finished.contains(seq) {
                if case .stop(let report) = await take(seq) { return report }
            }
        }
        return findings.report(nil)
    }

    /// Why this session cannot be replayed this way: another architecture, other services, or a
    /// list of redacted paths this reader cannot read.
    private func refusal() -> ReplayError? {
        let metadata = recording.session.metadata
        if case .failure(let error) = Redaction.recorded(in: metadata) { return recording.unreadable(error) }
        let (recorded, raw) = SessionArchitecture.of(metadata)
        let recordedServices = SessionArchitecture.services(in: metadata).map(SessionArchitecture.declared)
        let asked = "\(architecture.phrase)\(Self.servicesPhrase(SessionArchitecture.declared(services)))"
        guard let recorded, let recordedServices else {
            return recording.failure(.wrongArchitecture, "the session's metadata names an unknown architecture \(raw) or a damaged list of services; the replay asked for \(asked)")
        }
        guard recorded == architecture, recordedServices == SessionArchitecture.declared(services) else {
            let holds = "\(recorded.phrase)\(recorded == .reducer ? "" : Self.servicesPhrase(recordedServices))"
            return recording.failure(.wrongArchitecture, "the session holds \(holds), but the replay asked for \(asked)")
        }
        return nil
    }

    private static func servicesPhrase(_ names: [String]) -> String {
        names.isEmpty ? " with no services" : " with services " + names.joined(separator: ", ")
    }
}
