import ActionLog
import Foundation
import Replayer
import Testing

@Suite("Actor ViewModel: recording, turns, replay, divergences")
struct ViewModelReplayTests {
    let directory = TemporaryDirectory()

    private func record(_ script: [[ProductAction]] = overlappingScript, name: String = "product.actionlog") async throws -> RecordedSession {
        let path = directory.path(name)
        let id = try await recordProductSession(path: path, script: script)
        return try Journal(path: path).recordedSession(id)
    }

    @Test("overlapping handlers are journaled with their turns: entries in the order handlers returned, calls under their entry")
    func recordsOverlappingHandlers() async throws {
        let recorded = try await record()
        #expect(recorded.entries.map { $0.label ?? "-" } == ["-", "onImageSliderAction.onTapSlider", "viewDidLoad", "addToBasket"])
        #expect(recorded.handlers.map(\.seq) == [1, 2, 3])
        // viewDidLoad started first (turn 0) and awaited fetchProduct; the slider ran meanwhile (turn 1);
        // the product's answer was turn 2, addToBasket's start turn 3 and its answer turn 4.
        #expect(recorded.handlers.map(\.started) == [1, 0, 3])
        #expect(recorded.handlers[1].calls == [
            ServiceCall(
                service: "ProductService", method: "fetchProduct", arguments: ["p-7"],
                outcome: .returned(["id": "p-7", "name": "Lamp p-7", "priceCents": 1999]), answered: 2),
        ])
        #expect(recorded.handlers[2].calls.map(\.description) == [#"ProductService.addToBasket("p-7", 1)"#])
        #expect(recorded.handlers[2].calls.map(\.answered) == [4])
        let final = try recorded.state(at: 3)
        #expect(final == ["basketCount": 1, "loading": "loaded", "product": ["id": "p-7", "name": "Lamp p-7", "priceCents": 1999], "sliderPosition": 3])
        #expect(SessionMetadata.architecture(of: recorded) == "actorViewModel")
    }

    @Test("recording the same script five times gives the same journal every time")
    func recordingIsDeterministic() async throws {
        var journals: Set<String> = []
        for run in 0..<5 {
            let recorded = try await record(name: "run-\(run).actionlog")
            let entries = recorded.entries.map { "\($0.seq) \($0.label ?? "-") \($0.action?.canonicalText ?? "") \($0.content)" }
            journals.insert((entries + recorded.handlers.map { "\($0)" }).joined(separator: "\n"))
        }
        #expect(journals.count == 1)
    }

    @Test("a replay of an overlapping pair matches, the same 100 times in a row, without touching the live service")
    func replayIsDeterministic() async throws {
        let recorded = try await record()
        var reports: Set<String> = []
        for _ in 0..<100 {
            let report = await productReplay(recorded).run()
            #expect(report.isMatch)
            reports.insert(report.description)
        }
        #expect(reports == [#"Replayed 3 of 3 actions of session 1 "product card" of product.actionlog: no divergence."#])
    }

    @Test("a recorded error is thrown again as its own type on replay")
    func errorPath() async throws {
        let recorded = try await record([[.viewDidLoad(id: "missing")]])
        #expect(recorded.handlers[0].calls.map(\.outcome) == [.threw(["type": "ReplayerTests.ProductError", "value": ["notFound": ["id": "missing"]]])])
        #expect(try recorded.state(at: 1)["error"] == "not found: missing")
        let report = await productReplay(recorded).run()
        #expect(report.isMatch, "\(report)")
    }

    @Test("a call with other arguments is a divergence naming the entry, the call recorded and the call made")
    func otherArguments() async throws {
        let report = await productReplay(try await record(), change: .fetchesAnotherID).run()
        #expect(report.description == """
            Replay diverged at entry 2 of session 1 "product card" of product.actionlog (viewDidLoad(id: "p-7")).

              Service call 0:
                − ProductService.fetchProduct("p-7")
                + ProductService.fetchProduct("p-8")

            (Recorded: −, Replayed: +)
            """)
    }

    @Test("a missing call and an extra call are divergences")
    func missingAndExtraCalls() async throws {
        let recorded = try await record()
        let missing = await productReplay(recorded, change: .skipsTheFetch).run()
        #expect(missing.description == """
            Replay diverged at entry 2 of session 1 "product card" of product.actionlog (viewDidLoad(id: "p-7")).

              Service call 0:
                − ProductService.fetchProduct("p-7")
                + (no call: the handler returned)

            (Recorded: −, Replayed: +)
            """)
        let extra = await productReplay(recorded, change: .addsAnExtraCall).run()
        #expect(extra.description == """
            Replay diverged at entry 2 of session 1 "product card" of product.actionlog (viewDidLoad(id: "p-7")).

              Service call 1:
                − (no call: the recording's handler returned)
                + ProductService.fetchProduct("p-7")

            (Recorded: −, Replayed: +)
            """)
    }

    @Test("a changed state is a divergence with a custom-dump diff of the snapshot")
    func stateDivergence() async throws {
        let report = await productReplay(try await record(), change: .sliderOffByOne).run()
        #expect(report.description == """
            Replay diverged at entry 1 of session 1 "product card" of product.actionlog (onImageSliderAction(.onTapSlider(3))).

              State:
                  ProductSnapshot(
                    loading: "loading",
                    product: nil,
                −   sliderPosition: 3,
                +   sliderPosition: 4,
                    basketCount: 0,
                    error: nil
                  )

            (Recorded: −, Replayed: +)
            """)
    }

    @Test("a replayed handler sees the entry it replays")
    func handlerSeesItsEntry() async throws {
        let recorded = try await record()
        let seen = LockedList<String>()
        let report = await ViewModelReplay<ProductSnapshot, ProductAction>(recording: recorded, services: ["ProductService"]) { initial in
            let state = ProductState(initial)
            let viewModel = ProductViewModel(state: state, service: RecordedProductService(live: OfflineProductService()))
            return ReplayedViewModel(
                handle: { action in
                    if let entry = ReplayedEntry.current { seen.append("\(entry.seq) \(entry.label) \(entry.recorded.calls.count)") }
                    await viewModel.handle(action)
                },
                snapshot: { state.snapshot })
        }.run()
        #expect(report.isMatch)
        #expect(seen.all.sorted() == ["1 onImageSliderAction.onTapSlider 0", "2 viewDidLoad 1", "3 addToBasket 1"])
    }

    @Test("a recorded result that no longer decodes is named like an action that no longer decodes")
    func resultNoLongerDecodes() async throws {
        var recorded = try await record()
        try #require(recorded.handlers.count == 3)
        guard case .call(var call) = recorded.handlers[1].records[0] else { return #expect(Bool(false)) }
        call.outcome = .returned(["id": "p-7", "title": "Lamp"])
        recorded.handlers[1].records[0] = .call(call)
        let report = await productReplay(recorded).run()
        #expect(report.description == """
            Replay of session 1 "product card" of product.actionlog stopped after 1 matching entry: product.actionlog, session 1 "product card", entry 2: \
            the result of service call "ProductService.fetchProduct" no longer decodes: key "name" not found
            """)
    }

    @Test("a session replayed as another architecture, or with other services, is refused saying what it holds and what was asked")
    func wrongArchitecture() async throws {
        let recorded = try await record()
        let otherServices = await productReplay(recorded, services: ["ProductService", "BasketService"]).run()
        #expect(otherServices.description == """
            Replay of session 1 "product card" of product.actionlog stopped after 0 matching entries: product.actionlog, session 1 "product card": \
            the session holds an actor ViewModel with services ProductService, but the replay asked for an actor ViewModel with services BasketService, ProductService
            """)
        let asEvents = await signInReplay(recorded).run()
        #expect(asEvents.failure?.description == """
            product.actionlog, session 1 "product card": the session holds an actor ViewModel with services ProductService, \
            but the replay asked for an event ViewModel with services AuthService
            """)
        let signIn = directory.path("sign-in.actionlog")
        let id = try await recordSignInSession(path: signIn, script: [.viewDidLoad])
        let asActor = await productReplay(try Journal(path: signIn).recordedSession(id)).run()
        #expect(asActor.failure?.description == """
            sign-in.actionlog, session 1 "sign in": the session holds an event ViewModel with services AuthService, \
            but the replay asked for an actor ViewModel with services ProductService
            """)
        #expect(asActor.failure?.code == .wrongArchitecture)
        let asReducer = try Replay(recording: recorded) { (_: inout ProductSnapshot, _: ProductAction) in }.run()
        #expect(asReducer.failure?.description == """
            product.actionlog, session 1 "product card": the session holds an actor ViewModel, but the replay asked for a reducer; \
            replay it with ViewModelReplay or EventViewModelReplay
            """)
    }
}

/// Reads the architecture a session's metadata names.
enum SessionMetadata {
    static func architecture(of recorded: RecordedSession) -> String? {
        guard case .object(let members) = recorded.session.metadata, case .string(let name)? = members["actionlog.architecture"] else { return nil }
        return name
    }
}

/// A list appended to from several tasks.
final class LockedList<Element: Sendable>: Sendable {
    private let storage = Locked<[Element]>([])
    func append(_ element: Element) { storage.withLock { $0.append(element) } }
    var all: [Element] { storage.withLock { $0 } }
}
