/// The times a journal holds: seconds since 1970, as a finite number, as the text form has them
/// (any finite `Date` round-trips). A file is untrusted: text or a blob in a time column, which
/// SQLite would read as 0 (1970), or an infinite or NaN number, is damage, named as such, not a
/// date to print.
package enum StoredTime {
    /// Why a stored time cannot be read, as a phrase of a message.
    package struct Problem: Error, Sendable {
        package let reason: String
    }

    /// Why `seconds` is not a time a journal holds; `nil` when it is. `what` names it: `the
    /// session's start time`.
    package static func problem(_ seconds: Double, _ what: String) -> Problem? {
        seconds.isFinite ? nil : Problem(reason: "\(what) is \(seconds), not a number of seconds since 1970")
    }
}
