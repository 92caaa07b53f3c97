import ActionLog
import ActionLogStore
import Observation

/// The checkout as a state-machine ViewModel: `handle(event:)` runs the pure transition, which also
/// describes the side effect the new state needs (``Checkout/sideEffect(for:)``), then performs that
/// side effect; its result comes back as an event.
///
/// Recording wraps the reducer, so the ViewModel records without knowing about the journal, and
/// each entry holds the event, the new state and the side effect:
///
/// ```swift
/// let recorder = try Recorder<Checkout.State, Checkout.Event, Checkout.SideEffect>(path: path, sessionName: "checkout", initialState: .initial)
/// let viewModel = CheckoutViewModel(reduce: recorder.recording(Checkout.reduce))
/// viewModel.handle(event: .addItem(item))
/// ```
///
/// `Observable` where Observation is (macOS 14, iOS 17 and later), as `Store` is.
@MainActor
public final class CheckoutViewModel {
    /// The current state of the checkout.
    public private(set) var state: Checkout.State {
        get { observed.read(self, \.state) }
        _modify {
            observed.willSet(self, \.state)
            defer { observed.didSet(self, \.state) }
            yield &observed.value
        }
    }
    private var observed: ObservedValue<Checkout.State>
    private let reduce: (inout Checkout.State, Checkout.Event) -> Checkout.SideEffect?
    private let services: CheckoutServices
    private let effects = EffectTasks()

    /// - Parameters:
    ///   - state: the initial state.
    ///   - services: the cart validator and the payment gateway.
    ///   - reduce: the transition with its side effect; pass a recorder's wrapper to journal both.
    public init(
        state: Checkout.State = .initial,
        services: CheckoutServices = CheckoutServices(),
        reduce: @escaping (inout Checkout.State, Checkout.Event) -> Checkout.SideEffect? = Checkout.reduce
    ) {
        self.observed = ObservedValue(state)
        self.services = services
        self.reduce = reduce
    }

    /// Runs the transition and performs the side effect the new state calls for, if any.
    ///
    /// - Parameter event: from the view, or the result of a side effect.
    public func handle(event: Checkout.Event) {
        if let sideEffect = reduce(&state, event) {
            perform(sideEffect)
        }
    }

    /// Waits until no side effect is running. For tests, scripts and demos.
    public func settle() async {
        await effects.settle()
    }

    private func perform(_ sideEffect: Checkout.SideEffect) {
        let services = services
        switch sideEffect {
        case .validateCart(let cart):
            run { await services.validate(cart) }
        case .chargePayment(let total):
            run { await services.charge(totalCents: total) }
        }
    }

    private func run(_ work: @escaping @Sendable () async -> Checkout.Event) {
        effects.run(work) { [weak self] event in self?.handle(event: event) }
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension CheckoutViewModel: Observable {}

/// The checkout's services, simulated and deterministic: no network, the same answers every run.
public struct CheckoutServices: Sendable {
    /// Payments above this many cents are declined.
    public var paymentLimitCents: Int
    /// Carts with more than this many units of one item are rejected.
    public var maximumQuantity: Int

    public init(paymentLimitCents: Int = 50_000, maximumQuantity: Int = 10) {
        self.paymentLimitCents = paymentLimitCents
        self.maximumQuantity = maximumQuantity
    }

    public func validate(_ cart: Checkout.Cart) async -> Checkout.Event {
        await Task.yield()
        if let item = cart.items.first(where: { $0.quantity > maximumQuantity }) {
            return .cartRejected(reason: "At most \(maximumQuantity) of \(item.name) per order")
        }
        return .cartValidated(totalCents: cart.items.reduce(0) { $0 + $1.priceCents * $1.quantity })
    }

    public func charge(totalCents: Int) async -> Checkout.Event {
        await Task.yield()
        guard totalCents <= paymentLimitCents else {
            return .paymentDeclined(reason: "Card declined: \(totalCents) cents is over the \(paymentLimitCents) cent limit")
        }
        // Deterministic id derived from the amount, so recordings are reproducible.
        return .paymentSucceeded(transactionID: "txn-\(String(totalCents, radix: 36))")
    }
}
