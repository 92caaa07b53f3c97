import ActionLog

/// Two small features whose secrets travel in every place a journal holds: a reducer whose action,
/// effect and state carry a session token, and an event ViewModel whose `ViewEvent`, service call
/// (arguments and answer) and output event carry a password or a token. Each lists the redacted
/// paths that keep its secrets out of journals; the tests record both with a distinctive secret and
/// look for it in every output.
public enum Secrets {
    // MARK: - A reducer

    /// Who is signed in, and with which token.
    public struct State: Codable, Equatable, Sendable {
        public var user: String?
        public var token: String?
        public var signIns = 0

        public init() {}
    }

    public enum Action: Codable, Equatable, Sendable {
        case signedIn(user: String, token: String)
        case refreshed(token: String)
        case signedOut
    }

    public enum Effect: Codable, Equatable, Sendable {
        case storeToken(String)
        case clearToken
    }

    public static func reduce(_ state: inout State, _ action: Action) -> Effect? {
        switch action {
        case .signedIn(let user, let token):
            state.user = user
            state.token = token
            state.signIns += 1
            return .storeToken(token)
        case .refreshed(let token):
            state.token = token
            return .storeToken(token)
        case .signedOut:
            state = State()
            return .clearToken
        }
    }

    /// The token in the state, in both actions that carry one, and in the effect that stores it.
    public static let reducerPaths: [RedactedPath] = ["/token", "action:/signedIn/token", "action:/refreshed/token", "effect:/storeToken/_0"]

    /// A script that signs in with `token`, refreshes it (with `token` and `-2` after it), and signs out.
    ///
    /// - Parameter token: the secret, as the server gave it.
    public static func reducerScript(token: String) -> [Action] {
        [.signedIn(user: "Ada", token: token), .refreshed(token: token + "-2"), .signedOut]
    }

    // MARK: - An event ViewModel

    public enum ViewEvent: Codable, Equatable, Sendable {
        case emailChanged(String)
        case passwordChanged(String)
        case signInTapped
    }

    public enum OutputEvent: Codable, Equatable, Sendable {
        case signedIn(name: String, token: String)
        case failed(message: String)
    }

    /// What the token service grants: who, for what, and the token.
    public struct Grant: Codable, Equatable, Sendable {
        public enum Scope: String, Codable, Sendable {
            case read, write
        }
        public var name: String
        public var scope: Scope
        public var token: String

        public init(name: String, scope: Scope, token: String) {
            self.name = name
            self.scope = scope
            self.token = token
        }
    }

    public protocol TokenService: Sendable {
        func exchange(email: String, password: String) async throws -> Grant
    }

    /// Grants `token` to any password, at once.
    public struct FixedTokenService: TokenService {
        let token: String

        public init(token: String) {
            self.token = token
        }

        public func exchange(email: String, password: String) async throws -> Grant {
            Grant(name: String(email.prefix { $0 != "@" }), scope: .write, token: token)
        }
    }

    /// The token service as recorded: one line per method.
    public struct RecordedTokenService: TokenService {
        let live: any TokenService
        let recorded = RecordedService("TokenService")

        /// - Parameter live: the service to call while recording; never called on replay.
        public init(live: any TokenService) {
            self.live = live
        }

        public func exchange(email: String, password: String) async throws -> Grant {
            try await recorded.call("exchange", email, password) { try await live.exchange(email: email, password: password) }
        }
    }

    /// The sign-in screen's logic: events out, no state for the view to read.
    public actor SignInViewModel {
        private let service: any TokenService
        private let emit: @Sendable (OutputEvent) -> Void
        private var email = ""
        private var password = ""

        public init(service: any TokenService, emit: @escaping @Sendable (OutputEvent) -> Void) {
            self.service = service
            self.emit = emit
        }

        public func handle(event: ViewEvent) async {
            switch event {
            case .emailChanged(let email): self.email = email
            case .passwordChanged(let password): self.password = password
            case .signInTapped:
                do {
                    let grant = try await service.exchange(email: email, password: password)
                    emit(.signedIn(name: grant.name, token: grant.token))
                } catch {
                    emit(.failed(message: "\(error)"))
                }
            }
        }
    }

    /// The password in its view event and in the call's arguments, the token in the call's answer
    /// and in the output event.
    public static let viewModelPaths: [RedactedPath] = [
        "action:/passwordChanged/_0", "call:/TokenService/exchange/arguments/1", "call:/TokenService/exchange/result/token",
        "output:/signedIn/token",
    ]

    /// A script that types an address and `password`, then signs in.
    ///
    /// - Parameter password: the secret the user types.
    public static func viewModelScript(password: String) -> [ViewEvent] {
        [.emailChanged("ada@example.com"), .passwordChanged(password), .signInTapped]
    }

    /// Records the reducer's script with `token` into `path`, with `paths` redacted.
    ///
    /// - Returns: the session's id.
    /// - Throws: ``ActionLogError`` when the journal cannot be opened for writing.
    public static func recordReducer(path: String, token: String, paths: [RedactedPath] = reducerPaths) throws -> JournalSession.ID {
        var configuration = RecorderConfiguration()
        configuration.redactedPaths = paths
        configuration.backpressure = .block
        let recorder = try Recorder<State, Action, Effect>(path: path, sessionName: "token", initialState: State(), configuration: configuration)
        let recorded = recorder.recording(reduce)
        var state = State()
        for action in reducerScript(token: token) { _ = recorded(&state, action) }
        recorder.close()
        return recorder.sessionID
    }

    /// Records the ViewModel's script with `password` (the service grants `token`) into `path`,
    /// with `paths` redacted.
    ///
    /// - Returns: the session's id.
    /// - Throws: ``ActionLogError`` when the journal cannot be opened for writing.
    public static func recordViewModel(path: String, password: String, token: String, paths: [RedactedPath] = viewModelPaths) async throws -> JournalSession.ID {
        var configuration = RecorderConfiguration()
        configuration.redactedPaths = paths
        configuration.backpressure = .block
        let recorder = Locked<EventViewModelRecorder<ViewEvent, OutputEvent>?>(nil)
        let viewModel = SignInViewModel(service: RecordedTokenService(live: FixedTokenService(token: token))) { event in
            recorder.withLock { $0 }?.emitted(event)
        }
        let events = try await EventViewModelRecorder<ViewEvent, OutputEvent>(
            path: path, sessionName: "sign in", services: ["TokenService"], configuration: configuration,
            handle: { await viewModel.handle(event: $0) })
        recorder.withLock { $0 = events }
        for event in viewModelScript(password: password) {
            events.send(event)
            await events.settle()
        }
        events.close()
        return events.recorder.sessionID
    }
}
