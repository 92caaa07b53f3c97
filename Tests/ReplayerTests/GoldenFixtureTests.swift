import ActionLog
import ActionLogExamples
import Foundation
import Replayer
import Testing

/// The recorded sessions under `fixtures/` are golden files: today's reducers must reproduce every
/// recorded state and effect. To re-record them after an intended change of behaviour, run
/// `ACTIONLOG_RECORD_FIXTURES=1 swift test --filter GoldenFixtureTests`, then review and commit.
@Suite("Golden fixtures")
@MainActor
struct GoldenFixtureTests {
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("fixtures")

    static var recording: Bool { ProcessInfo.processInfo.environment["ACTIONLOG_RECORD_FIXTURES"] == "1" }

    @Test("fixtures/city-search.actionlog replays with today's CitySearch reducer")
    func citySearch() async throws {
        let path = Self.fixtures.appendingPathComponent("city-search.actionlog").path
        if Self.recording {
            try await Self.rerecord(path) { try await ExampleScripts.recordCitySearch(path: $0).0 }
        }
        let journal = try Journal(path: path)
        let session = try #require(try journal.sessions().first, "\(path) holds no session")
        let report = try Replay(journal: journal, session: session.id, reducer: CitySearch.reduce).run()
        #expect(report.isMatch, "\(report)")
        #expect(report.entriesReplayed == session.entryCount - 1)
        #expect(report.entriesReplayed > 10)
    }

    @Test("fixtures/checkout.actionlog replays with today's checkout state machine")
    func checkout() async throws {
        let path = Self.fixtures.appendingPathComponent("checkout.actionlog").path
        if Self.recording {
            try await Self.rerecord(path) { try await ExampleScripts.recordCheckout(path: $0).0 }
        }
        let journal = try Journal(path: path)
        let session = try #require(try journal.sessions().first, "\(path) holds no session")
        let report = try Replay(journal: journal, session: session.id, reducer: Checkout.reduce).run()
        #expect(report.isMatch, "\(report)")
        #expect(report.entriesReplayed == session.entryCount - 1)
        #expect(report.entriesReplayed > 10)
        #expect(try journal.state(at: session.entryCount - 1, in: session.id).decode(Checkout.State.self)
            == .completed(receipt: Checkout.Receipt(transactionID: "txn-4pg", totalCents: 6_100)))
    }

    @Test("fixtures/product-card.actionlog replays into a fresh actor ViewModel with the recorded service answers")
    func productCard() async throws {
        let path = Self.fixtures.appendingPathComponent("product-card.actionlog").path
        if Self.recording {
            try await Self.rerecord(path) { try await ExampleScripts.recordProductCard(path: $0).0 }
        }
        let recording = try Journal(path: path).recordedSession(1)
        let report = await ViewModelReplay<ProductCard, ProductCardAction>(recording: recording, services: ["ProductService"]) { initial in
            let replayed = ExampleScripts.replayedProductCard(initial)
            return ReplayedViewModel(handle: replayed.handle, snapshot: replayed.snapshot)
        }.run()
        #expect(report.isMatch, "\(report)")
        #expect(report.entriesReplayed == ExampleScripts.productCardScript.joined().count)
    }

    @Test("fixtures/sign-in.actionlog replays into a fresh event ViewModel, output events compared")
    func signIn() async throws {
        let path = Self.fixtures.appendingPathComponent("sign-in.actionlog").path
        if Self.recording {
            try await Self.rerecord(path) { try await ExampleScripts.recordSignIn(path: $0).0 }
        }
        let recording = try Journal(path: path).recordedSession(1)
        let report = await EventViewModelReplay<ActionLogExamples.SignInViewEvent, ActionLogExamples.SignInViewModelEvent>(recording: recording, services: ["AuthService"]) { emit in
            ExampleScripts.replayedSignIn(emit: emit)
        }.run()
        #expect(report.isMatch, "\(report)")
        #expect(report.entriesReplayed == ExampleScripts.signInScript.joined().count)
    }

    /// Records into a temporary journal, then replaces the fixture with a compact single-file copy.
    private static func rerecord(_ fixture: String, _ record: (String) async throws -> JournalSession.ID) async throws {
        let directory = TemporaryDirectory()
        let scratch = directory.path("scratch.actionlog")
        _ = try await record(scratch)
        try? FileManager.default.removeItem(atPath: fixture)
        try Journal(path: scratch).copy(to: fixture)
    }
}
