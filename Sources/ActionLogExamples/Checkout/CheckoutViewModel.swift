import ActionLog
import Observation

/// The checkout as a state-machine ViewModel: `handle(event:)` runs the pure transition, then starts
/// the side effects the new state needs; their results come back as events.
///
/// Recording wraps the transition function, so the ViewModel records without knowing about the journal:
///
/// ```swift
/// let recorder = try Recorder<Checkout.State, Checkout.Event, Never>(path: path, sessionName: "checkout", initialState: .initial)
/// let viewModel = CheckoutViewModel(reduce: recorder.recording(Checkout.reduce))
/// viewModel.handle(event: .addItem(item))
/// ```
@MainActor
@Observable
public final class CheckoutViewModel {
    public private(set) var state: Checkout.State
    @ObservationIgnored private let reduce: (inout Checkout.State, Checkout.Event) -> Void
    @ObservationIgnored private let services: CheckoutServices
    @ObservationIgnored private let effects = EffectTasks()

    /// - Parameters:
    ///   - state: the initial state.
    ///   - services: the cart validator and the payment gateway.
    ///   - reduce: the transition; pass a recorder's wrapper to journal it.
    public init(
        state: Checkout.State = .initial,
        services: CheckoutServices = CheckoutServices(),
        reduce: @escaping (inout Checkout.State, Checkout.Event) -> Void = Checkout.reduce
    ) {
        self.state = state
        self.services = services
        self.reduce = reduce
    }

    public func handle(event: Checkout.Event) {
        reduce(&state, event)
        performSideEffects(for: state)
    }

    /// Waits until no side effect is running. For tests, scripts and demos.
    public func settle() async {
        await effects.settle()
    }

    private func performSideEffects(for state: Checkout.State) {
        let services = services
        switch state {
        case .validatingCart(let cart):
            run { await services.validate(cart) }
        case .processingPayment(_, let total):
            run { await services.charge(totalCents: total) }
        default:
            break
        }
    }

    private func run(_ work: @escaping @Sendable () async -> Checkout.Event) {
        effects.run(work) { [weak self] event in self?.handle(event: event) }
    }
}

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
