extension Recorder {
    /// The redactor for the configured paths, and the session metadata that lists them (with the
    /// state version, see ``VersionedState``).
    ///
    /// - Throws: ``JournalError`` with code ``JournalError/Code/invalidArgument`` when a path is not a
    ///   JSON Pointer, or the metadata is not an object while there are paths to list.
    static func redaction(_ configuration: RecorderConfiguration, file: String) throws(JournalError) -> (Redactor, JSONValue) {
        let redactor = try Redactor(paths: configuration.redactedPaths, file: file)
        let metadata = StateVersion.adding(State.self, to: configuration.metadata)
        guard let listed = redactor.listing(in: metadata) else {
            throw JournalError(.invalidArgument, file: file, reason: """
                the metadata is \(JSONPatch.describeType(metadata)), not an object, so it cannot list the redacted paths
                """)
        }
        return (redactor, listed)
    }
}
