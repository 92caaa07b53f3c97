import ActionLog
import ActionLogExamples
import Foundation
import Replayer
import Testing

/// The text goldens of the two asynchronous example features, replayed into fresh ViewModels with
/// the recorded service answers: the product card (an actor ViewModel behind a `Reducer` front) and
/// the sign-in screen (event MVVM). Module-qualified names: this test target has small features of
/// its own with the same names.
@Suite("Golden files of the actor ViewModel and event MVVM examples")
@MainActor
struct ArchitectureGoldenTests {
    static func productCard(quantityPerTap: Int = 1) -> @MainActor @Sendable (ActionLogExamples.ProductCard) -> ReplayedViewModel<ActionLogExamples.ProductCard, ActionLogExamples.ProductCardAction> {
        { initial in
            let replayed = ExampleScripts.replayedProductCard(initial, quantityPerTap: quantityPerTap)
            return ReplayedViewModel(handle: replayed.handle, snapshot: replayed.snapshot)
        }
    }

    static func signIn(
        welcome: @escaping @Sendable (ActionLogExamples.Account) -> String = ActionLogExamples.SignInViewModel.welcome
    ) -> @MainActor @Sendable (@escaping @Sendable (ActionLogExamples.SignInViewModelEvent) -> Void) -> @Sendable (ActionLogExamples.SignInViewEvent) async -> Void {
        { emit in ExampleScripts.replayedSignIn(emit: emit, welcome: welcome) }
    }

    /// A new live session of an example's script (with its simulated services): what a record mode
    /// writes as the golden (`ACTIONLOG_RECORD=failed swift test --filter ArchitectureGoldenTests`).
    nonisolated static func liveSession(_ record: @escaping @Sendable @MainActor (String) async throws -> JournalSession.ID) -> @Sendable () async throws -> RecordedSession {
        {
            let directory = TemporaryDirectory()
            let path = directory.path("live.actionlog")
            let id = try await record(path)
            return try Journal(path: path).recordedSession(id)
        }
    }

    @Test("fixtures/product-card.jsonl replays with today's product card ViewModel")
    func productCardGolden() async {
        await assertReplay(
            golden: "fixtures/product-card.jsonl",
            of: .viewModel(services: ["ProductService"], liveSession: Self.liveSession { try await ExampleScripts.recordProductCard(path: $0).0 }, Self.productCard()))
    }

    @Test("fixtures/sign-in.jsonl replays with today's sign-in ViewModel")
    func signInGolden() async {
        await assertReplay(
            golden: "fixtures/sign-in.jsonl",
            of: .eventViewModel(services: ["AuthService"], liveSession: Self.liveSession { try await ExampleScripts.recordSignIn(path: $0).0 }, Self.signIn()))
    }

    @Test("adding two items per tap is a service-call divergence at the first tap, with the whole message")
    func changedProductCardFails() async {
        let result = await verifyReplay(golden: "fixtures/product-card.jsonl", of: .viewModel(services: ["ProductService"], Self.productCard(quantityPerTap: 2)))
        #expect(result.message == Self.productCardRegression)
    }

    @Test("a changed welcome is an output-event divergence naming the event's index and field, with the whole message")
    func changedSignInFails() async {
        let result = await verifyReplay(
            golden: "fixtures/sign-in.jsonl",
            of: .eventViewModel(services: ["AuthService"], Self.signIn(welcome: { "Hi \($0.name)" })))
        #expect(result.message == Self.signInRegression)
    }

    @Test("a replay of either example gives the same report 100 times in a row, overlapping handlers included")
    func deterministic() async throws {
        let productCard = try RecordedSession(contentsOfJSONL: GoldenTests.fixtures.appendingPathComponent("product-card.jsonl"))
        let signIn = try RecordedSession(contentsOfJSONL: GoldenTests.fixtures.appendingPathComponent("sign-in.jsonl"))
        var productReports = Set<String>()
        var signInReports = Set<String>()
        for _ in 0..<100 {
            let product = await ViewModelReplay(recording: productCard, services: ["ProductService"], viewModel: Self.productCard(quantityPerTap: 2)).run()
            productReports.insert(product.description)
            let events = await EventViewModelReplay(recording: signIn, services: ["AuthService"], viewModel: Self.signIn(welcome: { "Hi \($0.name)" })).run()
            signInReports.insert(events.description)
        }
        #expect(productReports.count == 1)
        #expect(signInReports.count == 1)
    }

    @Test("recording either example's script five times gives the same session, but for its times and its uuid")
    func recordingIsDeterministic() async throws {
        let directory = TemporaryDirectory()
        var productCards = Set<String>()
        var signIns = Set<String>()
        for run in 0..<5 {
            let productPath = directory.path("product-\(run).actionlog")
            let (product, _) = try await ExampleScripts.recordProductCard(path: productPath)
            productCards.insert(try Self.timeless(Journal(path: productPath).recordedSession(product)))
            let signInPath = directory.path("sign-in-\(run).actionlog")
            let (signIn, _) = try await ExampleScripts.recordSignIn(path: signInPath)
            signIns.insert(try Self.timeless(Journal(path: signInPath).recordedSession(signIn)))
        }
        #expect(productCards.count == 1)
        #expect(signIns.count == 1)
    }

    /// The text form of a session without the members that hold clock readings.
    static func timeless(_ session: RecordedSession) throws -> String {
        try session.jsonl().split(separator: "\n").map { line in
            guard case .object(var members) = try JSONValue(parsing: String(line)) else { return String(line) }
            for key in ["time", "durationNs", "startedAt", "endedAt", "uuid"] { members[key] = nil }
            return JSONValue.object(members).canonicalText
        }.joined(separator: "\n")
    }

    /// What the golden says when one tap adds two items; the XCTest suite pins the same text.
    static let productCardRegression = """
        Replay diverged at entry 5 of session "product card" of product-card.jsonl (addToBasketTapped).

          Service call 0:
            − ProductService.addToBasket("lamp-7", 1)
            + ProductService.addToBasket("lamp-7", 2)

        (Recorded: −, Replayed: +)

        If the new behaviour is intended, record the session again and replace the golden.
        """

    /// What the golden says when the welcome message changes.
    static let signInRegression = """
        Replay diverged at entry 7 of session "sign in" of sign-in.jsonl (signInTapped).

          Output event 2:
            − SignInViewModelEvent.showWelcome(message: "Welcome, Grace: check your inbox to verify your address")
            + SignInViewModelEvent.showWelcome(message: "Hi Grace")

        (Recorded: −, Replayed: +)

        If the new behaviour is intended, record the session again and replace the golden.
        """
}
