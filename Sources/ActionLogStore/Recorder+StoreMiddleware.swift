import ActionLog

/// The recorder of a ``Store`` of `State`: its actions are the store's messages (inputs and
/// feedbacks), its effects the reducer's effects.
///
/// ```swift
/// let recorder = try StoreRecorder<CitySearch>(path: "app.actionlog", sessionName: "city search", initialState: CitySearch())
/// let store = Store(initialState: CitySearch(), effectHandler: CitySearchEffects(), middleware: [recorder])
/// ```
public typealias StoreRecorder<State: StoreState & Encodable> = Recorder<State, Message<State.Input, State.Feedback>, State.Effect>
    where State.Input: Encodable, State.Feedback: Encodable, State.Effect: Encodable

/// A recorder is store middleware: every message (input or feedback) becomes an entry, with the
/// state the reducer produced, the effect it returned and the time it took.
///
/// ```swift
/// let recorder = try StoreRecorder<CitySearch>(path: "app.actionlog", sessionName: "city search", initialState: CitySearch())
/// let store = Store(initialState: CitySearch(), effectHandler: CitySearchEffects(), middleware: [recorder])
/// ```
extension Recorder: StoreMiddleware where State: StoreState, Action == Message<State.Input, State.Feedback>, Effect == State.Effect {
    /// Hands the reduce to the writer, as ``Recorder/record(action:state:effect:reducerDuration:)`` does: O(1), no encoding.
    ///
    /// ```swift
    /// recorder.didReduce(.input(.onAppear), state: state, effect: effect, duration: .microseconds(20))
    /// ```
    ///
    /// - Parameters:
    ///   - message: the message that was reduced; journaled as the entry's action.
    ///   - state: the state the reducer produced.
    ///   - effect: the effect the reducer returned, if any; journaled as the entry's effect.
    ///   - duration: how long the reducer took.
    public func didReduce(_ message: Action, state: State, effect: Effect?, duration: Duration) {
        record(action: message, state: state, effect: effect, reducerDuration: duration)
    }
}
