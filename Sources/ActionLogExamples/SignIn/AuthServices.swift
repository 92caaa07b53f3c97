import ActionLog

/// A sign-in service with two accounts, answering after a fixed delay: the same answers every time.
public struct SimulatedAuthService: AuthService {
    private let delay: Duration

    public init(delay: Duration = .milliseconds(20)) {
        self.delay = delay
    }

    public func signIn(email: String) async throws -> Account {
        try? await Task.sleep(for: delay)
        switch email {
        case "ada@example.com": return Account(name: "Ada", isVerified: true)
        case "grace@example.com": return Account(name: "Grace", isVerified: false)
        case "locked@example.com": throw AuthError.locked
        default: throw AuthError.unknownAccount(email: email)
        }
    }
}

/// The sign-in service as recorded: one line per method (see ``RecordedProductService``).
public struct RecordedAuthService: AuthService {
    let live: any AuthService
    let recorded = RecordedService("AuthService", errors: [AuthError.self])

    /// - Parameter live: the service to call while recording; never called on replay.
    public init(live: any AuthService) {
        self.live = live
    }

    public func signIn(email: String) async throws -> Account {
        try await recorded.call("signIn", email) { try await live.signIn(email: email) }
    }
}

/// What a replayed ViewModel is given as its live service; reaching it is a bug of the replay.
public struct UnreachableAuthService: AuthService {
    public init() {}
    public func signIn(email: String) async throws -> Account { throw UnreachableProductService.Unreachable() }
}
