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

extension Row {
    /// A time column (seconds since 1970): its value, or why it is not a time a journal holds (text or
    /// a blob, which SQLite would read as 0; an infinite number or NaN). `nil` for NULL.
    func time(_ column: Int32, _ what: String) -> Result<Double, StoredTime.Problem>? {
        if isNull(column) { return nil }
        guard isNumber(column) else {
            return .failure(StoredTime.Problem(reason: "\(what) is stored as \(nonIntegerType(column) ?? "NULL"), not as a number of seconds"))
        }
        let value = double(column)
        if let problem = StoredTime.problem(value, what) { return .failure(problem) }
        return .success(value)
    }
}
