import ActionLog
import ActionLogStore

/// Scripted sessions of the example features: what `actionlog-demo` records and what the golden
/// fixtures under `fixtures/` were recorded from.
public enum ExampleScripts {
    public typealias CheckoutRecorder = Recorder<Checkout.State, Checkout.Event, Checkout.SideEffect>

    /// The city search inputs of the script, in order.
    public static let citySearchInputs: [CitySearch.Input] = [
        .onAppear, .queryChanged("p"), .queryChanged("pa"), .queryChanged("par"),
        .queryChanged("be"), .queryChanged("ber"), .queryChanged("b3"), .queryChanged("l"),
        .queryChanged("ly"),
    ]

    /// Records the city search script into `path` and closes the session.
    ///
    /// - Returns: the session's id and the final state.
    /// - Throws: ``ActionLogError`` when the journal cannot be opened for writing.
    @MainActor
    public static func recordCitySearch(path: String, configuration: RecorderConfiguration = RecorderConfiguration()) async throws -> (JournalSession.ID, CitySearch) {
        let store = Store(initialState: CitySearch(), effectHandler: CitySearchEffects())
        let recorder = try store.startRecording(path: path, sessionName: "city search", configuration: configuration)
        for input in citySearchInputs {
            store.send(input)
            await store.settle()
        }
        recorder.close()
        return (recorder.sessionID, store.state)
    }

    /// The checkout events a user sends in the script (side-effect events come from the services).
    public static let checkoutUserEvents: [Checkout.Event] = [
        .addItem(Checkout.Item(sku: "tea-01", name: "Green tea", priceCents: 1_250, quantity: 2)),
        .addItem(Checkout.Item(sku: "kettle-9", name: "Copper kettle", priceCents: 64_900, quantity: 1)),
        .checkoutTapped,
        .payTapped,
        .retryTapped,
        .removeItem(sku: "kettle-9"),
        .addItem(Checkout.Item(sku: "cup-02", name: "Tea cup", priceCents: 900, quantity: 4)),
        .checkoutTapped,
        .payTapped,
        .doneTapped,
    ]

    /// Records the checkout script into `path` and closes the session.
    ///
    /// - Returns: the session's id and the final state.
    /// - Throws: ``ActionLogError`` when the journal cannot be opened for writing.
    @MainActor
    public static func recordCheckout(path: String, configuration: RecorderConfiguration = RecorderConfiguration()) async throws -> (JournalSession.ID, Checkout.State) {
        let recorder = try CheckoutRecorder(path: path, sessionName: "checkout", initialState: .initial, configuration: configuration)
        let viewModel = CheckoutViewModel(reduce: recorder.recording(Checkout.reduce))
        for event in checkoutUserEvents {
            viewModel.handle(event: event)
            await viewModel.settle()
        }
        recorder.close()
        return (recorder.sessionID, viewModel.state)
    }

    // MARK: - Actor ViewModel: the product card

    /// The product card's actions, by batch: the actions of a batch are sent at once, so their
    /// handlers overlap (the slider is tapped while the product loads, a tap on the slider while the
    /// basket is updated), and each batch waits until the one before has settled. The third "Add to
    /// basket" finds the lamp out of stock, and the last product does not exist: the error paths.
    public static let productCardScript: [[ProductCardAction]] = [
        [.viewDidLoad(productID: "lamp-7"), .onImageSliderAction(.onTapSlider(2))],
        [.onImageSliderAction(.onSwipe(forward: true))],
        [.addToBasketTapped, .onImageSliderAction(.onTapSlider(0))],
        [.addToBasketTapped],
        [.addToBasketTapped],
        [.viewDidLoad(productID: "chair-1")],
    ]

    /// Records the product card script into `path` through a ``ViewModelRecorder`` (the `Reducer`
    /// front) and closes the session.
    ///
    /// - Returns: the session's id and the last snapshot.
    /// - Throws: ``ActionLogError`` when the journal cannot be opened for writing.
    @MainActor
    public static func recordProductCard(path: String, configuration: RecorderConfiguration = RecorderConfiguration()) async throws -> (JournalSession.ID, ProductCard) {
        let state = ProductCardState()
        let viewModel = ProductCardViewModel(state: state, service: RecordedProductService(live: SimulatedProductService()))
        let reducer = try await ViewModelRecorder<ProductCard, ProductCardAction>(
            path: path, sessionName: "product card", services: ["ProductService"], configuration: configuration,
            handle: { await viewModel.handle($0) },
            snapshot: { state.card })
        for batch in productCardScript {
            for action in batch { reducer(action) }
            await reducer.settle()
        }
        reducer.close()
        return (reducer.recorder.sessionID, state.card)
    }

    /// A fresh product card for a replay, starting from the recorded `initial` snapshot: its service
    /// never reaches the network (the replay answers each call from the journal).
    ///
    /// - Parameters:
    ///   - initial: the recorded initial snapshot.
    ///   - quantityPerTap: see ``ProductCardViewModel/init(state:service:quantityPerTap:)``.
    /// - Returns: the ViewModel's handler and the projection of its state class.
    @MainActor
    public static func replayedProductCard(
        _ initial: ProductCard, quantityPerTap: Int = 1
    ) -> (handle: @Sendable (ProductCardAction) async -> Void, snapshot: @MainActor @Sendable () -> ProductCard) {
        let state = ProductCardState(initial)
        let viewModel = ProductCardViewModel(state: state, service: RecordedProductService(live: UnreachableProductService()), quantityPerTap: quantityPerTap)
        return ({ await viewModel.handle($0) }, { state.card })
    }

    // MARK: - Event MVVM: the sign-in screen

    /// The sign-in screen's view events, by batch (see ``productCardScript``): an unknown account, then
    /// the address changed while signing in (the sign-in goes on with the address it started with),
    /// then a verified account.
    public static let signInScript: [[SignInViewEvent]] = [
        [.viewDidLoad],
        [.emailChanged("ada")],
        [.emailChanged("ada@example.org")],
        [.signInTapped],
        [.emailChanged("grace@example.com")],
        [.signInTapped, .emailChanged("ada@example.com")],
        [.signInTapped],
    ]

    /// Records the sign-in script into `path` through an ``EventViewModelRecorder`` and closes the session.
    ///
    /// - Returns: the session's id and every event the ViewModel emitted, in order.
    /// - Throws: ``ActionLogError`` when the journal cannot be opened for writing.
    @MainActor
    public static func recordSignIn(path: String, configuration: RecorderConfiguration = RecorderConfiguration()) async throws -> (JournalSession.ID, [SignInViewModelEvent]) {
        let viewModel = SignInViewModel(service: RecordedAuthService(live: SimulatedAuthService()))
        let events = try await EventViewModelRecorder<SignInViewEvent, SignInViewModelEvent>(
            path: path, sessionName: "sign in", services: ["AuthService"], configuration: configuration,
            handle: { await viewModel.handle(event: $0) })
        let shown = Locked<[SignInViewModelEvent]>([])
        viewModel.output.addHandler { event in
            events.emitted(event)
            shown.withLock { $0.append(event) }
        }
        for batch in signInScript {
            for event in batch { events.send(event) }
            await events.settle()
        }
        events.close()
        return (events.recorder.sessionID, shown.withLock { $0 })
    }

    /// A fresh sign-in ViewModel for a replay: its output goes to `emit`, and its service never
    /// reaches the network.
    ///
    /// - Parameters:
    ///   - emit: where the replayed ViewModel's events go (the replay compares them with the recording).
    ///   - welcome: see ``SignInViewModel/init(service:welcome:)``.
    /// - Returns: the ViewModel's handler.
    @MainActor
    public static func replayedSignIn(
        emit: @escaping @Sendable (SignInViewModelEvent) -> Void, welcome: @escaping @Sendable (Account) -> String = SignInViewModel.welcome
    ) -> @Sendable (SignInViewEvent) async -> Void {
        let viewModel = SignInViewModel(service: RecordedAuthService(live: UnreachableAuthService()), welcome: welcome)
        viewModel.output.addHandler(emit)
        return { await viewModel.handle(event: $0) }
    }
}
