import ActionLog
import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One line on standard error that tells how far a long command has got, redrawn in place:
/// `verify: 412,000 / 1,000,000 entries`.
///
/// It shows only when standard error is a terminal, and only once the command has run for
/// ``delay`` (a command that ends sooner prints nothing); it is redrawn at most every
/// ``interval``, and cleared by ``finish()`` (and before an error message, by
/// ``Terminal/printError(_:)``), so what the command prints afterwards starts on a clean line.
/// Piped or redirected, standard error never sees it.
///
/// ```swift
/// let progress = ProgressLine("verify", total: 1_000_000, unit: "entries")
/// for done in 1...1_000_000 { progress.update(done) }
/// progress.finish()
/// ```
///
/// `update` costs a lock and a clock read, so it can be called once per entry.
package final class ProgressLine: Sendable {
    /// How long a command runs before the line first shows: one second. `REPLAY_CLI_PROGRESS_DELAY`
    /// (seconds, `0` or more) sets another, for the tests that check the line on a pseudo-terminal.
    package static let delay: Duration = {
        guard let text = ProcessInfo.processInfo.environment["REPLAY_CLI_PROGRESS_DELAY"], let seconds = Double(text),
            seconds.isFinite, seconds >= 0, seconds < 86_400
        else { return .seconds(1) }
        return .seconds(seconds)
    }()
    /// The least time between two redraws.
    package static let interval: Duration = .milliseconds(100)

    private struct State {
        /// Characters drawn last time, to blank them when the line is cleared.
        var drawn = 0
        var lastDraw: ContinuousClock.Instant?
        var finished = false
    }

    private let command: String
    private let total: Int?
    private let unit: String
    /// When the command began: the line shows ``delay`` after it.
    package let start: ContinuousClock.Instant
    private let isEnabled: Bool
    private let state = Locked(State())

    /// The line being drawn, for ``clearActive()``.
    private static let active = Locked<ProgressLine?>(nil)

    /// - Parameters:
    ///   - command: the command's name, first on the line.
    ///   - total: how many units the command will go through, when known.
    ///   - unit: what is counted, plural: `entries`.
    ///   - isEnabled: whether to draw at all; by default, when standard error is a terminal.
    ///   - start: when the command began; a line that follows another passes the first one's.
    package init(
        _ command: String, total: Int?, unit: String, isEnabled: Bool = Terminal.isErrorInteractive,
        since start: ContinuousClock.Instant = .now
    ) {
        self.start = start
        self.command = command
        self.total = total
        self.unit = unit
        self.isEnabled = isEnabled
        if isEnabled { Self.active.withLock { $0 = self } }
    }

    /// Tells that `done` units are done; redraws the line when it is time.
    package func update(_ done: Int) {
        guard isEnabled else { return }
        let now = ContinuousClock.now
        guard now - start >= Self.delay else { return }
        let text = line(done)
        state.withLock { state in
            guard !state.finished else { return }
            if let last = state.lastDraw, now - last < Self.interval { return }
            state.lastDraw = now
            let padding = String(repeating: " ", count: max(0, state.drawn - text.count))
            _ = OutputTarget.writeAll(Array("\r\(text)\(padding)\r".utf8), to: STDERR_FILENO)
            state.drawn = text.count
        }
    }

    /// Clears the line, if it was drawn; later updates draw nothing.
    package func finish() {
        state.withLock { state in
            state.finished = true
            guard state.drawn > 0 else { return }
            _ = OutputTarget.writeAll(Array("\r\(String(repeating: " ", count: state.drawn))\r".utf8), to: STDERR_FILENO)
            state.drawn = 0
        }
        Self.active.withLock { if $0 === self { $0 = nil } }
    }

    /// Clears the line being drawn, if any: called before a message is printed on standard error.
    package static func clearActive() {
        active.withLock { $0 }?.finish()
    }

    /// `verify: 412,000 / 1,000,000 entries`, or `import: 412,000 entries` without a total.
    package func line(_ done: Int) -> String {
        let count = Self.grouped(done)
        guard let total else { return "\(command): \(count) \(unit)" }
        return "\(command): \(count) / \(Self.grouped(total)) \(unit)"
    }

    /// `1,000,000`: digits in groups of three, whatever the locale (the line is for a terminal, and
    /// tests pin it).
    package static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return value < 0 ? "-" + result : result
    }
}
