extension Entry {
    /// Moves a reconstructed state across this entry: a keyframe replaces it, a delta patches it,
    /// a gap clears it (nothing is known until the next keyframe). Walking a session's entries in
    /// order with this gives the recorded state after each one:
    ///
    /// ```swift
    /// var state: JSONValue?
    /// for entry in try journal.entries(in: id) {
    ///     try entry.advance(&state, file: journal.fileName)
    ///     print(entry.seq, state?.canonicalText ?? "(unknown: a gap)")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - state: the state after the previous entry, or `nil` when unknown; updated in place.
    ///   - file: the journal's name, for errors.
    /// - Returns: the delta's patch, parsed, for a caller that wants to know where the state changed;
    ///   `nil` for a keyframe or a gap.
    /// - Throws: ``JournalError`` naming the entry when a delta does not apply or has no state to apply
    ///   to; `state` is then `nil`.
    @discardableResult
    public func advance(_ state: inout JSONValue?, file: String) throws(JournalError) -> JSONPatch? {
        switch kind {
        case .gap:
            state = nil
            return nil
        case .keyframe:
            guard let full = self.state else {
                throw JournalError(.corrupt, file: file, session: session, entry: seq, reason: "a keyframe without a state")
            }
            state = full
            return nil
        case .delta:
            guard let patchJSON = self.state else {
                throw JournalError(.corrupt, file: file, session: session, entry: seq, reason: "a delta without a patch")
            }
            guard var current = state else {
                throw JournalError(.corrupt, file: file, session: session, entry: seq, reason: "a delta with no keyframe before it")
            }
            // Patched in place: with `state` cleared, `current` holds the only reference, so a change
            // deep inside a large array copies none of it. On a failure the state is unknown (nil).
            state = nil
            do {
                let patch = try JSONPatch(patchJSON)
                try patch.apply(to: &current)
                state = current
                return patch
            } catch {
                throw JournalError(.corrupt, file: file, session: session, entry: seq, reason: "the delta does not apply: \(error)")
            }
        }
    }
}
