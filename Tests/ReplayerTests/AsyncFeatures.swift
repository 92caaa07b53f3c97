import ActionLog
import Foundation
import Replayer

// Two small features in the styles of the asynchronous architectures, with deterministic services.

// MARK: - An actor ViewModel behind a Reducer front, with a @MainActor state class

struct Product: Codable, Equatable, Sendable {
    var id: String
    var name: String
    var priceCents: Int
}

enum ProductError: Error, Codable, Equatable {
    case notFound(id: String)
}

protocol ProductService: Sendable {
    func fetchProduct(id: String) async throws -> Product
    func addToBasket(id: String, quantity: Int) async throws -> Int
}

/// Answers at once, the same every time.
struct FakeProductService: ProductService {
    func fetchProduct(id: String) async throws -> Product {
        guard id != "missing" else { throw ProductError.notFound(id: id) }
        return Product(id: id, name: "Lamp \(id)", priceCents: 1999)
    }

    func addToBasket(id: String, quantity: Int) async throws -> Int { quantity }
}

/// What replay gives the ViewModel: reaching it is a bug of the replay.
struct OfflineProductService: ProductService {
    struct Offline: Error {}
    func fetchProduct(id: String) async throws -> Product { throw Offline() }
    func addToBasket(id: String, quantity: Int) async throws -> Int { throw Offline() }
}

/// The wrapper a user writes: one line per method.
struct RecordedProductService: ProductService {
    let live: any ProductService
    let recorded = RecordedService("ProductService", errors: [ProductError.self])

    func fetchProduct(id: String) async throws -> Product {
        try await recorded.call("fetchProduct", id) { try await live.fetchProduct(id: id) }
    }

    func addToBasket(id: String, quantity: Int) async throws -> Int {
        try await recorded.call("addToBasket", id, quantity) { try await live.addToBasket(id: id, quantity: quantity) }
    }
}

struct ProductSnapshot: Codable, Equatable, Sendable {
    var loading = "idle"
    var product: Product?
    var sliderPosition = 0
    var basketCount = 0
    var error: String?
}

@MainActor final class ProductState {
    private(set) var snapshot: ProductSnapshot

    init(_ snapshot: ProductSnapshot = ProductSnapshot()) {
        self.snapshot = snapshot
    }

    func update(_ body: (inout ProductSnapshot) -> Void) {
        body(&snapshot)
    }
}

enum ProductAction: Codable, Equatable, Sendable {
    enum SliderAction: Codable, Equatable, Sendable {
        case onTapSlider(Int)
    }

    case viewDidLoad(id: String)
    case onImageSliderAction(SliderAction)
    case addToBasket
}

/// Changes that a test makes to one branch of the ViewModel.
enum ProductChange: Sendable {
    case none
    case fetchesAnotherID
    case skipsTheFetch
    case addsAnExtraCall
    case sliderOffByOne
    case addsTwoToBasket
}

actor ProductViewModel {
    let state: ProductState
    let service: any ProductService
    let change: ProductChange

    init(state: ProductState, service: any ProductService, change: ProductChange = .none) {
        self.state = state
        self.service = service
        self.change = change
    }

    func handle(_ action: ProductAction) async {
        switch action {
        case .viewDidLoad(let id):
            await state.update { $0.loading = "loading" }
            if change == .skipsTheFetch {
                await state.update { $0.loading = "loaded" }
                return
            }
            do {
                let product = try await service.fetchProduct(id: change == .fetchesAnotherID ? "p-8" : id)
                if change == .addsAnExtraCall { _ = try await service.fetchProduct(id: id) }
                await state.update {
                    $0.product = product
                    $0.loading = "loaded"
                }
            } catch ProductError.notFound(let id) {
                await state.update {
                    $0.loading = "failed"
                    $0.error = "not found: \(id)"
                }
            } catch {
                await state.update {
                    $0.loading = "failed"
                    $0.error = "\(error)"
                }
            }
        case .onImageSliderAction(.onTapSlider(let position)):
            let shown = change == .sliderOffByOne ? position + 1 : position
            await state.update { $0.sliderPosition = shown }
        case .addToBasket:
            guard let product = await state.snapshot.product else { return }
            if let count = try? await service.addToBasket(id: product.id, quantity: change == .addsTwoToBasket ? 2 : 1) {
                await state.update { $0.basketCount += count }
            }
        }
    }
}

/// Records `script` into a new session of `path`: the actions of each batch are sent at once (so
/// they overlap), and each batch waits until the one before has settled.
func recordProductSession(
    path: String, script: [[ProductAction]], sessionName: String = "product card", change: ProductChange = .none
) async throws -> JournalSession.ID {
    let state = await ProductState()
    let viewModel = ProductViewModel(state: state, service: RecordedProductService(live: FakeProductService()), change: change)
    let reducer = try await ViewModelRecorder<ProductSnapshot, ProductAction>(
        path: path, sessionName: sessionName, services: ["ProductService"],
        handle: { await viewModel.handle($0) },
        snapshot: { state.snapshot })
    for batch in script {
        // Sent from the main actor, as a UI sends them: a handler's first step (its state update on
        // the main actor) cannot run between two sends of a batch, so the batch overlaps however
        // the host schedules the handlers' tasks.
        await MainActor.run { for action in batch { reducer(action) } }
        await reducer.settle()
    }
    reducer.close()
    return reducer.recorder.sessionID
}

/// A replay of a product session into a fresh ViewModel with `change` made.
func productReplay(_ recording: RecordedSession, change: ProductChange = .none, services: [String] = ["ProductService"]) -> ViewModelReplay<ProductSnapshot, ProductAction> {
    ViewModelReplay(recording: recording, services: services) { initial in
        let state = ProductState(initial)
        let viewModel = ProductViewModel(state: state, service: RecordedProductService(live: OfflineProductService()), change: change)
        return ReplayedViewModel(handle: { await viewModel.handle($0) }, snapshot: { state.snapshot })
    }
}

/// The script with an overlapping pair: the slider is tapped while the product loads.
let overlappingScript: [[ProductAction]] = [[.viewDidLoad(id: "p-7"), .onImageSliderAction(.onTapSlider(3))], [.addToBasket]]

// MARK: - Event MVVM: ViewEvents in, ViewModelEvents out through an Output

protocol AuthService: Sendable {
    func signIn(email: String) async throws -> String
}

struct FakeAuthService: AuthService {
    struct Refused: Error, CustomStringConvertible {
        var description: String { "refused" }
    }

    func signIn(email: String) async throws -> String {
        guard email.contains("@") else { throw Refused() }
        return String(email.prefix { $0 != "@" }).capitalized
    }
}

struct OfflineAuthService: AuthService {
    struct Offline: Error {}
    func signIn(email: String) async throws -> String { throw Offline() }
}

struct RecordedAuthService: AuthService {
    let live: any AuthService
    let recorded = RecordedService("AuthService")

    func signIn(email: String) async throws -> String {
        try await recorded.call("signIn", email) { try await live.signIn(email: email) }
    }
}

enum SignInViewEvent: Codable, Equatable, Sendable {
    case viewDidLoad
    case signInTapped(email: String)
}

enum SignInViewModelEvent: Codable, Equatable, Sendable {
    case showForm(title: String)
    case showSpinner
    case signedIn(name: String, greeting: String)
    case failed(message: String)
}

/// A class holding handlers; `send(_:)` calls each.
final class Output<Event: Sendable>: @unchecked Sendable {
    // @unchecked: handlers are added before events are sent, as a view binds before it appears.
    private var handlers: [@Sendable (Event) -> Void] = []
    func addHandler(_ handler: @escaping @Sendable (Event) -> Void) { handlers.append(handler) }
    func send(_ event: Event) { for handler in handlers { handler(event) } }
}

actor SignInViewModel {
    nonisolated let output = Output<SignInViewModelEvent>()
    let service: any AuthService
    let greetsInLowercase: Bool
    /// A change: the form is shown twice, or not at all.
    let formsShown: Int

    init(service: any AuthService, greetsInLowercase: Bool = false, formsShown: Int = 1) {
        self.service = service
        self.greetsInLowercase = greetsInLowercase
        self.formsShown = formsShown
    }

    func handle(event: SignInViewEvent) async {
        switch event {
        case .viewDidLoad:
            for _ in 0..<formsShown { output.send(.showForm(title: "Sign in")) }
        case .signInTapped(let email):
            output.send(.showSpinner)
            do {
                let name = try await service.signIn(email: email)
                let greeting = greetsInLowercase ? "hello, \(name)" : "Hello, \(name)"
                output.send(.signedIn(name: name, greeting: greeting))
            } catch {
                output.send(.failed(message: "\(error)"))
            }
        }
    }
}

func recordSignInSession(path: String, script: [SignInViewEvent]) async throws -> JournalSession.ID {
    let viewModel = SignInViewModel(service: RecordedAuthService(live: FakeAuthService()))
    let events = try await EventViewModelRecorder<SignInViewEvent, SignInViewModelEvent>(
        path: path, sessionName: "sign in", services: ["AuthService"],
        handle: { await viewModel.handle(event: $0) })
    viewModel.output.addHandler { events.emitted($0) }
    for event in script { events.send(event) }
    await events.settle()
    events.close()
    return events.recorder.sessionID
}

func signInReplay(_ recording: RecordedSession, lowercase: Bool = false, formsShown: Int = 1) -> EventViewModelReplay<SignInViewEvent, SignInViewModelEvent> {
    EventViewModelReplay(recording: recording, services: ["AuthService"]) { emit in
        let viewModel = SignInViewModel(service: RecordedAuthService(live: OfflineAuthService()), greetsInLowercase: lowercase, formsShown: formsShown)
        viewModel.output.addHandler(emit)
        return { await viewModel.handle(event: $0) }
    }
}

/// The same screen with a handler that returns at once and answers from a task it starts.
final class TaskSignInViewModel: Sendable {
    let output = Output<SignInViewModelEvent>()
    let service: any AuthService

    init(service: any AuthService) {
        self.service = service
    }

    func handle(event: SignInViewEvent) {
        switch event {
        case .viewDidLoad:
            output.send(.showForm(title: "Sign in"))
        case .signInTapped(let email):
            output.send(.showSpinner)
            HandlerTask.start { [output, service] in
                do {
                    let name = try await service.signIn(email: email)
                    output.send(.signedIn(name: name, greeting: "Hello, \(name)"))
                } catch {
                    output.send(.failed(message: "\(error)"))
                }
            }
        }
    }
}
