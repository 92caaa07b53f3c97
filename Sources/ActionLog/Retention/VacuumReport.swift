/// The sizes of a journal before and after ``Journal/vacuum()``: the file and its `-wal`, in bytes.
///
/// ```swift
/// let sizes = try Journal(path: "app.actionlog", mode: .readWrite).vacuum()
/// print("gave back \(sizes.bytesBefore - sizes.bytesAfter) bytes")
/// ```
public struct VacuumReport: Sendable, Equatable {
    /// The file and its `-wal` before the vacuum.
    public let bytesBefore: Int
    /// The file and its `-wal` after the vacuum and its checkpoint.
    public let bytesAfter: Int
}
