import CSQLite
import Foundation

/// For tests on machines where no small file system can be mounted: makes the recorder's writer fail
/// its transactions as a full disk or a read-only file would, before SQLite sees them.
///
/// A full disk made this way gives room for one transaction when the writer releases its reserve
/// (see ``SessionLock/reservedBytes``), as a real one does; a read-only file never does.
///
/// ```swift
/// let faults = WriteFaults()
/// configuration.writeFaults = faults
/// faults.set(.diskFull)   // the next transactions fail with SQLITE_FULL
/// faults.set(nil)         // and succeed again
/// ```
package final class WriteFaults: Sendable {
    /// What the writer's transactions run into.
    package enum Fault: Sendable {
        /// `SQLITE_FULL`.
        case diskFull
        /// `SQLITE_READONLY`.
        case readOnly
    }

    private let state = Locked<(fault: Fault?, roomForOne: Bool)>((nil, false))
    /// Whether the next transaction waits for ``release()``, and whether one waits now.
    private let gate = Locked<(closed: Bool, waiting: Bool)>((false, false))

    package init() {}

    /// Makes the next transactions wait, before they start, until ``release()``: a disk that stalls.
    package func hold() {
        gate.withLock { $0.closed = true }
    }

    /// Lets the transactions held by ``hold()`` go on.
    package func release() {
        gate.withLock { $0.closed = false }
    }

    /// Whether a transaction waits at the gate ``hold()`` closed.
    package var isHoldingOne: Bool {
        gate.withLock { $0.waiting }
    }

    /// Sets the fault from now on; `nil` for none.
    ///
    /// - Parameter fault: the fault, or `nil`.
    package func set(_ fault: Fault?) {
        state.withLock { $0 = (fault, false) }
    }

    /// Throws the error SQLite would give a transaction under the fault; the writer calls it first.
    func check() throws(SQLiteError) {
        while gate.withLock({ gate in
            gate.waiting = gate.closed
            return gate.closed
        }) {
            usleep(1_000)
        }
        let fault: Fault? = state.withLock { state in
            if state.roomForOne {
                state.roomForOne = false
                return nil
            }
            return state.fault
        }
        switch fault {
        case .diskFull: throw SQLiteError(code: SQLITE_FULL, sql: "COMMIT")
        case .readOnly: throw SQLiteError(code: SQLITE_READONLY, sql: "COMMIT")
        case nil: return
        }
    }

    /// The writer gave its reserved space back: a full disk lets one more transaction through.
    func reserveReleased() {
        state.withLock { state in
            if case .diskFull = state.fault { state.roomForOne = true }
        }
    }
}
