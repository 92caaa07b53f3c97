import ActionLog
import Foundation
@testable import Replayer
import Testing

/// Goldens written by record modes carry no wall-clock times, so recording again after a change of
/// one entry's behaviour changes that entry's line only; an asynchronous re-record lists its calls.
@Suite("Golden time form: re-recording changes only the entries whose content changed")
struct GoldenTimeFormTests {
    let directory = TemporaryDirectory()

    /// The 1-based numbers of the lines that differ between two texts of the same number of lines.
    static func changedLines(_ before: String, _ after: String) -> [Int] {
        let (old, new) = (before.split(separator: "\n"), after.split(separator: "\n"))
        #expect(old.count == new.count)
        return zip(old, new).enumerated().filter { $0.element.0 != $0.element.1 }.map { $0.offset + 1 }
    }

    @Test("a reducer's golden re-recorded after one entry's behaviour changed differs on that entry's line only")
    func reducerGolden() throws {
        let path = directory.path("tally.jsonl")
        _ = verifyReplay(golden: path, of: .reducer(Tally.reducer(), ifMissing: .actions(from: Tally(), Tally.script)), record: .missing, environment: [:])
        let before = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!before.contains("durationNs"))
        // Today's reducer adds ten for add(1): only the last entry, add(1), behaves differently.
        let changed: (inout Tally, Tally.Action) -> Tally.Effect? = { state, action in
            if case .add(1) = action { state.total += 10 } else { _ = Tally.reducer()(&state, action) }
            return state.total >= 10 ? .announce(state.total) : nil
        }
        let result = verifyReplay(golden: path, of: .reducer(changed), record: .failed, environment: [:])
        #expect(result.wroteGolden)
        let after = try String(contentsOfFile: path, encoding: .utf8)
        #expect(Self.changedLines(before, after) == [7], "line 7 holds entry 5, add(1)")
        // Recording the same actions again, in any mode, gives the same bytes.
        _ = verifyReplay(golden: path, of: .reducer(changed), record: .all, environment: [:])
        #expect(try String(contentsOfFile: path, encoding: .utf8) == after)
    }

    /// A new live session of the product script, with `change` made to the live ViewModel.
    private static func live(_ change: ProductChange) -> @Sendable () async throws -> RecordedSession {
        ArchitectureGoldenTests.liveSession { try await recordProductSession(path: $0, script: overlappingScript, change: change) }
    }

    private static func viewModel(_ change: ProductChange) -> @MainActor @Sendable (ProductSnapshot) -> ReplayedViewModel<ProductSnapshot, ProductAction> {
        { initial in
            let state = ProductState(initial)
            let viewModel = ProductViewModel(state: state, service: RecordedProductService(live: OfflineProductService()), change: change)
            return ReplayedViewModel(handle: { await viewModel.handle($0) }, snapshot: { state.snapshot })
        }
    }

    private func verify(_ path: String, _ mode: RecordMode, _ change: ProductChange) async -> GoldenReport {
        await verifyReplay(
            golden: path,
            of: .viewModel(services: ["ProductService"], liveSession: Self.live(change), Self.viewModel(change)),
            record: mode,
            environment: [:])
    }

    @Test("an actor ViewModel's golden re-recorded from a new live session differs on the changed entry's line only, and says which calls it kept and changed")
    func asyncGolden() async throws {
        let path = directory.path("product.jsonl")
        _ = await verify(path, .missing, .none)
        let before = try String(contentsOfFile: path, encoding: .utf8)
        #expect(before.hasPrefix(#"{"actionlog":"session","format":1,"name":"product card","status":"closed","startedAt":"1970-01-01T00:00:00.000000Z","endedAt":"1970-01-01T00:00:00.000000Z","#))
        #expect(!before.contains("durationNs"))
        _ = await verify(path, .all, .none)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == before, "a new live session of the same script writes the same bytes")

        let result = await verify(path, .failed, .addsTwoToBasket)
        let after = try String(contentsOfFile: path, encoding: .utf8)
        #expect(Self.changedLines(before, after) == [5], "line 5 holds entry 3, the tap on add to basket")
        #expect(result.message == """
            Replay diverged at entry 3 of session "product card" of product.jsonl (addToBasket).

              Service call 0:
                − ProductService.addToBasket("p-7", 1)
                + ProductService.addToBasket("p-7", 2)

            (Recorded: −, Replayed: +)

            Re-recorded \(path) (record mode failed) from a new live session: 4 entries. Review it, commit it, and re-run the test.

            Recorded service calls, entry by entry (1 kept, 1 changed, 0 dropped):
              entry 2 viewDidLoad: kept call 0 ProductService.fetchProduct("p-7")
              entry 3 addToBasket: changed call 0 ProductService.addToBasket("p-7", 1) → ProductService.addToBasket("p-7", 2)
            """)
    }

    @Test("a re-record lists per entry the calls it kept, changed, dropped and added")
    func callChanges() async throws {
        let path = directory.path("calls.jsonl")
        _ = await verify(path, .missing, .none)

        let added = await verify(path, .failed, .addsAnExtraCall)
        #expect(added.wroteGolden)
        #expect(added.message?.components(separatedBy: "re-run the test.\n\n").last == """
            Recorded service calls, entry by entry (2 kept, 0 changed, 0 dropped, 1 added):
              entry 2 viewDidLoad: kept call 0 ProductService.fetchProduct("p-7")
              entry 2 viewDidLoad: added call 1 ProductService.fetchProduct("p-7")
              entry 3 addToBasket: kept call 0 ProductService.addToBasket("p-7", 1)
            """)

        let changed = await verify(path, .failed, .fetchesAnotherID)
        #expect(changed.message == """
            Replay diverged at entry 2 of session "product card" of calls.jsonl (viewDidLoad(id: "p-7")).

              Service call 0:
                − ProductService.fetchProduct("p-7")
                + ProductService.fetchProduct("p-8")

            (Recorded: −, Replayed: +)

            Re-recorded \(path) (record mode failed) from a new live session: 4 entries. Review it, commit it, and re-run the test.

            Recorded service calls, entry by entry (0 kept, 2 changed, 1 dropped):
              entry 2 viewDidLoad: changed call 0 ProductService.fetchProduct("p-7") → ProductService.fetchProduct("p-8")
              entry 2 viewDidLoad: dropped call 1 ProductService.fetchProduct("p-7")
              entry 3 addToBasket: changed call 0 ProductService.addToBasket("p-7", 1) → ProductService.addToBasket("p-8", 1)
            """)
    }

    @Test("an event ViewModel's golden re-recorded in mode all writes the same text and says which calls it kept; an unreadable golden is replaced, saying so")
    func eventGolden() async throws {
        let path = directory.path("sign-in.jsonl")
        let live: @Sendable () async throws -> RecordedSession = ArchitectureGoldenTests.liveSession {
            try await recordSignInSession(path: $0, script: [.viewDidLoad, .signInTapped(email: "ada@example.com")])
        }
        func verify(_ mode: RecordMode) async -> GoldenReport {
            await verifyReplay(golden: path, of: .eventViewModel(services: ["AuthService"], liveSession: live) {
                (emit: @escaping @Sendable (SignInViewModelEvent) -> Void) in
                let viewModel = SignInViewModel(service: RecordedAuthService(live: OfflineAuthService()))
                viewModel.output.addHandler(emit)
                return { (event: SignInViewEvent) in await viewModel.handle(event: event) }
            }, record: mode, environment: [:])
        }
        _ = await verify(.missing)
        let before = try String(contentsOfFile: path, encoding: .utf8)
        #expect(await verify(.all).message == """
            Re-recorded \(path) (record mode all) from a new live session: 3 entries. Review it, commit it, and re-run the test.

            Recorded service calls, entry by entry (1 kept, 0 changed, 0 dropped):
              entry 2 signInTapped: kept call 0 AuthService.signIn("ada@example.com")
            """)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == before)

        try "not a session\n".write(toFile: path, atomically: true, encoding: .utf8)
        let replaced = await verify(.all)
        #expect(replaced.message == """
            Re-recorded \(path) (record mode all) from a new live session: 3 entries. Review it, commit it, and re-run the test.

            The golden it replaced could not be read (sign-in.jsonl: line 1: not an ActionLog session header: invalid JSON at byte 1: unexpected character "o"), so its recorded service calls are not compared.
            """)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == before)
    }

    @Test("a call whose arguments are the same but whose answer changed is shown with both answers")
    func changedAnswer() {
        let old = ServiceCall(service: "ProductService", method: "addToBasket", arguments: ["p-7", 1], outcome: .returned(1), answered: 4)
        let new = ServiceCall(service: "ProductService", method: "addToBasket", arguments: ["p-7", 1], outcome: .returned(2), answered: 5)
        let dropped = ServiceCall(service: "ProductService", method: "fetchProduct", arguments: ["p-7"], outcome: .returned(.null), answered: 2)
        #expect(CallChanges.changes([dropped, old], [new]).map(\.1) == [.dropped(dropped), .changed(old, to: new)])
        var recorded = RecordedSession(session: Self.session, entries: [], source: .textFile("a.jsonl"))
        recorded.handlers = [HandlerRecord(seq: 3, started: 3, records: [.call(old)])]
        var now = recorded
        now.handlers = [HandlerRecord(seq: 3, started: 3, records: [.call(new)])]
        #expect(CallChanges(old: recorded, new: now).message == """
            Recorded service calls, entry by entry (0 kept, 1 changed, 0 dropped):
              entry 3 ?: changed call 0 ProductService.addToBasket("p-7", 1): returned 1 → returned 2
            """)
    }

    static let session = SessionHeader(name: "s", startedAt: Date(timeIntervalSince1970: 0), endedAt: nil, status: .recording, libraryVersion: "0",
        appVersion: nil, stateType: "S", actionType: "A", effectType: nil, metadata: [:], entryCount: 0, droppedCount: 0, lastEntryAt: nil)

    @Test("withZeroTimes clears every time and duration and keeps the rest; the text form reads it back")
    func zeroTimes() throws {
        let fixture = try RecordedSession(contentsOfJSONL: GoldenTests.fixtures.appendingPathComponent("sign-in.jsonl"))
        let zeroed = fixture.withZeroTimes()
        #expect(zeroed.entries.allSatisfy { $0.time == Date(timeIntervalSince1970: 0) && $0.reducerDuration == nil })
        #expect(zeroed.session.startedAt == Date(timeIntervalSince1970: 0) && zeroed.session.endedAt == Date(timeIntervalSince1970: 0))
        #expect(zeroed.entries.map(\.content) == fixture.entries.map(\.content))
        #expect(zeroed.handlers == fixture.handlers)
        let text = zeroed.jsonl()
        #expect(try RecordedSession(jsonl: text, file: "sign-in.jsonl").jsonl() == text)
        #expect(text.split(separator: "\n")[1] == #"{"seq":0,"kind":"keyframe","time":"1970-01-01T00:00:00.000000Z","state":{}}"#)
    }
}
