import ActionLog

/// A sign-in screen in the style of event MVVM: the view sends ``SignInViewEvent``s to
/// ``SignInViewModel/handle(event:)``, and the ViewModel answers through its ``Output`` of
/// ``SignInViewModelEvent``s — at once, or after the ``AuthService`` answers. There is no state
/// object: the behaviour is the stream of events answered to each view event.

/// What the view sends.
public enum SignInViewEvent: Codable, Equatable, Sendable {
    case viewDidLoad
    case emailChanged(String)
    case signInTapped
}

/// What the ViewModel answers.
public enum SignInViewModelEvent: Codable, Equatable, Sendable {
    case showForm(title: String)
    case setSignInEnabled(Bool)
    case showSpinner
    case hideSpinner
    case showWelcome(message: String)
    case showError(message: String)
}

/// An account as the service returns it.
public struct Account: Codable, Equatable, Sendable {
    public var name: String
    public var isVerified: Bool

    public init(name: String, isVerified: Bool) {
        self.name = name
        self.isVerified = isVerified
    }
}

/// What the sign-in service throws.
public enum AuthError: Error, Codable, Equatable, Sendable {
    case unknownAccount(email: String)
    case locked
}

/// The service the ViewModel talks to.
public protocol AuthService: Sendable {
    func signIn(email: String) async throws -> Account
}

/// A list of handlers; ``send(_:)`` calls each, in the order they were added.
public final class Output<Event: Sendable>: Sendable {
    private let handlers = Locked<[@Sendable (Event) -> Void]>([])

    public init() {}

    /// Adds a handler, called with each event sent from now on.
    public func addHandler(_ handler: @escaping @Sendable (Event) -> Void) {
        handlers.withLock { $0.append(handler) }
    }

    /// Calls each handler with `event`.
    public func send(_ event: Event) {
        for handler in handlers.withLock({ $0 }) { handler(event) }
    }
}

/// The screen's logic: no state for the view to read, only events out.
public actor SignInViewModel {
    public nonisolated let output = Output<SignInViewModelEvent>()
    private let service: any AuthService
    private let welcome: @Sendable (Account) -> String
    private var email = ""

    /// - Parameters:
    ///   - service: the sign-in service (an ``RecordedAuthService`` to journal its calls).
    ///   - welcome: the message shown once signed in.
    public init(service: any AuthService, welcome: @escaping @Sendable (Account) -> String = SignInViewModel.welcome) {
        self.service = service
        self.welcome = welcome
    }

    /// The default welcome message.
    public static let welcome: @Sendable (Account) -> String = { account in
        account.isVerified ? "Welcome back, \(account.name)" : "Welcome, \(account.name): check your inbox to verify your address"
    }

    public func handle(event: SignInViewEvent) async {
        switch event {
        case .viewDidLoad:
            output.send(.showForm(title: "Sign in"))
            output.send(.setSignInEnabled(false))
        case .emailChanged(let email):
            self.email = email
            output.send(.setSignInEnabled(email.contains("@")))
        case .signInTapped:
            let email = self.email
            output.send(.showSpinner)
            do {
                let account = try await service.signIn(email: email)
                output.send(.hideSpinner)
                output.send(.showWelcome(message: welcome(account)))
            } catch AuthError.unknownAccount(let email) {
                output.send(.hideSpinner)
                output.send(.showError(message: "No account for \(email)"))
            } catch {
                output.send(.hideSpinner)
                output.send(.showError(message: "Could not sign in"))
            }
        }
    }
}

/// A view that shows what the ViewModel sends.
@MainActor
public protocol SignInView: AnyObject, Sendable {
    func show(_ event: SignInViewModelEvent)
}

extension SignInView {
    /// Wires both directions: the ViewModel's output to the view, and returns what the view calls to
    /// send its events (through `send`, so a recorder in between journals them).
    ///
    /// - Parameters:
    ///   - viewModel: the ViewModel.
    ///   - send: where the view's events go: `recorder.send` while recording, or the ViewModel's handler.
    public func bind(with viewModel: SignInViewModel, send: @escaping @Sendable (SignInViewEvent) -> Void) -> @Sendable (SignInViewEvent) -> Void {
        viewModel.output.addHandler { [weak self] event in
            Task { @MainActor in self?.show(event) }
        }
        send(.viewDidLoad)
        return send
    }
}
