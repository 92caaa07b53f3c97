/// Recording as a wrapper around a reducer function: the same signature in, the same signature out.
extension Recorder {
    /// Wraps a reducer so that every call is recorded, with the time the reducer took.
    ///
    /// ```swift
    /// let reduce = recorder.recording(Checkout.reduce)
    /// let effect = reduce(&state, .checkoutTapped)   // reduced and recorded
    /// ```
    ///
    /// - Parameter reducer: a reducer returning an optional effect.
    /// - Returns: a reducer that reduces, then hands the action, new state and effect to this recorder.
    public func recording(_ reducer: @escaping (inout State, Action) -> Effect?) -> (inout State, Action) -> Effect? {
        { state, action in
            let clock = ContinuousClock()
            let start = clock.now
            let effect = reducer(&state, action)
            self.record(action: action, state: state, effect: effect, reducerDuration: start.duration(to: clock.now))
            return effect
        }
    }
}

extension Recorder where Effect == Never {
    /// Wraps a reducer without effects so that every call is recorded.
    ///
    /// ```swift
    /// let reduce = recorder.recording(Counter.reduce)
    /// reduce(&count, .increment)
    /// ```
    ///
    /// - Parameter reducer: a reducer that returns nothing.
    /// - Returns: a reducer that reduces, then hands the action and new state to this recorder.
    public func recording(_ reducer: @escaping (inout State, Action) -> Void) -> (inout State, Action) -> Void {
        { state, action in
            let clock = ContinuousClock()
            let start = clock.now
            reducer(&state, action)
            self.record(action: action, state: state, effect: nil, reducerDuration: start.duration(to: clock.now))
        }
    }
}
