import ActionLog
import ActionLogStore

/// Scripted sessions of the example features: what `replay-cli demo` records and what the golden
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
    /// - Throws: ``JournalError`` when the journal cannot be opened for writing.
    @MainActor
    public static func recordCitySearch(path: String, configuration: RecorderConfiguration = RecorderConfiguration()) async throws -> (Session.ID, CitySearch) {
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
    /// - Throws: ``JournalError`` when the journal cannot be opened for writing.
    @MainActor
    public static func recordCheckout(path: String, configuration: RecorderConfiguration = RecorderConfiguration()) async throws -> (Session.ID, Checkout.State) {
        let recorder = try CheckoutRecorder(path: path, sessionName: "checkout", initialState: .initial, configuration: configuration)
        let viewModel = CheckoutViewModel(reduce: recorder.recording(Checkout.reduce))
        for event in checkoutUserEvents {
            viewModel.handle(event: event)
            await viewModel.settle()
        }
        recorder.close()
        return (recorder.sessionID, viewModel.state)
    }
}
