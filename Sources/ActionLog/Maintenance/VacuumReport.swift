/// The sizes of a journal before and after ``Journal/vacuum()``: the file and its `-wal`, in bytes.
///
/// ```swift
/// let sizes = try Journal(path: "app.actionlog", mode: .readWrite).vacuum()
/// print("gave back \(sizes.bytesBefore - sizes.bytesAfter) bytes")
/// ```
package struct VacuumReport: Sendable, Equatable {
    /// The file and its `-wal` before the vacuum.
    package let bytesBefore: Int
    /// The file and its `-wal` after the vacuum and its checkpoint.
    package let bytesAfter: Int
}
