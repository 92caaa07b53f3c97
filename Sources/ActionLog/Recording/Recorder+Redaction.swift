extension Recorder {
    /// The redactor for the configured paths, and the session metadata that lists them (with the
    /// state version, see ``VersionedState``).
    ///
    /// - Throws: ``ActionLogError`` with code ``ActionLogError/Code/invalidArgument`` when a path is not a
    ///   JSON Pointer, or the metadata is not an object while there are paths to list.
    static func redaction(_ configuration: RecorderConfiguration, file: String) throws(ActionLogError) -> (Redactor, JSONValue) {
        let redactor = try Redactor(paths: configuration.redactedPaths, file: file)
        let metadata = StateVersion.adding(State.self, to: configuration.metadata)
        guard let listed = redactor.listing(in: metadata) else {
            throw ActionLogError(.invalidArgument, file: file, reason: """
                the metadata is \(JSONPatch.describeType(metadata)), not an object, so it cannot list the redacted paths
                """)
        }
        return (redactor, listed)
    }
}
