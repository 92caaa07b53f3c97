/// Runs a feature's effects and answers with feedback, which the ``Store`` sends back as a message.
///
/// The handler is the only part of a feature that talks to the outside world. It does not run during
/// a replay: the feedback it gave is in the journal.
///
/// ```swift
/// struct CounterEffects: EffectHandler {
///     typealias State = Counter
///     func handle(_ effect: Counter.Effect) async -> Counter.Feedback? {
///         switch effect {
///         case .fetchFact(let number): .factLoaded(await api.fact(about: number))
///         }
///     }
/// }
/// ```
public protocol EffectHandler<State>: Sendable {
    /// The feature whose effects this handler runs.
    associatedtype State: StoreState

    /// Runs `effect`; the returned feedback, if any, is sent to the store.
    ///
    /// ```swift
    /// let feedback = await CounterEffects().handle(.fetchFact(2))   // .factLoaded("2 is …")
    /// ```
    ///
    /// - Parameter effect: what the reducer asked for.
    /// - Returns: the feedback to send to the store, or `nil` for none.
    func handle(_ effect: State.Effect) async -> State.Feedback?
}
