import Foundation

extension RecordedSession {
    /// The session in the deterministic time form of goldens: every time is 0 (1970-01-01 00:00:00
    /// UTC: the session's start, end and last entry, each entry's `time`) and no entry has a reducer
    /// duration; everything else is kept.
    ///
    /// Wall-clock times and durations differ in every recording of the same script, so a golden
    /// that kept them would change on every line each time it is recorded again. Record modes write
    /// goldens in this form, so that recording again after a change of behaviour changes only the
    /// lines of the entries whose content changed. The text form reads it as any other session
    /// (`"startedAt":0.0`, `"time":0.0`); a session still recording keeps its missing end.
    ///
    /// ```swift
    /// let golden = try journal.recordedSession(3).withZeroTimes()
    /// try golden.jsonl().write(toFile: "fixtures/checkout.jsonl", atomically: true, encoding: .utf8)
    /// ```
    ///
    /// - Returns: the session with its times at zero and its durations removed.
    package func withZeroTimes() -> RecordedSession {
        var copy = self
        copy.session = session.withZeroTimes()
        copy.entries = entries.map { $0.withZeroTime() }
        return copy
    }
}

extension SessionHeader {
    /// The session with its start, end (when it has one) and last entry time at 0.
    package func withZeroTimes() -> SessionHeader {
        let epoch = Date(timeIntervalSince1970: 0)
        var copy = self
        copy.startedAt = epoch
        copy.endedAt = endedAt.map { _ in epoch }
        copy.lastEntryAt = lastEntryAt.map { _ in epoch }
        return copy
    }
}

extension Entry {
    /// The entry with its time at 0 and no reducer duration.
    package func withZeroTime() -> Entry {
        Entry(seq: seq, time: Date(timeIntervalSince1970: 0), label: label, action: action, content: content,
            effect: effect, reducerDuration: nil)
    }
}
