/// What a ``Store`` sends to its reducer: an input from the view, or the feedback of an effect.
///
/// Both are journaled, so a replay needs no effect handler: the effect's answer is in the journal.
/// A message encodes as `{"input":{"_0":…}}` or `{"feedback":{"_0":…}}`, and its label in the
/// journal is `input.queryChanged` or `feedback.resultsLoaded`.
///
/// ```swift
/// let message: Message<CitySearch.Input, CitySearch.Feedback> = .input(.queryChanged("par"))
/// let effect = CitySearch.reduce(state: &state, with: message)
/// ```
public enum Message<Input, Feedback> {
    /// An input sent by the view with ``Store/send(_:)``.
    case input(Input)
    /// The answer of an effect, sent back to the store by its ``EffectHandler``.
    case feedback(Feedback)
}

extension Message: Sendable where Input: Sendable, Feedback: Sendable {}
extension Message: Equatable where Input: Equatable, Feedback: Equatable {}
extension Message: Encodable where Input: Encodable, Feedback: Encodable {}
extension Message: Decodable where Input: Decodable, Feedback: Decodable {}
