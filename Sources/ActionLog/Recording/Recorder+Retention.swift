extension Recorder {
    /// Applies the configuration's retention policy to the journal a new recorder opened, on the
    /// writer's thread before it takes the first entry: through a connection of its own, so the
    /// writer's is not involved. The new session is live, so it counts and stays. A failure is
    /// reported (``ActionLogError/Code/retentionFailed``) and recording goes on.
    static func applyRetention(
        _ policy: RetentionPolicy, path: String, session: JournalSession.ID, onError: @Sendable (ActionLogError) -> Void
    ) {
        guard !policy.keepsEverything else { return }
        do throws(ActionLogError) {
            _ = try Journal(path: path, mode: .readWrite).prune(policy)
        } catch {
            onError(ActionLogError(.retentionFailed, file: JournalFile.displayName(path), session: session, entry: nil,
                reason: "the retention policy could not be applied (\(error.reason)); the journal keeps its old sessions for now"))
        }
    }
}
