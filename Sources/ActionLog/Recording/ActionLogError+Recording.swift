import Foundation

extension ActionLogError {
    /// The recorder's default error handler: one line on standard error, `ActionLog: ` and the
    /// error's description.
    package static let printToStandardError: @Sendable (ActionLogError) -> Void = { error in
        FileHandle.standardError.write(Data("ActionLog: \(error)\n".utf8))
    }
}
