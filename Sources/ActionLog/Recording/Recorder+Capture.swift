extension Recorder {
    /// In capture mode, writes the window kept in memory as a session of its own, then the stretch
    /// after it (see ``CaptureWindow``); otherwise does nothing.
    ///
    /// The capture holds exactly the entries recorded before this call, on any thread, whatever the
    /// writer has encoded of them: it is ordered with ``record(action:state:effect:reducerDuration:)``
    /// by the hand-off queue, and O(1) on the calling thread. The session's entry 0 is the full state
    /// at the window's start, and its metadata says why and how many actions came before the window:
    /// `"actionlog.capture": {"reason": "...", "actionsBefore": 1204}`. A capture asked for while the
    /// stretch after another is being written is folded into that session: the stretch runs on from
    /// here, and the session keeps the first reason. Call ``flush()`` to wait until it is written.
    ///
    /// ```swift
    /// do {
    ///     try await checkout.submit()
    /// } catch {
    ///     recorder.capture(reason: "checkout failed: \(error)")
    /// }
    /// ```
    ///
    /// - Parameter reason: why, as the app says it: stored in the session's metadata (never
    ///   redacted: put no secret in it).
    public func capture(reason: String) {
        guard capturing else { return }
        handOff.requestCapture(reason: reason)
    }
}
