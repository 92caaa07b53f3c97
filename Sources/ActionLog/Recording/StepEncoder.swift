import Foundation

/// One dispatched step, as handed from the dispatching thread to the writer: values only, nothing encoded.
///
/// `@usableFromInline`, with the hand-off's dispatching side: ``Recorder/record(action:state:effect:reducerDuration:)``
/// is inlined into the app, so that it runs specialized for the app's types (see ``HandOff``).
@usableFromInline
struct Step<State: Encodable & Sendable, Action: Encodable & Sendable, Effect: Encodable & Sendable>: Sendable {
    /// `nil` for entry 0, the initial state.
    @usableFromInline var action: Action?
    @usableFromInline var state: State
    @usableFromInline var effect: Effect?
    @usableFromInline var time: Date
    @usableFromInline var reducerDuration: Duration?
    /// For a step of an asynchronous handler: when it ran, its service calls and output events.
    @usableFromInline var handler: HandlerRecord?
    /// What an asynchronous session's ViewModel did before its first action (output events sent
    /// while it was set up), journaled as entry 0's handler record with the first entry written.
    @usableFromInline var initialHandler: HandlerRecord?

    @inlinable
    init(action: Action?, state: State, effect: Effect?, time: Date, reducerDuration: Duration?) {
        self.action = action
        self.state = state
        self.effect = effect
        self.time = time
        self.reducerDuration = reducerDuration
        self.handler = nil
        self.initialHandler = nil
    }
}

/// Describes the session a writer creates.
struct SessionDescription: Sendable {
    var keyframes: KeyframePolicy
    var name: String
    var stateType: String
    var actionType: String
    var effectType: String?
    var appVersion: String?
    var metadata: JSONValue
    /// What of the states and messages never reaches the file (see ``Redaction``); the metadata lists its paths.
    var redaction = Redaction.none
}

/// The writer's encoding half: takes steps from the recorder's queue on its own thread, encodes
/// them, and hands the encoded rows by batches to the committing half (``EntryCommitter``), which
/// owns the connection on a second thread.
///
/// Nothing here runs on a dispatching thread. Failures are reported through `onError` once per
/// episode (a run of failed commits, ended by one that succeeds), counted, and written as `gap`
/// entries once the file accepts writes again; a session closed meanwhile writes its last gap and
/// its closing with the space its lock file keeps in reserve (see ``SessionLock/reservedBytes``).
/// When the journal's path no longer names the file written (see ``JournalWatch``), the writer stops
/// writing: what comes after is counted as lost.
final class StepEncoder<State: Encodable & Sendable, Action: Encodable & Sendable, Effect: Encodable & Sendable> {
    typealias Item = Step<State, Action, Effect>

    /// The session written; `nil` in capture mode, where each capture writes a session of its own.
    let sessionID: JournalSession.ID?
    /// The committing half, until ``run(_:)`` starts its thread: an ``EntryCommitter``, or in
    /// capture mode a ``CaptureCommitter``.
    private let committer: any CommittingHalf
    private let file: String
    private let onError: @Sendable (ActionLogError) -> Void
    /// Encodes actions, effects and whole states, keeping its per-type decisions between them.
    private let encoder: EncodingContext
    private let labeler = ActionLabeler<Action>()
    private let actionTexts = CanonicalTextCache<Action>()
    private let effectTexts = CanonicalTextCache<Effect>()
    /// Encodes each state at a cost proportional to what changed, while `==` can be trusted.
    /// It patches its previous JSON in place, so an append to a long array costs the append: the
    /// writer keeps no reference of its own to that JSON while `==` is trusted (see ``previousState``).
    private let changeEncoder: ChangeEncoder<State>
    /// Cleared when a keyframe shows that the state's `==` disagrees with its encoding: from then on
    /// every state is encoded in full and diffed as JSON.
    private var trustsEquality = true
    /// The seq the next row encoded should get, as far as this half knows: for the entry numbers of
    /// its reports. Entry 0 is written by the initializer.
    private var nextSeq = 1
    /// The failed commits this half knows of (see ``CommitPipe/outcome()``).
    private var failuresSeen = 0
    /// The state of the last entry encoded, for a JSON diff, once `==` is not trusted; while it is, the
    /// change encoder holds the previous state alone (a second reference here would make its in-place
    /// patching copy). `nil` after a failed write: the next entry is then a keyframe.
    private var previousState: JSONValue?

    /// Set by a step that did not encode: the next state is stored as a keyframe, since the change
    /// encoder may have taken the failed step's state as its previous one, which no entry stores.
    /// The change encoder keeps that state, so the keyframe is its JSON patched with what changed
    /// since, not a full encode; it is not checked against a full encoding (the keyframes the policy
    /// asks for still are).
    ///
    /// Dropped actions do not set it: the steps dropped never reach the encoder, so the state it
    /// encoded last is that of the last entry stored before their gap, and the entry after the gap
    /// is stored as what changed since, as any other entry, under the keyframe policy (readers
    /// patch the state before the gap, see ``StateWalk``). Under an overload, where gaps come every
    /// few entries, a keyframe per gap made most of the file keyframes of a large state.
    private var keyframeAfterFailure = false

    /// Forgets the previous state: the next entry is a keyframe (after a failed write).
    private func forgetPrevious() {
        previousState = nil
        changeEncoder.reset()
    }

    /// Where the session stands against its keyframe policy.
    private var budget: KeyframePolicy.Budget
    /// Replaces the redacted places of the states ``storedForm(of:)`` writes.
    private let redactor: Redactor
    /// Replaces the redacted places of the actions, effects and handler records written (each
    /// costs nothing when no path names its kind).
    private let redaction: Redaction
    /// The encoded size of the last keyframe written: what the recorder counts for each queued state
    /// (see ``RecorderConfiguration/queueByteCapacity``).
    private(set) var keyframeBytes: Int
    /// The writer also commits once the rows it holds reach this many bytes of state.
    private let commitBytes: Int

    /// Encodes `initialState`, opens the journal for writing, creates the session with the initial
    /// state as entry 0 (one transaction), and takes the session's lock. Either the session exists with
    /// its entry 0 and is locked, or this throws and leaves no session behind.
    ///
    /// In capture mode (`capture` set) it opens nothing: entry 0 starts the window kept in memory,
    /// and each capture creates its session (``CaptureCommitter``).
    init(
        path: String, session: SessionDescription, initialState: State, startedAt: Date,
        commitBytes: Int = .max, faults: WriteFaults? = nil, checksums: Bool = true, overloadQuietPeriod: Duration = .seconds(1),
        overloadClock: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now },
        capture: CaptureSetup? = nil,
        onError: @escaping @Sendable (ActionLogError) -> Void
    ) throws(ActionLogError) {
        self.commitBytes = commitBytes
        self.overloadQuietPeriod = overloadQuietPeriod
        self.overloadClock = overloadClock
        let file = JournalFile.displayName(path)
        self.file = file
        self.onError = onError
        // Dates as the metadata says: ISO 8601, unless metadata that is not an object cannot say so.
        let dates = DateConvention.recorded(in: session.metadata)
        encoder = EncodingContext(tracking: false, userInfo: [:], dates: dates)
        let changeEncoder = ChangeEncoder<State>(dates: dates)
        changeEncoder.patchesPreviousJSON = true
        self.changeEncoder = changeEncoder
        redactor = session.redaction.state
        redaction = session.redaction
        let initialText: [UInt8]
        do {
            // Redacted as every keyframe is: entry 0 is written here, not by `storedForm(of:)`.
            initialText = redactor.keyframe(try changeEncoder.encode(initialState).json).canonicalBytes
        } catch {
            throw ActionLogError(.encodingFailed, file: file, reason: "the initial state does not encode: \(error); no session was started")
        }
        budget = KeyframePolicy.Budget(session.keyframes)
        budget.keyframe(bytes: initialText.count)
        keyframeBytes = initialText.count
        if let capture {
            sessionID = nil
            committer = CaptureCommitter(
                capture, path: path, file: file, session: session,
                initial: Row(entry: StoredEntry(.keyframe, time: startedAt, state: initialText)), faults: faults,
                pipe: CommitPipe(byteCapacity: commitBytes), onError: onError)
            return
        }
        let (connection, sessionID, lock) = try Self.startSession(
            path: path, session: session, initialText: initialText, startedAt: startedAt, file: file)
        self.sessionID = sessionID
        committer = EntryCommitter(
            connection: connection, session: sessionID, lock: lock, path: path, file: file, faults: faults, checksums: checksums,
            pipe: CommitPipe(byteCapacity: commitBytes), onError: onError)
        // Best effort: on a disk too full for the reserve, the session records without one.
        _ = lock.reserve(bytes: SessionLock.reservedBytes)
    }

    /// Takes steps as they are handed over and encodes them at once, hands the encoded rows by
    /// batches to the committing half (started here, on a thread of its own), until the recorder
    /// closes (or is abandoned). Returns once the committing half has finished the session.
    ///
    /// A step is encoded as soon as the writer can take it, not when its batch is due, and then
    /// released: a step still held would keep the caller's state buffers shared, and the caller's next
    /// in-place mutation would copy them on its own thread. The change encoder keeps no buffer of the
    /// caller's large collections either (see ``EncodingContext/largeCount``). What waits for the
    /// commit is the encoded rows, and the commit runs beside the encoding of the next steps.
    func run(_ handOff: HandOff<Item>) {
        let committer = self.committer
        let thread = Thread {
            lowerCurrentThreadPriority()
            // `exit` from the error handler on this thread: it goes on committing, there (see
            // ``EntryCommitter/run(_:)``).
            handOff.onProcessEnd { committer.run(handOff) }
            committer.run(handOff)
        }
        thread.name = "ActionLog committer"
        thread.qualityOfService = .utility
        committerStarted = true
        thread.start()
        var publishedBytes = keyframeBytes
        while true {
            var take = handOff.take(held: held.items, heldSince: held.since)
            if take.isAbandoned {
                pipe.abandon()
                pipe.waitUntilFinished()
                return
            }
            let outcome = pipe.outcome()
            if outcome.gone {
                // The file is gone: nothing more is written, and what comes is counted as lost.
                handOff.didProcess(items: take.items.count, committed: 0, lost: take.items.count)
            } else {
                noticeFailures(outcome)
                if held.since == nil { held.since = take.enqueuedAt }
                let count = take.items.count
                encode(&take)
                handOff.didEncode(count)
                if keyframeBytes != publishedBytes {
                    publishedBytes = keyframeBytes
                    handOff.estimateStateBytes(publishedBytes)
                }
                // Also by bytes: encoded rows of large states would otherwise pile up until the batch is due.
                if take.commitDue || held.bytes >= commitBytes {
                    submitHeld()
                }
                // Capture mode: the capture comes right after the rows just handed on.
                if let reason = take.capture { pipe.submit(EncodedBatch(capture: reason)) }
            }
            if outcome.gone, take.capture != nil {
                handOff.didCapture()  // Nothing is written any more: a flush waits for no capture.
            }
            if take.isLast {
                submitHeld()
                pipe.close()
                pipe.waitUntilFinished()
                return
            }
        }
    }

    /// The queue to the committing half.
    private var pipe: CommitPipe { committer.pipe }

    /// Whether ``run(_:)`` has started the committing half's thread.
    private var committerStarted = false
    /// The actions (steps, and drops carried by them) in the batches handed to the committing half.
    private var submittedActions = 0

    /// Ends the session when the process ends on this thread, the encoding half's (`exit` called
    /// from the error handler, see ``HandOff/closeAtProcessEnd()``). This thread cannot go back to
    /// the step it was encoding, so the rows encoded so far go to the committing half, and every
    /// action handed over beyond them is counted as lost: the committing half writes their gap,
    /// adds them to the session's `dropped` and marks it closed, while this thread waits for it
    /// (or does it here, before ``run(_:)`` has started it). Nothing new is accepted by then, so
    /// the count is final.
    func endOnProcessEnd(_ handOff: HandOff<Item>) {
        // The rows held stand for these steps; the rest of the take they came with has none.
        held.items = held.rows.filter { !$0.entry.isGap }.count + held.lostToEncoding
        submitHeld()
        pipe.close(lostAtProcessEnd: max(0, handOff.handedOverActions - 1 - submittedActions))
        if committerStarted {
            pipe.waitUntilFinished()
        } else {
            committer.run(handOff)
        }
    }

    /// Hands the held rows to the committing half, and starts a new batch.
    private func submitHeld() {
        // A failure the committing half met since: the held rows follow states lost with it. They go
        // (to be counted in the gap), and the next row is a keyframe.
        noticeFailures(pipe.outcome())
        guard !held.isEmpty else { return }
        nextSeq += held.rows.count
        submittedActions += EncodedBatch.actions(in: held.rows)
        pipe.submit(held)
        held = Held(generation: failuresSeen)
    }

    /// Takes note of commits that failed since the last look: the rows held so far (begun before)
    /// are handed over to be counted as lost, and the next entry is a keyframe.
    private func noticeFailures(_ outcome: (failures: Int, resumeSeq: Int, gone: Bool)) {
        guard outcome.failures != failuresSeen else { return }
        if !held.isEmpty {
            submittedActions += EncodedBatch.actions(in: held.rows)
            pipe.submit(held)  // its generation is older: the committing half counts it as lost
        }
        failuresSeen = outcome.failures
        held = Held(generation: failuresSeen)
        // The gap of the loss comes first, then what is encoded from now on.
        nextSeq = outcome.resumeSeq + 1
        forgetPrevious()
    }

    // MARK: - Writing

    private typealias Row = EntryInserter.Row

    /// The entries encoded and not yet handed to the committing half.
    private typealias Held = EncodedBatch

    private var held = Held()
    /// Whether drops under back-pressure were reported in the current overload: a long overload is
    /// told once, not at every gap it leaves (the gaps and the statistics count every drop).
    private var dropsReported = false
    /// When the writer last took steps with drops among them.
    private var lastDropSeen: ContinuousClock.Instant?
    /// How long the writer must take steps without drops for an overload to be over.
    private let overloadQuietPeriod: Duration
    /// What the quiet period is measured by: `ContinuousClock.now`, or a test's time.
    private let overloadClock: @Sendable () -> ContinuousClock.Instant

    /// Reports a gap of dropped actions, once per overload.
    private func reportDrops(_ note: String) {
        guard !dropsReported else { return }
        dropsReported = true
        report(.dropped, entry: nextSeq + held.rows.count - 1, "\(note); recorded as a gap (further drops are counted, and told again once the writer has kept up for \(Self.describe(overloadQuietPeriod)))")
    }

    /// A quiet period as the drop report says it: `a second`, `2 seconds`, `0.5 seconds`.
    private static func describe(_ period: Duration) -> String {
        if period == .seconds(1) { return "a second" }
        return "\(period.timeInterval.formatted(.number.grouping(.never))) seconds"
    }

    /// Notes whether the steps the writer just took had drops among them. An overload is over once
    /// no step has been dropped for ``overloadQuietPeriod``: the writer kept up all that time.
    private func noteTake(hadDrops: Bool) {
        let now = overloadClock()
        if dropsReported, let lastDropSeen, lastDropSeen.duration(to: now) >= overloadQuietPeriod {
            dropsReported = false
        }
        if hadDrops { lastDropSeen = now }
    }

    /// Adds a gap of `count` entries to the held rows, or extends the last row when it is a gap.
    private func gap(_ count: Int, note: String, time: Date) {
        if let last = held.rows.last?.entry, last.isGap {
            held.rows[held.rows.count - 1].entry.dropped = (last.dropped ?? 0) + Int64(count)
            held.rows[held.rows.count - 1].entry.note = (last.note ?? "") + "; " + note
        } else {
            held.rows.append(Row(entry: .gap(count, note: note, time: time)))
        }
    }

    /// Encodes the steps of `take` into held rows, releasing each step once encoded (`take` keeps none).
    private func encode(_ take: inout HandOff<Item>.Take) {
        var items = take.items
        take.items = []
        noteTake(hadDrops: take.trailingDrops > 0 || items.contains(where: { $0.droppedBefore > 0 }))
        items.reverse()
        held.items += items.count
        while let pending = items.popLast() {
            let step = pending.item
            if pending.droppedBefore > 0 {
                let note = "\(pending.droppedBefore) actions dropped: the writer fell behind"
                gap(pending.droppedBefore, note: note, time: step.time)
                reportDrops(note)
            }
            do {
                let row = try encode(step)
                held.bytes += row.entry.state?.count ?? 0
                held.rows.append(row)
            } catch {
                let label = step.action.map { labeler.label(of: $0) } ?? "initial state"
                let reason = "\"\(label)\" does not encode: \(EncodingFailure.describe(error))"  // Never the value: it may hold secrets.
                held.lostToEncoding += 1
                keyframeAfterFailure = true
                gap(1, note: reason, time: step.time)
                report(.encodingFailed, entry: nextSeq + held.rows.count - 1, "\(reason); recorded as a gap")
            }
        }
        if take.trailingDrops > 0 {
            let note = "\(take.trailingDrops) actions dropped: the writer fell behind"
            gap(take.trailingDrops, note: note, time: Date())
            reportDrops(note)
        }
    }

    private func encode(_ step: Item) throws -> Row {
        var label: String?
        var action: [UInt8]?
        var effect: [UInt8]?
        if let value = step.action {
            action = try actionTexts.text(of: value, encoder: encoder, redactor: redaction.actions)
            label = labeler.label(of: value)
        }
        if let value = step.effect {
            effect = try effectTexts.text(of: value, encoder: encoder, redactor: redaction.effects)
        }
        let (kind, stateText, changedPaths) = try storedForm(of: step.state)
        let entry = StoredEntry(
            kind, time: step.time, label: label, action: action, state: stateText, effect: effect,
            durationNanoseconds: step.reducerDuration?.saturatingNanoseconds)
        return Row(entry: entry, handler: redaction.handler(step.handler), initialHandler: redaction.handler(step.initialHandler), changedPaths: changedPaths)
    }

    /// Encodes `state` and chooses keyframe or delta following the keyframe policy; returns the stored text.
    ///
    /// While `==` is trusted, the change encoder re-encodes only what changed. Each keyframe the
    /// policy asks for (not one forced by a failure, see ``keyframeAfterFailure``) checks that against a full
    /// encoding; on a mismatch the error handler hears which type and field, and
    /// the rest of the session is encoded in full, so a wrong `==` costs speed, not correctness of
    /// later entries.
    /// Also returns the paths the change touched, for the change index: those of the patch from the
    /// last state encoded (across a gap of dropped actions, the state before it), or the root when that is not known
    /// (after a failed write, or a change the keyframe check found `==` to have hidden).
    private func storedForm(of state: State) throws -> (Entry.Kind, [UInt8], changedPaths: [String]) {
        let afterFailure = keyframeAfterFailure
        var json: JSONValue
        let patch: JSONPatch?
        if trustsEquality {
            let change = try changeEncoder.encode(state)
            (json, patch) = (change.json, change.patch)
        } else {
            json = try encoder.encodeWhole(state)
            // After a failure the entry is a keyframe whatever changed: no diff to find.
            patch = afterFailure ? nil : previousState.map { JSONPatch.diff(from: $0, to: json) }
        }
        keyframeAfterFailure = false
        var changeUnknown = patch == nil
        let (kind, text) = try budget.store(
            delta: { () -> ([UInt8], bytes: Int)? in
                // Redaction: a patch that cannot be redacted exactly is written as a keyframe instead.
                guard let patch, !afterFailure, let redacted = redactor.delta(patch) else { return nil }
                let text = redacted.canonicalBytes
                return (text, text.count)
            },
            keyframe: { () throws -> ([UInt8], bytes: Int) in
                if trustsEquality, patch != nil, !afterFailure {
                    let full = try encoder.encodeWhole(state)
                    if full != json {
                        let fields = json.differences(to: full).prefix(3).map { $0.path.description }.joined(separator: ", ")
                        report(.equalityMismatch, entry: nil, """
                            \(String(reflecting: State.self)): == says unchanged where the encoding changed (\(fields)); \
                            the entries since the last keyframe may hold stale values there, and the rest of the session is encoded in full
                            """)
                        trustsEquality = false
                        json = full
                        changeUnknown = true
                    }
                }
                let text = redactor.keyframe(json).canonicalBytes
                keyframeBytes = text.count
                return (text, text.count)
            })
        if !trustsEquality { previousState = json }
        guard let patch, !changeUnknown else { return (kind, text, [ChangeIndex.unknownChange]) }
        return (kind, text, ChangeIndex.paths(of: patch, after: json))
    }

    private func report(_ code: ActionLogError.Code, entry: Int?, _ reason: String) {
        onError(ActionLogError(code, file: file, session: sessionID, entry: entry, reason: reason))
    }
}
