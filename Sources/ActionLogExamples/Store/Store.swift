import Observation

/// What a ``Store`` sends to its reducer: an input from the view, or the feedback of an effect.
///
/// Both are journaled, so a replay needs no effect handler: the effect's answer is in the journal.
public enum Message<Input, Feedback> {
    case input(Input)
    case feedback(Feedback)
}

extension Message: Sendable where Input: Sendable, Feedback: Sendable {}
extension Message: Equatable where Input: Equatable, Feedback: Equatable {}
extension Message: Encodable where Input: Encodable, Feedback: Encodable {}
extension Message: Decodable where Input: Decodable, Feedback: Decodable {}

/// A feature's state with its pure reducer, in the shape a ``Store`` runs.
///
/// ```swift
/// struct Counter: StoreState {
///     var count = 0
///     enum Input { case increment }
///     enum Feedback {}
///     enum Effect {}
///     static func reduce(state: inout Counter, with message: Message<Input, Feedback>) -> Effect? {
///         if case .input(.increment) = message { state.count += 1 }
///         return nil
///     }
/// }
/// ```
public protocol StoreState: Sendable {
    associatedtype Input: Sendable
    associatedtype Feedback: Sendable
    associatedtype Effect: Sendable

    /// Applies a message to the state and returns the effect to run, if any. Pure: no clock, no I/O.
    static func reduce(state: inout Self, with message: Message<Input, Feedback>) -> Effect?
}

/// Runs a feature's effects and answers with feedback, which the store sends back as a message.
public protocol EffectHandler<State>: Sendable {
    associatedtype State: StoreState
    /// Runs `effect`; the returned feedback, if any, is sent to the store.
    func handle(_ effect: State.Effect) async -> State.Feedback?
}

/// Sees every reduce of a ``Store``: the message, the new state, the effect and how long the reducer took.
///
/// ActionLog's `Recorder` is one (see `Recorder+StoreMiddleware.swift`).
public protocol StoreMiddleware<State>: Sendable {
    associatedtype State: StoreState
    func didReduce(_ message: Message<State.Input, State.Feedback>, state: State, effect: State.Effect?, duration: Duration)
}

/// A small unidirectional store: a pure reducer, an asynchronous effect handler, and middleware.
///
/// ```swift
/// let store = Store(initialState: CitySearch(), effectHandler: CitySearchEffects(), middleware: [recorder])
/// store.send(.queryChanged("par"))
/// await store.settle()
/// print(store.state.results)
/// ```
@MainActor
@Observable
public final class Store<State: StoreState, Handler: EffectHandler> where Handler.State == State {
    public private(set) var state: State
    @ObservationIgnored private let effectHandler: Handler
    @ObservationIgnored private let middleware: [any StoreMiddleware<State>]
    @ObservationIgnored private let effects = EffectTasks()

    /// - Parameters:
    ///   - initialState: the state before the first message.
    ///   - effectHandler: runs the effects the reducer returns.
    ///   - middleware: told about every reduce, in order.
    public init(initialState: State, effectHandler: Handler, middleware: [any StoreMiddleware<State>] = []) {
        self.state = initialState
        self.effectHandler = effectHandler
        self.middleware = middleware
    }

    /// Sends an input from the view.
    public func send(_ input: State.Input) {
        dispatch(.input(input))
    }

    /// Waits until no effect is running (feedback included). For tests, scripts and demos.
    public func settle() async {
        await effects.settle()
    }

    private func dispatch(_ message: Message<State.Input, State.Feedback>) {
        let clock = ContinuousClock()
        let start = clock.now
        let effect = State.reduce(state: &state, with: message)
        let duration = start.duration(to: clock.now)
        for middleware in middleware {
            middleware.didReduce(message, state: state, effect: effect, duration: duration)
        }
        guard let effect else { return }
        let handler = effectHandler
        effects.run({ await handler.handle(effect) }) { [weak self] feedback in
            if let feedback { self?.dispatch(.feedback(feedback)) }
        }
    }
}
