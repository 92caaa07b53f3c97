/// Facts about this build of the ActionLog library.
package enum ActionLogLibrary {
    /// This library's version, stored with every session it records.
    package static let version = "0.1.0"
}
