import Foundation

/// The recorders of this process that are not closed yet, closed at its normal end (`exit(3)`, or
/// the end of `main`): a command-line tool or a script that forgets `close()` loses nothing it
/// handed over, where the writer would otherwise die with the process before its next batch.
///
/// Each recorder is closed as ``Recorder/close()`` closes it (see ``HandOff/closeAtProcessEnd()``):
/// it accepts nothing more, and `exit` returns once its writer has committed everything handed over
/// and closed the session. No clock bounds that wait, so a loaded machine slows the end of the
/// process and loses nothing; the work left bounds it (what was handed over, encoded and committed
/// once), and SQLite's busy timeout bounds a wait for another connection's lock. A disk that stops
/// answering holds the end of the process as it holds the writer, as it would hold `close()`.
///
/// `exit` called on one of the writer's own threads (from ``RecorderConfiguration/onError``) does
/// not wait for that thread: the committing thread goes on committing from there; the encoding
/// thread hands on the rows it has encoded, and the rest of what was handed over is written as a
/// `gap` that counts it (and adds to the session's `dropped`) before the session is marked
/// closed. Either way the handler is not called again. A process that ends otherwise (a signal,
/// `abort`, a crash, an app that the system suspends and kills) runs no handler: what the writer
/// had not committed is lost, and the session reads `interrupted`.
enum OpenRecorders {
    /// How to close each open recorder, by the identity of its hand-off.
    private static let closers = Locked<[ObjectIdentifier: @Sendable () -> Void]>([:])

    /// Installs the handler once, the first time a recorder opens.
    private static let handlerInstalled: Bool = {
        atexit { OpenRecorders.closeAll() } == 0
    }()

    /// Notes an open recorder; `close` closes it as the process ends.
    static func add(_ id: ObjectIdentifier, close: @escaping @Sendable () -> Void) {
        _ = handlerInstalled
        closers.withLock { $0[id] = close }
    }

    /// Forgets a recorder that was closed or went away.
    static func remove(_ id: ObjectIdentifier) {
        _ = closers.withLock { $0.removeValue(forKey: id) }
    }

    /// Closes every recorder still open, one after the other.
    static func closeAll() {
        let open = closers.withLock { closers in
            defer { closers.removeAll() }
            return Array(closers.values)
        }
        for close in open { close() }
    }
}
