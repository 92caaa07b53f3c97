import ActionLog

extension Store where State: Encodable, State.Input: Encodable, State.Feedback: Encodable, State.Effect: Encodable {
    /// Starts journaling this store: opens (or creates) the journal at `path`, starts a session
    /// whose entry 0 is the current state, and adds the recorder to the store's middleware, so that
    /// every later message — inputs and the feedback of effects — is an entry.
    ///
    /// Keep the returned recorder to ``Recorder/flush()`` and ``Recorder/close()`` it; after `close()`
    /// the store goes on and records nothing more. Like the recorder's initializer, this waits for
    /// the writer to commit entry 0, so call it at start-up rather than in the middle of a gesture.
    ///
    /// ```swift
    /// let store = Store(initialState: CitySearch(), effectHandler: CitySearchEffects())
    /// let recorder = try store.startRecording(path: "app.actionlog", sessionName: "city search")
    /// store.send(.queryChanged("par"))
    /// // ...
    /// recorder.close()
    /// ```
    ///
    /// - Parameters:
    ///   - path: the journal file; created with its schema when missing.
    ///   - sessionName: a name for the session, shown by `replay-cli sessions`.
    ///   - configuration: queue, batching, back-pressure, redaction, retention and error handling.
    /// - Returns: the recorder, already one of the store's middleware.
    /// - Throws: `ActionLogError`, as `Recorder.init(path:sessionName:initialState:configuration:)`
    ///   does: when the file cannot be opened for writing, is not a journal or is newer than this
    ///   library, when the session cannot be committed, or when the state does not encode. The store
    ///   is then unchanged.
    public func startRecording(
        path: String,
        sessionName: String,
        configuration: RecorderConfiguration = RecorderConfiguration()
    ) throws(ActionLogError) -> StoreRecorder<State> {
        let recorder = try StoreRecorder<State>(path: path, sessionName: sessionName, initialState: state, configuration: configuration)
        middleware.append(recorder)
        return recorder
    }
}
