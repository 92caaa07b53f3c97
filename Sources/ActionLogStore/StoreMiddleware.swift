/// Sees every reduce of a ``Store``: the message, the new state, the effect and how long the reducer took.
///
/// ActionLog's `Recorder` is one: pass it in `middleware:`, or let ``Store/startRecording(path:sessionName:configuration:)``
/// add it. Middleware runs on the main actor, right after the reducer, before the effect starts;
/// keep it cheap (the recorder only hands the values to its writer).
///
/// ```swift
/// struct PrintChanges<State: StoreState>: StoreMiddleware {
///     func didReduce(_ message: Message<State.Input, State.Feedback>, state: State, effect: State.Effect?, duration: Duration) {
///         print(message, "→", state)
///     }
/// }
/// let store = Store(initialState: Counter(), effectHandler: CounterEffects(), middleware: [PrintChanges()])
/// ```
public protocol StoreMiddleware<State>: Sendable {
    /// The feature whose reduces this middleware sees.
    associatedtype State: StoreState

    /// Called after each reduce, on the main actor, before the effect starts.
    ///
    /// ```swift
    /// middleware.didReduce(.input(.increment), state: state, effect: nil, duration: .microseconds(3))
    /// ```
    ///
    /// - Parameters:
    ///   - message: the message that was reduced.
    ///   - state: the state the reducer produced.
    ///   - effect: the effect the reducer returned, if any.
    ///   - duration: how long the reducer took.
    func didReduce(_ message: Message<State.Input, State.Feedback>, state: State, effect: State.Effect?, duration: Duration)
}
