import ActionLog

/// A recorder is store middleware: every message (input or feedback) becomes an entry.
///
/// ```swift
/// let recorder = try Recorder<CitySearch, Message<CitySearch.Input, CitySearch.Feedback>, CitySearch.Effect>(
///     path: "app.actionlog", sessionName: "city search", initialState: CitySearch()
/// )
/// let store = Store(initialState: CitySearch(), effectHandler: CitySearchEffects(), middleware: [recorder])
/// ```
extension Recorder: StoreMiddleware where State: StoreState, Action == Message<State.Input, State.Feedback>, Effect == State.Effect {
    public func didReduce(_ message: Action, state: State, effect: Effect?, duration: Duration) {
        record(action: message, state: state, effect: effect, reducerDuration: duration)
    }
}
