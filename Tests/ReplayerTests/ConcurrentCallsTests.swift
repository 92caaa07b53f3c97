import ActionLog
import Foundation
import Replayer
import Testing

/// A product service whose `fetchProduct("p-1")` answers only once `gate` is open: the tests open
/// it after another call has been answered, so that the answers come in the order they choose.
private struct GatedProductService: ProductService {
    let gate: Gate

    func fetchProduct(id: String) async throws -> Product {
        if id == "p-1" { await gate.wait() }
        return try await FakeProductService().fetchProduct(id: id)
    }

    func addToBasket(id: String, quantity: Int) async throws -> Int { quantity }
}

/// Handlers that have two recorded calls in flight at once: `async let`, and a `Task` started beside
/// the handler's own call. In both, the call made second is answered first.
private func concurrentHandler(service: any ProductService, gate: Gate, state: ProductState) -> @Sendable (ProductAction) async -> Void {
    { action in
        switch action {
        case .viewDidLoad:
            async let first = service.fetchProduct(id: "p-1")
            async let second: Product = {
                let product = try await service.fetchProduct(id: "p-2")
                gate.open()
                return product
            }()
            let products = try? await [first, second]
            await state.update {
                $0.product = products?.first
                $0.loading = "loaded \(products?.count ?? 0)"
            }
        case .addToBasket:
            // Fire and forget: what the task does after its answer is not ordered against the
            // handler on replay, so it only opens the gate.
            Task {
                _ = try? await service.addToBasket(id: "side", quantity: 2)
                gate.open()
            }
            let product = try? await service.fetchProduct(id: "p-1")
            await state.update { $0.error = product == nil ? "no product" : nil }
        case .onImageSliderAction(.onTapSlider(let position)):
            await state.update { $0.sliderPosition = position }
        }
    }
}

@Suite("Async ViewModels: recorded calls in flight side by side in one handler")
struct ConcurrentCallsTests {
    let directory = TemporaryDirectory()

    /// Records `actions`, each once the one before has settled, with a fresh gate per action.
    private func record(_ actions: [ProductAction], name: String) async throws -> RecordedSession {
        let path = directory.path("\(name).actionlog")
        let state = await ProductState()
        let gates = Locked<Gate>(Gate())
        let reducer = try await ViewModelRecorder<ProductSnapshot, ProductAction>(
            path: path, sessionName: name, services: ["ProductService"],
            handle: { action in
                let gate = gates.withLock { $0 }
                let service = RecordedProductService(live: GatedProductService(gate: gate))
                await concurrentHandler(service: service, gate: gate, state: state)(action)
            },
            snapshot: { state.snapshot })
        for action in actions {
            gates.withLock { $0 = Gate() }
            reducer(action)
            // A slider tap sent while the handler waits: another handler's turns between its answers.
            reducer(.onImageSliderAction(.onTapSlider(actions.count)))
            await reducer.settle()
        }
        reducer.close()
        return try Journal(path: path).recordedSession(reducer.recorder.sessionID)
    }

    private func replay(_ recording: RecordedSession) async -> ReplayReport {
        await ViewModelReplay<ProductSnapshot, ProductAction>(recording: recording, services: ["ProductService"]) { initial in
            let state = ProductState(initial)
            let handle = concurrentHandler(
                service: RecordedProductService(live: OfflineProductService()), gate: Gate(), state: state)
            return ReplayedViewModel(handle: handle, snapshot: { state.snapshot })
        }.run()
    }

    /// A replay whose handler loads by fetching `id` alone, one of the two products recorded.
    private func replayFetchingOnly(_ id: String, _ recording: RecordedSession) async -> ReplayReport {
        await ViewModelReplay<ProductSnapshot, ProductAction>(recording: recording, services: ["ProductService"]) { initial in
            let state = ProductState(initial)
            let service = RecordedProductService(live: OfflineProductService())
            return ReplayedViewModel(handle: { action in
                switch action {
                case .viewDidLoad:
                    let product = try? await service.fetchProduct(id: id)
                    await state.update { $0.product = product }
                case .onImageSliderAction(.onTapSlider(let position)):
                    await state.update { $0.sliderPosition = position }
                case .addToBasket:
                    break
                }
            }, snapshot: { state.snapshot })
        }.run()
    }

    @Test("two async let calls, the second answered first: recorded without hanging, in the order answered, and replayed as a match",
          .timeLimit(.minutes(1)))
    func asyncLet() async throws {
        let recording = try await record([.viewDidLoad(id: "p-1")], name: "async let")
        let load = try #require(recording.handlers.first { $0.calls.count == 2 })
        #expect(load.calls.map(\.description) == [#"ProductService.fetchProduct("p-2")"#, #"ProductService.fetchProduct("p-1")"#])
        let state = try #require(recording.entries.last { $0.label == "viewDidLoad" })
        #expect(try recording.state(at: state.seq).decode(ProductSnapshot.self).loading == "loaded 2")
        let report = await replay(recording)
        #expect(report.isMatch, "\(report)")
        #expect(report.entriesReplayed == 2)
    }

    @Test("a Task's call answered before the handler's own: recorded without hanging, both with the entry, and replayed as a match",
          .timeLimit(.minutes(1)))
    func sideTask() async throws {
        let recording = try await record([.addToBasket], name: "side task")
        let add = try #require(recording.handlers.first { $0.calls.count == 2 })
        #expect(add.calls.map(\.description) == [#"ProductService.addToBasket("side", 2)"#, #"ProductService.fetchProduct("p-1")"#])
        let report = await replay(recording)
        #expect(report.isMatch, "\(report)")
    }

    @Test("a replayed handler that leaves out one of its side-by-side calls diverges naming the missing call", .timeLimit(.minutes(1)))
    func missingConcurrentCall() async throws {
        let recording = try await record([.viewDidLoad(id: "p-1")], name: "missing")
        let report = await replayFetchingOnly("p-2", recording)
        let divergence = try #require(report.divergences.first)
        #expect(divergence.serviceCall?.index == 1)
        #expect(divergence.serviceCall?.recorded == #"ProductService.fetchProduct("p-1")"#)
        #expect(divergence.serviceCall?.made == nil)
    }

    @Test("a replayed handler that waits for one side-by-side call without making the other gets its answer first, and diverges naming the call not made",
          .timeLimit(.minutes(1)))
    func callNeverMade() async throws {
        let recording = try await record([.viewDidLoad(id: "p-1")], name: "waiting")
        let report = await replayFetchingOnly("p-1", recording)
        #expect(report.description == """
            Replay diverged at entry 1 of session 1 "waiting" of waiting.actionlog (viewDidLoad(id: "p-1")).

              Service call 0:
                − ProductService.fetchProduct("p-2")
                + (no call: the handler returned)

            (Recorded: −, Replayed: +)
            """)
    }

    @Test("a task group of eight calls per action, answered in a shuffled order, over twenty overlapping actions: recorded and replayed as a match",
          .timeLimit(.minutes(1)))
    func taskGroups() async throws {
        /// Answers after a pause that differs per id and per round, so the answers come out of order.
        struct JitteryService: ProductService {
            func fetchProduct(id: String) async throws -> Product {
                try await Task.sleep(for: .microseconds((id.hashValue & 0xFFF) % 3_000))
                return try await FakeProductService().fetchProduct(id: id)
            }
            func addToBasket(id: String, quantity: Int) async throws -> Int { quantity }
        }
        func handler(_ service: any ProductService, _ state: ProductState) -> @Sendable (ProductAction) async -> Void {
            { action in
                guard case .viewDidLoad(let id) = action else { return }
                let names = await withTaskGroup(of: String?.self) { group in
                    for index in 0..<8 { group.addTask { try? await service.fetchProduct(id: "\(id)-\(index)").name } }
                    var names: [String] = []
                    for await name in group { names.append(name ?? "?") }
                    return names.sorted()
                }
                await state.update { $0.error = names.joined(separator: ",") }
            }
        }
        let path = directory.path("groups.actionlog")
        let state = await ProductState()
        let reducer = try await ViewModelRecorder<ProductSnapshot, ProductAction>(
            path: path, sessionName: "groups", services: ["ProductService"],
            handle: handler(RecordedProductService(live: JitteryService()), state), snapshot: { state.snapshot })
        for round in 0..<10 {
            reducer(.viewDidLoad(id: "a\(round)"))
            reducer(.viewDidLoad(id: "b\(round)"))
            await reducer.settle()
        }
        reducer.close()
        let recording = try Journal(path: path).recordedSession(reducer.recorder.sessionID)
        #expect(recording.handlers.count == 20)
        #expect(recording.handlers.allSatisfy { $0.calls.count == 8 })
        let report = await ViewModelReplay<ProductSnapshot, ProductAction>(recording: recording, services: ["ProductService"]) { initial in
            let state = ProductState(initial)
            return ReplayedViewModel(handle: handler(RecordedProductService(live: OfflineProductService()), state), snapshot: { state.snapshot })
        }.run()
        #expect(report.isMatch, "\(report)")
        #expect(report.entriesReplayed == 20)
    }

    /// A product handler made for a service and a state, as the tests below write it.
    private typealias MakeHandler = @Sendable (any ProductService, ProductState) -> @Sendable (ProductAction) async -> Void

    /// Records `viewDidLoad` and `addToBasket` sent together, through `live`, then replays the session
    /// with the same handler offline. Returns the recording, the replay and the recorded state at the end.
    private func recordPairAndReplay(
        _ name: String, live: any ProductService, _ handler: @escaping MakeHandler
    ) async throws -> (recording: RecordedSession, report: ReplayReport, state: ProductSnapshot) {
        let state = await ProductState()
        let reducer = try await ViewModelRecorder<ProductSnapshot, ProductAction>(
            path: directory.path("\(name).actionlog"), sessionName: name, services: ["ProductService"],
            handle: handler(RecordedProductService(live: live), state), snapshot: { state.snapshot })
        await MainActor.run {
            reducer(.viewDidLoad(id: "p-1"))
            reducer(.addToBasket)
        }
        await reducer.settle()
        reducer.close()
        let recording = try Journal(path: directory.path("\(name).actionlog")).recordedSession(reducer.recorder.sessionID)
        let report = await ViewModelReplay<ProductSnapshot, ProductAction>(recording: recording, services: ["ProductService"]) { initial in
            let state = ProductState(initial)
            return ReplayedViewModel(handle: handler(RecordedProductService(live: OfflineProductService()), state), snapshot: { state.snapshot })
        }.run()
        return (recording, report, await MainActor.run { state.snapshot })
    }

    @Test("a handler that waits, in its turn, for another handler's answer has its turn taken after one to two looks of turnRelease: the recorder names both handlers, marks the entry, and replay reports it as not reproducible",
          .timeLimit(.minutes(1)))
    func joinAnotherHandler() async throws {
        /// What the second action waits for: the first one's product.
        actor Load {
            var product: Product?
            var loaded = false
            var waiters: [CheckedContinuation<Void, Never>] = []
            func finish(_ product: Product?) {
                (self.product, loaded) = (product, true)
                for waiter in waiters { waiter.resume() }
                waiters = []
            }
            func wait() async {
                if loaded { return }
                await withCheckedContinuation { waiters.append($0) }
            }
        }
        @Sendable func handler(_ service: any ProductService, _ state: ProductState) -> @Sendable (ProductAction) async -> Void {
            let load = Load()
            return { action in
                switch action {
                case .viewDidLoad:
                    // Its own call: the turn goes to the second action, which then waits, in its
                    // turn, for this answer, which needs a turn.
                    let product = try? await service.fetchProduct(id: "p-1")
                    await load.finish(product)
                    await state.update { $0.product = product }
                case .addToBasket:
                    await load.wait()
                    await state.update { $0.loading = "joined" }
                case .onImageSliderAction:
                    break
                }
            }
        }
        let reports = Locked<[String]>([])
        var configuration = RecorderConfiguration()
        configuration.onError = { error in reports.withLock { $0.append("\(error)") } }
        // Short, so that the test is: the handler never gives the turn back, however long the look.
        configuration.turnRelease = .seconds(1)
        let state = await ProductState()
        let reducer = try await ViewModelRecorder<ProductSnapshot, ProductAction>(
            path: directory.path("join.actionlog"), sessionName: "join", services: ["ProductService"], configuration: configuration,
            handle: handler(RecordedProductService(live: FakeProductService()), state), snapshot: { state.snapshot })
        await MainActor.run {
            reducer(.viewDidLoad(id: "p-1"))
            reducer(.addToBasket)
        }
        // Nothing but the recorder's release lets the app go on: without it, this would never return.
        await reducer.settle()
        reducer.close()
        #expect(await MainActor.run { state.snapshot.loading } == "joined")
        #expect(reports.withLock { $0 } == [
            """
            join.actionlog, session 1: the handler of action 2 kept its turn for over 1.0 seconds without awaiting a recorded call \
            or returning, with the handler of action 1 waiting behind it: it waits for something ActionLog cannot see (another \
            handler's task, a continuation, a stream, a sleep that is not on a RecordedClock). Its turn was given on, so the \
            order from here was decided by time: the entry of action 2 is marked, and replay reports it as not reproducible
            """,
        ])
        let recording = try Journal(path: directory.path("join.actionlog")).recordedSession(reducer.recorder.sessionID)
        // Which of the two returned first was decided by time too: the entries are found by label.
        let handlers = Dictionary(uniqueKeysWithValues: recording.entries.compactMap { entry in
            entry.label.flatMap { label in recording.handlers.first { $0.seq == entry.seq }.map { (label, $0) } }
        })
        #expect(handlers["addToBasket"]?.started == 1)
        #expect(handlers["addToBasket"]?.releasedAt == 2)
        #expect(handlers["viewDidLoad"]?.releasedAt == nil)
        #expect(handlers["viewDidLoad"]?.calls.map(\.answered) == [2])
        let seq = try #require(handlers["addToBasket"]?.seq)
        let verification = try Journal(path: directory.path("join.actionlog")).verify()
        #expect(verification.isValid)
        #expect(verification.notes.map(\.description) == ["""
            session 1, entry \(seq): not reproducible: its handler waited in its turn for something ActionLog cannot see, \
            and the recorder gave the turn on at place 2 of the run order
            """])

        // Replay stops at the marked entry, without waiting for the join (which would never come).
        let report = await ViewModelReplay<ProductSnapshot, ProductAction>(recording: recording, services: ["ProductService"]) { initial in
            let state = ProductState(initial)
            return ReplayedViewModel(handle: handler(RecordedProductService(live: OfflineProductService()), state), snapshot: { state.snapshot })
        }.run()
        #expect(report.failure?.code == .notReproducible)
        #expect(report.failure?.description == """
            join.actionlog, session 1 "join", entry \(seq) (addToBasket) is not reproducible: when it was recorded, its handler \
            kept its turn without awaiting a recorded call or returning, with another handler waiting behind it: it waited for \
            something ActionLog cannot see (another handler's task, a continuation, a stream). The recorder gave the turn on at \
            place 2 of the run order, so what followed was ordered by time, which no replay can follow; the entries that ended \
            before it replayed
            """)

        // The mark goes with the session into its text form and back into a journal, and a golden of
        // it fails saying what to change.
        let text = recording.jsonl()
        #expect(text.contains(#""releasedAt":2,"started":1}"#))
        #expect(try RecordedSession(jsonl: text, file: "join.jsonl").handlers == recording.handlers)
        // A mark that does not come after the handler's start is a damaged record, not a turn taken.
        let damaged = try RecordedSession(jsonl: text.replacing(#""releasedAt":2,"started":1}"#, with: #""releasedAt":1,"started":1}"#), file: "join.jsonl")
        let refused = await ViewModelReplay<ProductSnapshot, ProductAction>(recording: damaged, services: ["ProductService"]) { initial in
            let state = ProductState(initial)
            return ReplayedViewModel(handle: handler(RecordedProductService(live: OfflineProductService()), state), snapshot: { state.snapshot })
        }.run()
        #expect(refused.failure?.description == """
            join.jsonl, session "join", entry \(seq): the handler's turn was taken from it at place 1 of the run order, not after \
            its start at place 1
            """)
        let file = URL(fileURLWithPath: directory.path("join.jsonl"))
        try text.write(to: file, atomically: true, encoding: .utf8)
        let imported = try Journal.importJSONL(at: file, into: directory.path("imported.actionlog"))
        #expect(try Journal(path: directory.path("imported.actionlog")).handlerRecords(in: imported) == recording.handlers)
        let golden = await verifyReplay(golden: file.path, of: .viewModel(services: ["ProductService"]) { (initial: ProductSnapshot) in
            let state = ProductState(initial)
            return ReplayedViewModel(handle: handler(RecordedProductService(live: OfflineProductService()), state), snapshot: { state.snapshot })
        })
        #expect(golden.message == """
            Replay of session "join" of join.jsonl stopped after 0 matching entries: join.jsonl, session "join", entry \(seq) \
            (addToBasket) is not reproducible: when it was recorded, its handler kept its turn without awaiting a recorded call \
            or returning, with another handler waiting behind it: it waited for something ActionLog cannot see (another \
            handler's task, a continuation, a stream). The recorder gave the turn on at place 2 of the run order, so what \
            followed was ordered by time, which no replay can follow; the entries that ended before it replayed

            Make the handler await what it waits for through a recorded service or a RecordedClock, or not wait in its turn \
            for another handler's work; then record the golden again.
            """)
    }

    @Test("a queue of handlers that pass the turn on for longer than a look of turnRelease (10 s) in all, each holding it 0.3 s, has no turn taken",
          .timeLimit(.minutes(2)))
    func slowQueueKeepsItsOrder() async throws {
        let reports = Locked<[String]>([])
        var configuration = RecorderConfiguration()
        configuration.onError = { error in reports.withLock { $0.append("\(error)") } }
        // A look far above one turn (0.3 s, and a snapshot read on the main actor), however loaded
        // the machine, and below the forty turns in all.
        configuration.turnRelease = .seconds(10)
        let state = await ProductState()
        let reducer = try await ViewModelRecorder<ProductSnapshot, ProductAction>(
            path: directory.path("queue.actionlog"), sessionName: "queue", services: ["ProductService"], configuration: configuration,
            handle: { action in
                guard case .onImageSliderAction(.onTapSlider(let position)) = action else { return }
                // A sleep on no recorded clock keeps the turn: forty of them one after the other.
                try? await Task.sleep(for: .milliseconds(300))
                await state.update { $0.sliderPosition = position }
            },
            snapshot: { state.snapshot })
        await MainActor.run {
            for position in 0..<40 { reducer(.onImageSliderAction(.onTapSlider(position))) }
        }
        await reducer.settle()
        reducer.close()
        #expect(reports.withLock { $0 } == [])
        let recording = try Journal(path: directory.path("queue.actionlog")).recordedSession(reducer.recorder.sessionID)
        #expect(recording.handlers.map(\.started) == Array(0..<40))
        #expect(recording.handlers.allSatisfy { $0.releasedAt == nil })
    }

    @Test("a call made beside the handler keeps the handler's turn: another handler sent meanwhile runs after it, when recording and when replaying",
          .timeLimit(.minutes(1)))
    func besideCallKeepsTheTurn() async throws {
        @Sendable func handler(_ service: any ProductService, _ state: ProductState) -> @Sendable (ProductAction) async -> Void {
            { action in
                switch action {
                case .viewDidLoad:
                    async let product = service.fetchProduct(id: "p-1")
                    // Twenty steps on the main actor while the call beside it is in flight.
                    for step in 0..<20 { await state.update { $0.error = ($0.error ?? "") + "h\(step) " } }
                    _ = try? await product
                case .addToBasket:
                    await state.update { $0.error = ($0.error ?? "") + "mark " }
                case .onImageSliderAction:
                    break
                }
            }
        }
        let (_, report, recorded) = try await recordPairAndReplay("beside", live: FakeProductService(), handler)
        #expect(recorded.error == (0..<20).map { "h\($0) " }.joined() + "mark ")
        #expect(report.isMatch, "\(report)")
    }
}
