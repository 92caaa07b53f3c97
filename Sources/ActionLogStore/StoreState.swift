/// A feature's state with its pure reducer, in the shape a ``Store`` runs.
///
/// The reducer is the whole behaviour of the feature: it reads no clock and does no I/O, and what
/// the outside world answers comes back as a ``Message/feedback(_:)`` message. So a recorded session
/// replays with the reducer alone.
///
/// ```swift
/// struct Counter: StoreState, Codable, Equatable {
///     var count = 0
///     enum Input: Codable, Equatable { case increment }
///     enum Feedback: Codable, Equatable {}
///     enum Effect: Codable, Equatable {}
///     static func reduce(state: inout Counter, with message: Message<Input, Feedback>) -> Effect? {
///         if case .input(.increment) = message { state.count += 1 }
///         return nil
///     }
/// }
/// ```
public protocol StoreState: Sendable {
    /// What the view sends.
    associatedtype Input: Sendable
    /// What effects answer.
    associatedtype Feedback: Sendable
    /// What the reducer asks the ``EffectHandler`` to do, as a value.
    associatedtype Effect: Sendable

    /// Applies a message to the state and returns the effect to run, if any. Pure: no clock, no I/O.
    ///
    /// ```swift
    /// let effect = CitySearch.reduce(state: &state, with: .input(.queryChanged("par")))
    /// ```
    ///
    /// - Parameters:
    ///   - state: the state, changed in place.
    ///   - message: an input from the view or the feedback of an effect.
    /// - Returns: the effect for the ``EffectHandler`` to run, or `nil`.
    static func reduce(state: inout Self, with message: Message<Input, Feedback>) -> Effect?
}
