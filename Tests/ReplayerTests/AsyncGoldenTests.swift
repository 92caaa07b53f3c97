import ActionLog
import Foundation
import Replayer
import Testing

@Suite("Async golden assertions under Swift Testing")
struct AsyncGoldenTests {
    let directory = TemporaryDirectory()

    private func golden() async throws -> String {
        let path = directory.path("product.actionlog")
        _ = try await recordProductSession(path: path, script: overlappingScript)
        return path
    }

    private static func viewModel(_ change: ProductChange) -> @MainActor @Sendable (ProductSnapshot) -> ReplayedViewModel<ProductSnapshot, ProductAction> {
        { initial in
            let state = ProductState(initial)
            let viewModel = ProductViewModel(state: state, service: RecordedProductService(live: OfflineProductService()), change: change)
            return ReplayedViewModel(handle: { await viewModel.handle($0) }, snapshot: { state.snapshot })
        }
    }

    @Test("today's ViewModel passes the golden, awaited on the test's task")
    func passes() async throws {
        await assertReplay(golden: try await golden(), of: .viewModel(services: ["ProductService"], Self.viewModel(.none)))
    }

    @Test("a wrong handler fails the test with the whole message")
    func wrongHandlerFails() async throws {
        let path = try await golden()
        let messages = Locked<[String]>([])
        await withKnownIssue {
            await assertReplay(golden: path, of: .viewModel(services: ["ProductService"], Self.viewModel(.fetchesAnotherID)))
        } matching: { issue in
            messages.withLock { $0 += issue.comments.map(\.rawValue) }
            return true
        }
        #expect(messages.withLock { $0 } == [
            """
            Replay diverged at entry 2 of session 1 "product card" of product.actionlog (viewDidLoad(id: "p-7")).

              Service call 0:
                − ProductService.fetchProduct("p-7")
                + ProductService.fetchProduct("p-8")

            (Recorded: −, Replayed: +)

            If the new behaviour is intended, record the session again and replace the golden.
            """,
        ])
    }

    @Test("a golden replayed with the wrong services is refused with a fix that asks for the right replay, not a new recording of a changed behaviour")
    func wrongServices() async throws {
        let path = try await golden()
        let result = await verifyReplay(golden: path, of: .viewModel(services: ["BasketService"], Self.viewModel(.none)), record: .never)
        #expect(result.message == """
            Replay of session 1 "product card" of product.actionlog stopped after 0 matching entries: product.actionlog, session 1 "product card": \
            the session holds an actor ViewModel with services ProductService, but the replay asked for an actor ViewModel with services BasketService

            Replay the golden with the kind of replay and the services it was recorded with, or record it again.
            """)
    }

    @Test("an event ViewModel's golden passes, and a changed output event fails it")
    func eventGolden() async throws {
        let path = directory.path("sign-in.actionlog")
        _ = try await recordSignInSession(path: path, script: [.viewDidLoad, .signInTapped(email: "ada@example.com")])
        func viewModel(lowercase: Bool) -> @MainActor @Sendable (@escaping @Sendable (SignInViewModelEvent) -> Void) -> @Sendable (SignInViewEvent) async -> Void {
            { emit in
                let viewModel = SignInViewModel(service: RecordedAuthService(live: OfflineAuthService()), greetsInLowercase: lowercase)
                viewModel.output.addHandler(emit)
                return { await viewModel.handle(event: $0) }
            }
        }
        await assertReplay(golden: path, of: .eventViewModel(services: ["AuthService"], viewModel(lowercase: false)))
        let result = await verifyReplay(golden: path, of: .eventViewModel(services: ["AuthService"], viewModel(lowercase: true)))
        #expect(result.replay?.divergence?.output?.index == 1)
        #expect(!result.passed)
    }

    @Test("a missing golden says where an asynchronous golden comes from; under CI, that it is not recorded there")
    func missingGolden() async {
        let path = directory.path("none.actionlog")
        let result = await verifyReplay(golden: path, of: .viewModel(Self.viewModel(.none)), environment: [:])
        #expect(result.message == """
            No golden at \(path). An asynchronous golden comes from a live session: record one with \
            ViewModelRecorder or EventViewModelRecorder and keep its journal there, or pass liveSession: to record one.
            """)
        let underCI = await verifyReplay(golden: path, of: .viewModel(Self.viewModel(.none)), environment: ["CI": "true"])
        #expect(underCI.message == """
            No golden at \(path) (record mode never, because CI is set). Record it on a developer machine \
            (ACTIONLOG_RECORD=missing), review it and commit it.
            """)
    }

    /// A new live session of the product script, recorded into a journal of its own.
    private func liveSession() -> @Sendable () async throws -> RecordedSession {
        ArchitectureGoldenTests.liveSession { try await recordProductSession(path: $0, script: overlappingScript) }
    }

    @Test("record modes write an asynchronous golden from a new live session: when missing, when it fails, always")
    func recordModes() async throws {
        let path = directory.path("modes.jsonl")
        let missing = await verifyReplay(golden: path, of: .viewModel(services: ["ProductService"], liveSession: liveSession(), Self.viewModel(.none)), record: .missing)
        #expect(missing.message == """
            Recorded a new golden at \(path) (record mode missing) from a new live session: 4 entries. \
            Review it, commit it, and re-run the test.
            """)
        #expect(missing.wroteGolden)
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(await verifyReplay(golden: path, of: .viewModel(services: ["ProductService"], Self.viewModel(.none)), record: .never).passed)

        let notFailed = await verifyReplay(golden: path, of: .viewModel(services: ["ProductService"], liveSession: liveSession(), Self.viewModel(.sliderOffByOne)), record: .missing)
        #expect(!notFailed.wroteGolden)
        #expect(notFailed.message?.hasSuffix("If the new behaviour is intended, re-record with ACTIONLOG_RECORD=failed.") == true)

        let failed = await verifyReplay(golden: path, of: .viewModel(services: ["ProductService"], liveSession: liveSession(), Self.viewModel(.sliderOffByOne)), record: .failed)
        #expect(failed.wroteGolden)
        #expect(failed.message?.hasSuffix("""
            Re-recorded \(path) (record mode failed) from a new live session: 4 entries. Review it, commit it, and re-run the test.

            Recorded service calls, entry by entry (2 kept, 0 changed, 0 dropped):
              entry 2 viewDidLoad: kept call 0 ProductService.fetchProduct("p-7")
              entry 3 addToBasket: kept call 0 ProductService.addToBasket("p-7", 1)
            """) == true)
        #expect(failed.replay?.isMatch == false)

        let all = await verifyReplay(golden: path, of: .viewModel(services: ["ProductService"], liveSession: liveSession(), Self.viewModel(.none)), record: .all)
        #expect(all.wroteGolden)
        #expect(all.replay == nil)
        // Goldens have no wall-clock times: a live session of the same script writes the same text.
        #expect(try String(contentsOfFile: path, encoding: .utf8) == written)
    }

    @Test("a run order where two turns hold one place is refused as damaged")
    func damagedRunOrder() async throws {
        let journal = try Journal(path: try await golden())
        var recorded = try journal.recordedSession(1)
        recorded.handlers[0].started = 0
        let report = await ViewModelReplay(recording: recorded, services: ["ProductService"], viewModel: Self.viewModel(.none)).run()
        #expect(report.failure?.description == """
            product.actionlog, session 1 "product card", entry 2: two turns hold the same place 0 in the run order
            """)
        var early = try journal.recordedSession(1)
        guard case .call(var call) = early.handlers[1].records[0] else { return #expect(Bool(false)) }
        call.answered = 0
        early.handlers[1].records[0] = .call(call)
        let answeredEarly = await ViewModelReplay(recording: early, services: ["ProductService"], viewModel: Self.viewModel(.none)).run()
        #expect(answeredEarly.failure?.description == """
            product.actionlog, session 1 "product card", entry 2: call 0 is answered at place 0 of the run order, not after place 0
            """)
    }

    @Test("a recorded service that the live service calls in turn is part of the outer call")
    func nestedServices() async throws {
        struct Outer: ProductService {
            let inner = RecordedProductService(live: FakeProductService())
            func fetchProduct(id: String) async throws -> Product { try await inner.fetchProduct(id: id) }
            func addToBasket(id: String, quantity: Int) async throws -> Int { try await inner.addToBasket(id: id, quantity: quantity) }
        }
        let path = directory.path("nested.actionlog")
        let state = await ProductState()
        let viewModel = ProductViewModel(state: state, service: RecordedProductService(live: Outer()))
        let reducer = try await ViewModelRecorder<ProductSnapshot, ProductAction>(
            path: path, sessionName: "nested", services: ["ProductService"], handle: { await viewModel.handle($0) }, snapshot: { state.snapshot })
        reducer(.viewDidLoad(id: "p-7"))
        await reducer.settle()
        reducer.close()
        let recorded = try Journal(path: path).recordedSession(1)
        #expect(recorded.handlers.map { $0.calls.map(\.description) } == [[#"ProductService.fetchProduct("p-7")"#]])
        #expect(await productReplay(recorded).run().isMatch)
    }

    @Test("a call from a task the handler started and did not await is journaled under its entry, written once the task has ended")
    func callAfterReturn() async throws {
        let (gate, done) = (Gate(), Gate())
        let service = RecordedProductService(live: FakeProductService())
        let path = directory.path("late.actionlog")
        let reducer = try await ViewModelRecorder<ProductSnapshot, ProductAction>(
            path: path, sessionName: "late", services: ["ProductService"],
            handle: { action in
                if case .viewDidLoad = action {
                    Task {
                        await gate.wait()
                        _ = try? await service.fetchProduct(id: "late")
                        done.open()
                    }
                } else {
                    _ = try? await service.fetchProduct(id: "p-1")
                }
            },
            snapshot: { ProductSnapshot() })
        reducer(.viewDidLoad(id: "p-1"))
        gate.open()
        // settle waits for the task too: the entry is its work's.
        await reducer.settle()
        #expect(done.isOpen)
        reducer(.addToBasket)
        await reducer.settle()
        reducer.close()
        let handlers = try Journal(path: path).handlerRecords(in: 1)
        #expect(handlers.map { $0.calls.map(\.description) } == [[#"ProductService.fetchProduct("late")"#], [#"ProductService.fetchProduct("p-1")"#]])
    }

    @Test("send hands the action over and returns before its handler runs")
    func sendDoesNotWait() async throws {
        let gate = Gate()
        let recorder = try await ViewModelRecorder<ProductSnapshot, ProductAction>(
            path: directory.path("gate.actionlog"), sessionName: "gate",
            handle: { _ in await gate.wait() }, snapshot: { ProductSnapshot() })
        recorder(.addToBasket)
        #expect(recorder.recorder.statistics.recorded == 1)   // entry 0 only: the handler has not returned
        gate.open()
        await recorder.settle()
        #expect(recorder.recorder.statistics.recorded == 2)
        recorder.close()
    }
}

/// Suspends the tasks that wait until it is opened.
final class Gate: Sendable {
    private let state = Locked<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let open = state.withLock { state in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if open { continuation.resume() }
        }
    }

    /// Whether it has been opened.
    var isOpen: Bool { state.withLock { $0.open } }

    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
