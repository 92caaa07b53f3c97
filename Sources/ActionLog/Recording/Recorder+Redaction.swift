extension Recorder {
    /// The redaction of the configured paths, and the session metadata that lists them (with the
    /// state version, see ``VersionedState``, and the ``DateConvention``: ISO 8601 dates, unless the
    /// metadata is not an object and so cannot say so).
    ///
    /// - Throws: ``ActionLogError`` with code ``ActionLogError/Code/invalidArgument`` when a path is not a
    ///   JSON Pointer, or the metadata is not an object while there are paths to list.
    static func redaction(_ configuration: RecorderConfiguration, file: String) throws(ActionLogError) -> (Redaction, JSONValue) {
        let redaction = try Redaction(paths: configuration.redactedPaths, file: file)
        let metadata = DateConvention.iso8601.marking(StateVersion.adding(State.self, to: configuration.metadata))
        guard let listed = redaction.listing(in: metadata) else {
            throw ActionLogError(.invalidArgument, file: file, reason: """
                the metadata is \(JSONPatch.describeType(metadata)), not an object, so it cannot list the redacted paths
                """)
        }
        return (redaction, listed)
    }
}
