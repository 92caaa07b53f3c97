/// Example feature in the state-machine style: a pure `reduce(currentState:event:)` gives the next
/// state, `sideEffect(for:)` describes the side effect the new state calls for, and
/// ``CheckoutViewModel`` performs it. `reduce(_:_:)` is both in one step: the reducer the ViewModel
/// runs, a recorder wraps, and replay re-drives — so the side effects are journaled as the entries'
/// effects and a change to them is a divergence.
///
/// idle → validatingCart → cartValid → processingPayment → paymentSuccess / paymentFailed → completed
public enum Checkout {
    /// One line of the cart. Prices are in cents.
    public struct Item: Codable, Equatable, Hashable, Sendable {
        public var sku: String
        public var name: String
        public var priceCents: Int
        public var quantity: Int

        public init(sku: String, name: String, priceCents: Int, quantity: Int) {
            self.sku = sku
            self.name = name
            self.priceCents = priceCents
            self.quantity = quantity
        }
    }

    public struct Cart: Codable, Equatable, Sendable {
        public var items: [Item] = []
        public init(items: [Item] = []) { self.items = items }
    }

    public struct Receipt: Codable, Equatable, Sendable {
        public var transactionID: String
        public var totalCents: Int

        public init(transactionID: String, totalCents: Int) {
            self.transactionID = transactionID
            self.totalCents = totalCents
        }
    }

    public enum State: Codable, Equatable, Sendable {
        case idle(cart: Cart, notice: String?)
        case validatingCart(cart: Cart)
        case cartValid(cart: Cart, totalCents: Int)
        case processingPayment(cart: Cart, totalCents: Int)
        case paymentSuccess(receipt: Receipt)
        case paymentFailed(cart: Cart, reason: String)
        case completed(receipt: Receipt)

        public static let initial = State.idle(cart: Cart(), notice: nil)
    }

    public enum Event: Codable, Equatable, Sendable {
        // From the view.
        case addItem(Item)
        case removeItem(sku: String)
        case checkoutTapped
        case payTapped
        case retryTapped
        case doneTapped
        // From side effects.
        case cartValidated(totalCents: Int)
        case cartRejected(reason: String)
        case paymentSucceeded(transactionID: String)
        case paymentDeclined(reason: String)
    }

    /// The transition function. Events that make no sense in the current state leave it unchanged.
    public static func reduce(currentState: State, event: Event) -> State {
        switch (currentState, event) {
        case (.idle(var cart, _), .addItem(let item)):
            if let index = cart.items.firstIndex(where: { $0.sku == item.sku }) {
                cart.items[index].quantity += item.quantity
            } else {
                cart.items.append(item)
            }
            return .idle(cart: cart, notice: nil)
        case (.idle(var cart, _), .removeItem(let sku)):
            cart.items.removeAll { $0.sku == sku }
            return .idle(cart: cart, notice: nil)
        case (.idle(let cart, _), .checkoutTapped):
            guard !cart.items.isEmpty else { return .idle(cart: cart, notice: "Your cart is empty") }
            return .validatingCart(cart: cart)
        case (.validatingCart(let cart), .cartValidated(let total)):
            return .cartValid(cart: cart, totalCents: total)
        case (.validatingCart(let cart), .cartRejected(let reason)):
            return .idle(cart: cart, notice: reason)
        case (.cartValid(let cart, let total), .payTapped):
            return .processingPayment(cart: cart, totalCents: total)
        case (.processingPayment(_, let total), .paymentSucceeded(let transactionID)):
            return .paymentSuccess(receipt: Receipt(transactionID: transactionID, totalCents: total))
        case (.processingPayment(let cart, _), .paymentDeclined(let reason)):
            return .paymentFailed(cart: cart, reason: reason)
        case (.paymentFailed(let cart, _), .retryTapped):
            return .idle(cart: cart, notice: nil)
        case (.paymentSuccess(let receipt), .doneTapped):
            return .completed(receipt: receipt)
        default:
            return currentState
        }
    }

    /// What the ViewModel does for a state, described as a value: journaled as the entry's effect,
    /// compared by replay, performed by ``CheckoutViewModel``.
    public enum SideEffect: Codable, Equatable, Sendable {
        /// Ask the cart validator about the cart; it answers `cartValidated` or `cartRejected`.
        case validateCart(Cart)
        /// Charge the total; the payment gateway answers `paymentSucceeded` or `paymentDeclined`.
        case chargePayment(totalCents: Int)
    }

    /// The side effect a state calls for, if any. Pure: it decides, the ViewModel performs.
    public static func sideEffect(for state: State) -> SideEffect? {
        switch state {
        case .validatingCart(let cart): .validateCart(cart)
        case .processingPayment(_, let total): .chargePayment(totalCents: total)
        default: nil
        }
    }

    /// The transition, then the side effect of the new state: the in-place reducer the ViewModel
    /// runs, the shape a recorder wraps (`recorder.recording(Checkout.reduce)`) and replay re-drives.
    public static func reduce(_ state: inout State, _ event: Event) -> SideEffect? {
        state = reduce(currentState: state, event: event)
        return sideEffect(for: state)
    }

    /// The transition alone, as an in-place reducer without effects: replays sessions recorded
    /// before the side effects were journaled (`fixtures/checkout-v0.jsonl`), comparing states only.
    public static func transition(_ state: inout State, _ event: Event) {
        state = reduce(currentState: state, event: event)
    }
}
