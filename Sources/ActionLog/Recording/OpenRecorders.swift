import Foundation
import Synchronization

/// The recorders of this process that are not closed yet, closed at its normal end (`exit(3)`, or
/// the end of `main`): a command-line tool or a script that forgets `close()` loses nothing it
/// handed over, where the writer would otherwise die with the process before its next batch.
///
/// Each recorder is closed as ``Recorder/close()`` closes it, waiting at most ``exitWait`` for its
/// writer, so that a writer that cannot finish (a journal on a disk that stopped answering, or
/// `exit` called from the writer's own thread through an error handler) delays the end of the
/// process by that much, and no more. A process that ends otherwise (a signal, `abort`, a crash, an
/// app that the system suspends and kills) runs no handler: what the writer had not committed is
/// lost, and the session reads `interrupted`.
enum OpenRecorders {
    /// How long the end of the process waits for each recorder's writer.
    static let exitWait = Duration.seconds(2)

    /// How to close each open recorder, by the identity of its hand-off.
    private static let closers = Mutex<[ObjectIdentifier: @Sendable () -> Void]>([:])

    /// Installs the handler once, the first time a recorder opens.
    private static let handlerInstalled: Bool = {
        atexit { OpenRecorders.closeAll() } == 0
    }()

    /// Notes an open recorder; `close` closes it, waiting at most ``exitWait``.
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
