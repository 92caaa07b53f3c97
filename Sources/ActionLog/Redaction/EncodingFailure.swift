/// Describes why a value did not encode without printing the value: `EncodingError.invalidValue`
/// carries the value that failed, and its default description prints it whole — a state with its
/// secrets — into the gap note the recorder writes to the file and into the error it reports.
enum EncodingFailure {
    /// `error`'s description, with the value of an `EncodingError` left out: its explanation and
    /// where it happened (`a NaN is not JSON, at items[3].price`).
    ///
    /// - Parameter error: what an `encode(to:)` threw.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? EncodingError, case .invalidValue(_, let context) = error else { return "\(error)" }
        let path = FieldPath(codingPath: context.codingPath)
        var text = context.debugDescription
        if !path.isRoot { text += ", at \(path)" }
        if let underlying = context.underlyingError { text += " (\(describe(underlying)))" }
        return text
    }
}
