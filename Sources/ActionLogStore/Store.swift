import Observation

/// A small unidirectional store: a pure reducer, an asynchronous effect handler, and middleware.
///
/// `send(_:)` reduces the input on the main actor, tells each middleware, then runs the effect the
/// reducer returned, if any, with the effect handler; the handler's feedback comes back as a message
/// and goes through the same path. Record a store with one line:
///
/// ```swift
/// import ActionLogStore
///
/// let store = Store(initialState: CitySearch(), effectHandler: CitySearchEffects())
/// let recorder = try store.startRecording(path: "app.actionlog", sessionName: "city search")
/// store.send(.queryChanged("par"))   // the input and the effect's feedback are both journaled
/// await store.settle()
/// print(store.state.results)
/// recorder.close()
/// ```
///
/// The store is `Observable` where Observation is (macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS,
/// Linux): SwiftUI sees ``state`` change. Earlier systems run it the same way, unobserved.
@MainActor
public final class Store<State: StoreState, Handler: EffectHandler> where Handler.State == State {
    /// The current state; observed by SwiftUI through Observation where the system has it.
    public private(set) var state: State {
        get { observed.read(self, \.state) }
        _modify {
            observed.willSet(self, \.state)
            defer { observed.didSet(self, \.state) }
            yield &observed.value
        }
    }
    private var observed: ObservedValue<State>
    private let effectHandler: Handler
    /// Told about every reduce, in order; ``startRecording(path:sessionName:configuration:)`` appends to it.
    var middleware: [any StoreMiddleware<State>]
    private let effects = EffectTasks()

    /// Makes a store.
    ///
    /// ```swift
    /// let store = Store(initialState: CitySearch(), effectHandler: CitySearchEffects())
    /// ```
    ///
    /// - Parameters:
    ///   - initialState: the state before the first message.
    ///   - effectHandler: runs the effects the reducer returns.
    ///   - middleware: told about every reduce, in order (a `Recorder` is one).
    public init(initialState: State, effectHandler: Handler, middleware: [any StoreMiddleware<State>] = []) {
        self.observed = ObservedValue(initialState)
        self.effectHandler = effectHandler
        self.middleware = middleware
    }

    /// Sends an input from the view: reduces it, tells the middleware, and starts the effect, if any.
    ///
    /// ```swift
    /// store.send(.queryChanged("par"))
    /// ```
    ///
    /// - Parameter input: what the view sends.
    public func send(_ input: State.Input) {
        dispatch(.input(input))
    }

    /// Waits until no effect is running, the feedback of each one reduced (and the effects that
    /// feedback started, too). For tests, scripts and demos.
    ///
    /// ```swift
    /// store.send(.onAppear)
    /// await store.settle()   // the fetch answered, its feedback is in the state
    /// ```
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

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension Store: Observable {}
