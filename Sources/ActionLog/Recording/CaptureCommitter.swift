import Foundation

/// The committing half of a writer: takes the encoding half's batches from the pipe on a thread of
/// its own. ``EntryCommitter`` writes them to the session; in capture mode ``CaptureCommitter``
/// keeps them in memory until a capture.
protocol CommittingHalf: AnyObject, Sendable {
    /// The queue from the encoding half.
    var pipe: CommitPipe { get }
    /// Takes what comes until the pipe closes, then finishes; tells `handOff` what each batch became.
    func run<Item>(_ handOff: HandOff<Item>)
}

/// What a recorder in capture mode tells its ``Recorder``: the last session a capture wrote, and the
/// bytes of encoded text the window holds and held at most.
final class CaptureGauge: Sendable {
    private let values = Locked<(session: JournalSession.ID?, heldBytes: Int, peakBytes: Int)>((nil, 0, 0))

    var session: JournalSession.ID? { values.withLock { $0.session } }
    var peakBytes: Int { values.withLock { $0.peakBytes } }

    func didCapture(_ session: JournalSession.ID) {
        values.withLock { $0.session = session }
    }

    func hold(_ bytes: Int) {
        values.withLock { values in
            values.heldBytes = bytes
            values.peakBytes = max(values.peakBytes, bytes)
        }
    }
}

/// What a writer in capture mode is given: the window, where to tell what it holds, and what to
/// do once a capture has written its session (apply the retention policy).
struct CaptureSetup: Sendable {
    var window: CaptureWindow
    var gauge: CaptureGauge
    var onCapture: @Sendable (JournalSession.ID) -> Void
}

/// The committing half of a recorder in capture mode (see ``CaptureWindow``): keeps the last window
/// of the session's encoded entries in memory and, on a capture, writes it as a session of its own,
/// then the stretch after it, then closes that session.
///
/// The window is kept as the encoder made it, keyframes and deltas: its first entry is always a
/// keyframe, and the window's start (the *base*, a capture's entry 0) is an entry at or after it.
/// The entries from that keyframe up to the base are kept only to rebuild the base's state when a
/// capture needs it; they go as soon as a later keyframe is at or before the base. What is held —
/// those and the window — is counted against ``CaptureWindow/bytes``. When a single run of deltas
/// would pass it, the state at the earliest start that fits is rebuilt once as a keyframe (a parse of
/// the keyframe and an application of the deltas, on this thread), and the entries before it go.
///
/// Entries leave the window by count, and by their recorded times against the newest entry's: never
/// by a timer, so what a capture holds depends on what was recorded, not on how busy the machine was.
final class CaptureCommitter: CommittingHalf, @unchecked Sendable {
    // @unchecked: after `init`, everything here is used by the committing thread alone.
    typealias Row = EntryInserter.Row

    let pipe: CommitPipe
    private let window: CaptureWindow
    private let path: String
    private let file: String
    private let session: SessionDescription
    private let faults: WriteFaults?
    private let gauge: CaptureGauge
    private let onCapture: @Sendable (JournalSession.ID) -> Void
    private let onError: @Sendable (ActionLogError) -> Void

    /// An entry held, with the bytes it counts for.
    private struct Held {
        var row: Row
        var bytes: Int
    }

    /// The entries held, from `start` on (those before are gone, kept until the array is compacted).
    private var held: [Held] = []
    private var start = 0
    /// The index in `held` of the window's start: a capture's entry 0 is its state. Never a gap.
    private var base = 0
    /// The indexes of the keyframes held, ascending, from `keyframesStart` on; the first is `start`.
    private var keyframes: [Int] = []
    private var keyframesStart = 0
    /// What the entries from `start` on count for.
    private var heldBytes = 0
    /// The actions recorded before the window's start (gaps count what they lost): a capture's metadata says it.
    private var actionsBefore = 0
    /// Whether the base is still the recorder's entry 0, whose handler record (what an asynchronous
    /// ViewModel did before its first action) the entry after it carries.
    private var baseIsInitial = true
    /// Set when not even one state fits in the window: entries are let go until a keyframe that fits.
    private var awaitingKeyframe = false
    /// The capture being written, if any.
    private var writing: Writing?
    /// The entries of the stretch after a capture, not yet committed.
    private var stretch: [Row] = []

    private struct Writing {
        let committer: EntryCommitter
        /// Entries the stretch may still write.
        var remaining: Int
        /// The last recorded time the stretch writes (seconds since 1970).
        var until: Double
    }

    init(
        _ setup: CaptureSetup, path: String, file: String, session: SessionDescription, initial: Row, faults: WriteFaults?,
        pipe: CommitPipe, onError: @escaping @Sendable (ActionLogError) -> Void
    ) {
        self.window = setup.window
        self.path = path
        self.file = file
        self.session = session
        self.faults = faults
        self.pipe = pipe
        self.gauge = setup.gauge
        self.onCapture = setup.onCapture
        self.onError = onError
        hold(initial)
    }

    func run<Item>(_ handOff: HandOff<Item>) {
        while true {
            switch pipe.next() {
            case .abandon:
                writing?.committer.lock.abandon()
                pipe.finish()
                handOff.finish()
                return
            case .close:
                endStretch()
                pipe.finish()
                handOff.finish()
                return
            case .batch(let batch):
                if let reason = batch.capture {
                    capture(reason: reason)
                    handOff.didCapture()
                    continue
                }
                take(batch)
                handOff.didProcess(items: batch.items, committed: batch.items - batch.lostToEncoding, lost: batch.lostToEncoding)
            }
        }
    }

    // MARK: - Taking entries

    /// Holds the batch's rows in the window, writes those of a stretch being written, and starts a
    /// capture after a gap (an action the recorder lost).
    private func take(_ batch: EncodedBatch) {
        for row in batch.rows {
            if var current = writing {
                if current.remaining > 0, row.entry.time <= current.until {
                    current.remaining -= 1
                    writing = current
                    stretch.append(row)
                } else {
                    endStretch(generation: batch.generation)
                }
            }
            hold(row)
            if row.entry.isGap {
                let lost = row.entry.actions == 1 ? "an action" : "\(row.entry.actions) actions"
                capture(reason: "the recorder lost \(lost): \(row.entry.note ?? "")", generation: batch.generation)
            }
        }
        commitStretch(generation: batch.generation)
        if let current = writing, current.remaining == 0 { endStretch(generation: batch.generation) }
    }

    /// Adds `row` to the window, then lets go of what the window no longer holds.
    private func hold(_ row: Row) {
        let entry = row.entry
        let bytes = (entry.state?.count ?? 0) + (entry.action?.count ?? 0) + (entry.effect?.count ?? 0)
            + (entry.label?.utf8.count ?? 0) + (entry.note?.utf8.count ?? 0)
        if awaitingKeyframe {
            guard entry.kind == Entry.Kind.keyframe.rawValue, bytes <= window.bytes else {
                actionsBefore += entry.actions
                return
            }
            awaitingKeyframe = false
        }
        held.append(Held(row: row, bytes: bytes))
        heldBytes += bytes
        if entry.kind == Entry.Kind.keyframe.rawValue { keyframes.append(held.count - 1) }
        if held.count - start == 1 {
            // The first entry held (the recorder's entry 0, or the keyframe after a state too large).
            base = held.count - 1
        }
        evict()
        gauge.hold(heldBytes)
    }

    /// The entries after the base: the window a capture writes after its entry 0.
    private var windowCount: Int { held.count - 1 - base }

    private func evict() {
        let newest = held[held.count - 1].row.entry.time
        let oldest = newest - window.duration.timeInterval
        while windowCount > window.entries || (windowCount > 0 && held[base + 1].row.entry.time < oldest) {
            guard let next = nextState(after: base) else { break }
            moveBase(to: next)
        }
        dropBeforeBase()
        while heldBytes > window.bytes {
            if keyframesStart + 1 < keyframes.count {
                // A later keyframe: the window starts there at the latest, and what is before it goes.
                moveBase(to: max(base, keyframes[keyframesStart + 1]))
                dropBeforeBase()
            } else if !rebuildBase() {
                // Not even the newest state fits: nothing is held until a keyframe that fits.
                for index in (base + 1)..<max(base + 1, held.count) { actionsBefore += held[index].row.entry.actions }
                forgetAll()
                awaitingKeyframe = true
                break
            }
        }
        compactStorage()
    }

    /// The first entry after `index` that holds a state (not a gap).
    private func nextState(after index: Int) -> Int? {
        var next = index + 1
        while next < held.count {
            if !held[next].row.entry.isGap { return next }
            next += 1
        }
        return nil
    }

    /// Moves the window's start to `index`, counting the actions it passes as before the window.
    private func moveBase(to index: Int) {
        guard index > base else { return }
        for passed in (base + 1)...index { actionsBefore += held[passed].row.entry.actions }
        base = index
        baseIsInitial = false
    }

    /// Lets go of the entries before the last keyframe at or before the base.
    private func dropBeforeBase() {
        while keyframesStart + 1 < keyframes.count, keyframes[keyframesStart + 1] <= base { keyframesStart += 1 }
        let keyframe = keyframes[keyframesStart]
        while start < keyframe {
            heldBytes -= held[start].bytes
            held[start].row = Row(entry: StoredEntry(.gap, time: Date(timeIntervalSince1970: 0)))
            start += 1
        }
    }

    /// When one run of deltas holds more than the window's bytes: rebuilds, as a keyframe, the state of
    /// the earliest entry at or after the base from which the rest takes at most half the room the
    /// keyframe leaves, and lets go of what is before it. Returns `false` when not even the newest
    /// state fits.
    private func rebuildBase() -> Bool {
        // The keyframe rebuilt is counted as the size of the one the run starts with, then measured.
        // What follows it may take half of the room left, so that the next rebuild comes only after
        // that much more has been recorded, not at every entry.
        let estimate = held[start].bytes
        var after = 0
        var chosen: Int?
        var index = held.count - 1
        while index >= base {
            if !held[index].row.entry.isGap, estimate + 2 * after <= window.bytes { chosen = index }
            after += held[index].bytes
            index -= 1
        }
        guard let target = chosen ?? (held[held.count - 1].row.entry.isGap ? nil : held.count - 1), target > start else { return false }
        let text: [UInt8]
        do throws(ActionLogError) {
            text = try state(at: target)
        } catch {
            report(.corrupt, "the window's state could not be rebuilt (\(error.reason)); it starts again at the next keyframe")
            return false
        }
        moveBase(to: target)
        var rebuilt = held[target]
        rebuilt.row.entry.kind = Entry.Kind.keyframe.rawValue
        rebuilt.row.entry.state = text
        heldBytes -= rebuilt.bytes
        rebuilt.bytes += text.count - (held[target].row.entry.state?.count ?? 0)
        heldBytes += rebuilt.bytes
        held[target] = rebuilt
        keyframes.append(target)  // No keyframe is held after `start` (see `evict()`), so the order stays.
        dropBeforeBase()
        return true
    }

    private func forgetAll() {
        held.removeAll(keepingCapacity: true)
        keyframes.removeAll(keepingCapacity: true)
        start = 0
        base = 0
        keyframesStart = 0
        heldBytes = 0
        baseIsInitial = false
    }

    /// Lets the array go of the entries before `start` once they are half of it.
    private func compactStorage() {
        guard start >= 1024, start * 2 >= held.count else { return }
        held.removeFirst(start)
        keyframes.removeFirst(keyframesStart)
        for index in keyframes.indices { keyframes[index] -= start }
        base -= start
        keyframesStart = 0
        start = 0
    }

    /// The full state of entry `index` as canonical text: its keyframe, or the keyframe held first
    /// with the deltas after it applied.
    private func state(at index: Int) throws(ActionLogError) -> [UInt8] {
        let entry = held[index].row.entry
        if entry.kind == Entry.Kind.keyframe.rawValue, let text = entry.state { return text }
        let keyframe = keyframes[keyframesStart]
        var json = try JSONValue(parsing: held[keyframe].row.entry.state ?? [])
        for step in (keyframe + 1)...index {
            let entry = held[step].row.entry
            guard let text = entry.state else { continue }
            if entry.kind == Entry.Kind.keyframe.rawValue {
                json = try JSONValue(parsing: text)
            } else {
                try JSONPatch(JSONValue(parsing: text)).apply(to: &json)
            }
        }
        return json.canonicalBytes
    }

    // MARK: - Writing a capture

    /// Writes the window as a new session, or, while a stretch is being written, extends it.
    private func capture(reason: String, generation: Int? = nil) {
        if var current = writing {
            // Folded into the session being written: its stretch now runs from here.
            commitStretch(generation: generation ?? pipe.outcome().failures)
            current.remaining = window.followingEntries
            current.until = (held.last?.row.entry.time ?? 0) + window.followingDuration.timeInterval
            writing = current
            return
        }
        guard !held.isEmpty, held.count > start else {
            report(.writeFailed, "the capture \"\(reason)\" was not written: the window holds no state (each was larger than its \(window.bytes) bytes)")
            return
        }
        let entry0: [UInt8]
        do throws(ActionLogError) {
            entry0 = try state(at: base)
        } catch {
            report(.corrupt, "the capture \"\(reason)\" was not written: the state at the window's start could not be rebuilt (\(error.reason))")
            return
        }
        var description = session
        var metadata: [String: JSONValue] = [:]
        if case .object(let given) = session.metadata { metadata = given }
        metadata[Self.metadataKey] = [
            "reason": .string(reason),
            "actionsBefore": .number(String(actionsBefore)),
        ]
        description.metadata = .object(metadata)
        let startedAt = Date(timeIntervalSince1970: held[base].row.entry.time)
        let connection: Connection
        let id: JournalSession.ID
        let lock: SessionLock
        do throws(ActionLogError) {
            (connection, id, lock) = try SessionStart.startSession(
                path: path, session: description, initialText: entry0, startedAt: startedAt, file: file)
        } catch {
            onError(error)
            return
        }
        _ = lock.reserve(bytes: SessionLock.reservedBytes)
        let committer = EntryCommitter(
            connection: connection, session: id, lock: lock, path: path, file: file, faults: faults, pipe: pipe, onError: onError)
        gauge.didCapture(id)
        var rows = held[(base + 1)...].map(\.row)
        if !baseIsInitial, !rows.isEmpty { rows[0].initialHandler = nil }
        var next = rows.startIndex
        while next < rows.endIndex {
            let end = min(rows.endIndex, next + 256)
            var batch = EncodedBatch(rows: Array(rows[next..<end]))
            batch.generation = pipe.outcome().failures
            _ = committer.commit(batch)
            next = end
        }
        writing = Writing(
            committer: committer, remaining: window.followingEntries,
            until: (held.last?.row.entry.time ?? 0) + window.followingDuration.timeInterval)
        onCapture(id)
        if window.followingEntries == 0 { endStretch() }
    }

    /// Commits the stretch's entries taken so far.
    private func commitStretch(generation: Int) {
        guard let current = writing, !stretch.isEmpty else { return }
        var batch = EncodedBatch(rows: stretch)
        batch.generation = generation
        _ = current.committer.commit(batch)
        stretch.removeAll(keepingCapacity: true)
    }

    /// Commits what is left of the stretch and closes the session being written.
    private func endStretch(generation: Int? = nil) {
        guard let current = writing else { return }
        commitStretch(generation: generation ?? pipe.outcome().failures)
        current.committer.finishSession()
        writing = nil
    }

    /// Where ``StepEncoder/startSession(path:session:initialText:startedAt:file:)`` is, whatever the types.
    private typealias SessionStart = StepEncoder<Int, Int, Int>

    /// The session metadata key a capture writes: `{"reason": ..., "actionsBefore": N}`.
    static let metadataKey = "actionlog.capture"

    private func report(_ code: ActionLogError.Code, _ reason: String) {
        onError(ActionLogError(code, file: file, reason: reason))
    }
}
