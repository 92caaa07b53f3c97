import Foundation

/// Encoded rows waiting for their transaction, as the writer's encoding half hands them to its
/// committing half.
struct EncodedBatch {
    typealias Row = EntryInserter.Row

    var rows: [Row] = []
    /// The handed-over steps they hold (gap rows count what they stand for).
    var items = 0
    /// The bytes of the state texts the rows hold.
    var bytes = 0
    /// The steps of ``items`` that did not encode, each now a gap.
    var lostToEncoding = 0
    /// When the oldest of ``items`` was handed over.
    var since: ContinuousClock.Instant?
    /// The count of failed commits (``CommitPipe/outcome()``) the encoding half had seen when it
    /// began the batch: a batch begun before a failed commit was known may hold deltas from states
    /// that never reached the file.
    var generation = 0
    /// In capture mode, a batch of no rows that stands for a capture asked for after the rows
    /// before it (``Recorder/capture(reason:)``): its reason.
    var capture: String?

    /// Whether the batch holds nothing: no step, no row.
    var isEmpty: Bool { items == 0 && rows.isEmpty }

    /// The actions `rows` stand for: one per entry, and what each gap lost.
    static func actions(in rows: [Row]) -> Int {
        rows.reduce(0) { $0 + $1.entry.actions }
    }
}

extension EncodedBatch {
    /// A capture asked for, after the batches before it.
    init(capture reason: String) {
        self.init()
        capture = reason
    }
}

/// The queue between the writer's two halves, and what the committing half tells the encoding half.
///
/// A monitor: every field is read and written with `condition` locked. Bounded by bytes, so that a
/// stalled disk stops the encoding half after about one batch, and the recorder's own queue (and its
/// back-pressure) takes the rest, as with one thread.
final class CommitPipe: @unchecked Sendable {
    // @unchecked: all mutable state below is guarded by `condition`.
    private let condition = NSCondition()
    private let byteCapacity: Int
    private var batches: [EncodedBatch] = []
    private var queuedBytes = 0
    private var closing = false
    private var abandoned = false
    private var finished = false
    /// Commits that failed so far: a change tells the encoding half to start again from a keyframe.
    private var failureCount = 0
    /// The first seq the next successful commit writes, with the gap of a pending loss.
    private var resumeSeq = 1
    private var isGone = false
    /// Actions handed over that the encoding half will never hand on: the process ended on its thread.
    private var lostAtProcessEnd = 0

    /// The most batches waiting: beyond that the encoding half waits, whatever their size.
    private static var batchCapacity: Int { 4 }

    init(byteCapacity: Int) {
        self.byteCapacity = max(0, byteCapacity)
    }

    // MARK: Encoding half

    /// Queues `batch` for its commit; waits while the queue is full (one batch always fits).
    func submit(_ batch: EncodedBatch) {
        condition.lock()
        defer { condition.unlock() }
        while !batches.isEmpty, !abandoned,
            batches.count >= Self.batchCapacity || queuedBytes > byteCapacity - min(byteCapacity, batch.bytes)
        {
            condition.wait()
        }
        batches.append(batch)
        queuedBytes += batch.bytes
        condition.broadcast()
    }

    /// Asks the committing half to finish the session once the queue is empty, counting
    /// `lostAtProcessEnd` actions that will not come (see ``StepEncoder/endOnProcessEnd(_:)``).
    func close(lostAtProcessEnd: Int = 0) {
        condition.lock()
        closing = true
        self.lostAtProcessEnd += lostAtProcessEnd
        condition.broadcast()
        condition.unlock()
    }

    /// Asks the committing half to stop at once, as a process that dies would: what waits is lost.
    func abandon() {
        condition.lock()
        abandoned = true
        closing = true
        batches.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    /// What the encoding half needs to know of the commits: how many failed, where the next
    /// successful one would write, and whether the file is gone.
    func outcome() -> (failures: Int, resumeSeq: Int, gone: Bool) {
        condition.lock()
        defer { condition.unlock() }
        return (failureCount, resumeSeq, isGone)
    }

    // MARK: Committing half

    enum Next {
        case batch(EncodedBatch)
        case close
        case abandon
    }

    /// Waits for the next batch, or for the end.
    func next() -> Next {
        condition.lock()
        defer { condition.unlock() }
        while batches.isEmpty, !closing { condition.wait() }
        if abandoned { return .abandon }
        guard !batches.isEmpty else { return .close }
        let batch = batches.removeFirst()
        queuedBytes -= batch.bytes
        condition.broadcast()
        return .batch(batch)
    }

    /// Counts a failed commit; the seq the next successful one starts at.
    func didFail(resumeSeq: Int) {
        condition.lock()
        failureCount += 1
        self.resumeSeq = resumeSeq
        condition.unlock()
    }

    func didCommit(nextSeq: Int) {
        condition.lock()
        resumeSeq = nextSeq
        condition.unlock()
    }

    /// The actions counted by ``close(lostAtProcessEnd:)``, once: later calls answer 0.
    func takeLostAtProcessEnd() -> Int {
        condition.lock()
        defer { condition.unlock() }
        defer { lostAtProcessEnd = 0 }
        return lostAtProcessEnd
    }

    func didGo() {
        condition.lock()
        isGone = true
        condition.unlock()
    }

    /// Marks the committing half finished.
    func finish() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until the committing half has finished.
    func waitUntilFinished() {
        condition.lock()
        while !finished { condition.wait() }
        condition.unlock()
    }
}

/// The writer's committing half: owns the connection on a thread of its own and commits the batches
/// of encoded rows the encoding half (``StepEncoder``) hands it, one transaction each.
///
/// On a thread of its own so that nothing SQLite or the disk does — a checkpoint, an `fsync`, a
/// disk that stalls — delays the encoding of the next steps: a step waiting in the recorder's queue
/// holds the caller's state, and the caller's next in-place mutation would copy it.
///
/// Failures are reported through `onError` once per episode (a run of failed commits, ended by one
/// that succeeds), counted, and written as a `gap` entry at the start of the next commit that
/// succeeds. Batches the encoding half began before it knew of a failure may hold deltas from the
/// states lost with it: they are lost too, and counted in the same gap.
final class EntryCommitter: CommittingHalf, @unchecked Sendable {
    // @unchecked: after `init`, everything here is used by the committing thread alone.
    typealias Row = EntryInserter.Row

    let sessionID: JournalSession.ID
    private let connection: Connection
    let lock: SessionLock
    private let inserter: EntryInserter
    private let file: String
    private let onError: @Sendable (ActionLogError) -> Void
    /// Tells when the journal's path no longer names the file written.
    private let watch: JournalWatch
    /// For tests: fails transactions as a full disk or a read-only file would.
    private let faults: WriteFaults?
    let pipe: CommitPipe

    /// Entry 0 is written with the session.
    private var nextSeq = 1
    /// Actions lost to failed transactions, not yet written as a gap.
    private var unrecordedLoss: (count: Int, reason: String, time: Date)?
    /// Set by a failed commit, cleared by one that succeeds: the failure that began the episode was
    /// reported, and the next ones are only counted.
    private var failing = false
    /// Set once ``watch`` saw the file go: nothing more is written.
    private var gone = false

    init(
        connection: Connection, session: JournalSession.ID, lock: SessionLock, path: String, file: String, faults: WriteFaults?,
        checksums: Bool = true, pipe: CommitPipe, onError: @escaping @Sendable (ActionLogError) -> Void
    ) {
        self.connection = connection
        self.sessionID = session
        self.lock = lock
        self.file = file
        self.faults = faults
        self.pipe = pipe
        self.onError = onError
        inserter = EntryInserter(connection: connection, session: session, checksums: checksums)
        watch = JournalWatch(path: path)
    }

    /// Commits what comes until the pipe closes, then finishes the session; tells `handOff` what
    /// each batch became.
    ///
    /// When the process ends on this thread (`exit` from the error handler, which this half calls
    /// after a failed commit, see ``HandOff/closeAtProcessEnd()``), this runs again from there, on
    /// the same thread: the call it interrupts never resumes, and each of its calls of the handler
    /// comes once this half's state is settled (a failed transaction rolled back and counted), so
    /// this half goes on committing what the encoding half still hands over, and closes the session.
    func run<Item>(_ handOff: HandOff<Item>) {
        while true {
            switch pipe.next() {
            case .abandon:
                lock.abandon()
                pipe.finish()
                handOff.finish()
                return
            case .close:
                finishSession()
                pipe.finish()
                handOff.finish()
                return
            case .batch(let batch):
                let (committed, lost) = commit(batch)
                handOff.didProcess(items: batch.items, committed: committed, lost: lost)
            }
        }
    }

    /// Commits `batch` in one transaction, after the gap of a pending loss. Returns how many
    /// handed-over steps were committed and lost.
    func commit(_ batch: EncodedBatch) -> (committed: Int, lost: Int) {
        if gone { return (0, batch.items) }
        var rows = batch.rows
        guard !rows.isEmpty else { return (0, batch.items) }
        if batch.generation < pipe.outcome().failures {
            // Begun before the encoding half knew of the failure: its deltas may follow lost states.
            let count = EncodedBatch.actions(in: rows)
            let loss = unrecordedLoss ?? (0, "the write of an earlier entry failed", Date(timeIntervalSince1970: rows[0].entry.time))
            unrecordedLoss = (loss.count + count, loss.reason, loss.time)
            return (0, batch.items)
        }
        if let loss = unrecordedLoss {
            let note = "\(loss.count) actions lost: \(loss.reason)"
            if rows[0].entry.isGap {
                rows[0].entry.dropped = Int64(loss.count) + (rows[0].entry.dropped ?? 0)
                rows[0].entry.note = note + "; " + (rows[0].entry.note ?? "")
                rows[0].entry.time = loss.time.timeIntervalSince1970
            } else {
                rows.insert(Row(entry: .gap(loss.count, note: note, time: loss.time)), at: 0)
            }
        }
        let firstSeq = nextSeq
        let lastSeq = firstSeq + rows.count - 1
        do {
            try faults?.check()
            try connection.transaction {
                try inserter.insert(rows, firstSeq: firstSeq)
                let droppedTotal = rows.reduce(0) { $0 + ($1.entry.isGap ? $1.entry.actions : 0) }
                if droppedTotal > 0 {
                    try connection.cachedStatement("UPDATE sessions SET dropped = dropped + ?2 WHERE id = ?1")
                        .execute([.integer(sessionID), .integer(Int64(droppedTotal))])
                }
            }
        } catch {
            if stopIfGone(lost: firstSeq...lastSeq) { return (0, batch.items) }
            // The transaction rolled back: everything in it is lost, and becomes a gap once writes succeed again.
            unrecordedLoss = (EncodedBatch.actions(in: rows), "the write failed (\(error))", rows.first.map { Date(timeIntervalSince1970: $0.entry.time) } ?? Date())
            pipe.didFail(resumeSeq: nextSeq)
            if !failing {
                failing = true
                report(.writeFailed, entry: firstSeq, """
                    \(Self.describe(firstSeq...lastSeq)) not written: \(error); until a write succeeds again, \
                    what is recorded is lost, and then written as a gap
                    """)
            }
            return (0, batch.items)
        }
        nextSeq = lastSeq + 1
        pipe.didCommit(nextSeq: nextSeq)
        unrecordedLoss = nil
        failing = false
        // Committed, but perhaps to a file nobody can reach any more.
        if stopIfGone(lost: firstSeq...lastSeq) { return (0, batch.items) }
        return (batch.items - batch.lostToEncoding, batch.lostToEncoding)
    }

    /// "entry 4 was" or "entries 4...9 were".
    private static func describe(_ entries: ClosedRange<Int>) -> String {
        entries.count == 1 ? "entry \(entries.lowerBound) was" : "entries \(entries.lowerBound)...\(entries.upperBound) were"
    }

    /// Stops writing, and says so once, when the journal's path no longer names the file written.
    /// Returns whether it stopped. `lost`: the entries of the batch just tried, which count as lost.
    private func stopIfGone(lost: ClosedRange<Int>?) -> Bool {
        guard !gone, let problem = watch.problem() else { return gone }
        gone = true
        unrecordedLoss = nil
        pipe.didGo()
        let what = lost.map { "\(Self.describe($0)) lost with it" } ?? "the session was not marked closed"
        report(.fileGone, entry: lost?.lowerBound, "\(problem): \(what), and nothing more is written to this session")
        return true
    }

    /// Writes what is left of the session: a gap for a loss not yet written, then its status
    /// `closed` (when the disk is full, gives the lock file's reserve back and tries once more). Then
    /// releases its lock and closes the connection, before `close()` returns: the closing connection
    /// folds the write-ahead log into the journal file and, when no other connection has the file
    /// open, switches it back to a rollback journal, so that the journal is one file again (see
    /// ``Connection/close()``).
    func finishSession() {
        defer {
            lock.release()
            inserter.finalizeStatements()
            connection.close()
        }
        guard !stopIfGone(lost: nil) else { return }
        let lostAtEnd = pipe.takeLostAtProcessEnd()
        if lostAtEnd > 0 {
            let reason = "the process ended on the recorder's writer thread (exit from its error handler) before they were written"
            if let loss = unrecordedLoss {
                unrecordedLoss = (loss.count + lostAtEnd, "\(loss.reason); \(lostAtEnd) of them because \(reason)", loss.time)
            } else {
                unrecordedLoss = (lostAtEnd, reason, Date())
            }
        }
        do {
            try writeClosing()
        } catch {
            if lock.releaseReserve() {
                faults?.reserveReleased()
                if (try? writeClosing()) != nil { return }
            }
            let lossNote = unrecordedLoss.map { ", without the gap of its last \($0.count) lost actions" } ?? ""
            report(.writeFailed, entry: nil, "the session could not be marked closed (\(error)); it will read as interrupted\(lossNote)")
        }
    }

    /// One transaction: the gap of a loss not yet written, and the session marked `closed`.
    private func writeClosing() throws {
        try faults?.check()
        try connection.transaction {
            if let loss = unrecordedLoss {
                let note = "\(loss.count) actions lost: \(loss.reason)"
                try inserter.insert([Row(entry: .gap(loss.count, note: note, time: loss.time))], firstSeq: nextSeq)
                try connection.cachedStatement("UPDATE sessions SET dropped = dropped + ?2 WHERE id = ?1")
                    .execute([.integer(sessionID), .integer(Int64(loss.count))])
            }
            try connection.cachedStatement("UPDATE sessions SET status = 'closed', ended_at = ?2 WHERE id = ?1")
                .execute([.integer(sessionID), .real(Date().timeIntervalSince1970)])
        }
        if unrecordedLoss != nil {
            nextSeq += 1
            unrecordedLoss = nil
        }
    }

    private func report(_ code: ActionLogError.Code, entry: Int?, _ reason: String) {
        onError(ActionLogError(code, file: file, session: sessionID, entry: entry, reason: reason))
    }
}
