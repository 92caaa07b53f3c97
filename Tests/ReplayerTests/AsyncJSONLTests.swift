import ActionLog
import Foundation
import Replayer
import Testing

@Suite("Async sessions in text form (JSONL goldens)")
struct AsyncJSONLTests {
    let directory = TemporaryDirectory()

    @Test("an entry's line carries its handler record; export, read and import keep it, and the text replays")
    func roundTrip() async throws {
        let path = directory.path("product.actionlog")
        let id = try await recordProductSession(path: path, script: overlappingScript)
        let recorded = try Journal(path: path).recordedSession(id)
        let text = recorded.jsonl()
        let lines = text.split(separator: "\n").map(String.init)
        let line = try #require(lines.first { $0.contains(#""label":"viewDidLoad""#) })
        let handler = try #require(line.range(of: #""handler":"#).map { line[$0.lowerBound...] })
        #expect(handler.hasPrefix(#"""
            "handler":{"records":[{"call":{"answered":2,"arguments":["p-7"],"method":"fetchProduct","result":{"id":"p-7","name":"Lamp p-7","priceCents":1999},"service":"ProductService"}}],"started":0},"state":
            """#))

        let read = try RecordedSession(jsonl: text, file: "product.jsonl")
        #expect(read.handlers == recorded.handlers)
        #expect(read.jsonl() == text)
        let report = await productReplay(read).run()
        #expect(report.description == #"Replayed 3 of 3 actions of session "product card" of product.jsonl: no divergence."#)

        let file = directory.url.appendingPathComponent("product.jsonl")
        try text.write(to: file, atomically: true, encoding: .utf8)
        let imported = try Journal.importJSONL(at: file, into: directory.path("imported.actionlog"))
        let journal = try Journal(path: directory.path("imported.actionlog"))
        #expect(try journal.handlerRecords(in: imported) == recorded.handlers)
        let golden = await verifyReplay(golden: file.path, of: .viewModel(services: ["ProductService"]) { (initial: ProductSnapshot) in
            let state = ProductState(initial)
            let viewModel = ProductViewModel(state: state, service: RecordedProductService(live: OfflineProductService()))
            return ReplayedViewModel(handle: { (action: ProductAction) in await viewModel.handle(action) }, snapshot: { state.snapshot })
        })
        #expect(golden.passed, "\(golden.message ?? "")")
        var exported = Data()
        try journal.exportJSONL(imported, write: { exported.append(contentsOf: $0) })
        #expect(String(decoding: exported, as: UTF8.self) == text)
    }

    @Test("migrating an async golden with upcasters keeps its calls and turns")
    func migrateKeepsHandlers() async throws {
        let path = directory.path("product.actionlog")
        let id = try await recordProductSession(path: path, script: overlappingScript)
        let recorded = try Journal(path: path).recordedSession(id)
        let old = recorded.jsonl()
            .replacingOccurrences(of: #"{"addToBasket":{}}"#, with: #"{"addToCart":{}}"#)
            .replacingOccurrences(of: #""label":"addToBasket""#, with: #""label":"addToCart""#)
        let file = directory.url.appendingPathComponent("old.jsonl")
        try old.write(to: file, atomically: true, encoding: .utf8)
        let report = try migrate(golden: file.path, upcasters: [.renameCase("addToCart", to: "addToBasket")], as: ProductAction.self)
        #expect(report.rewritten == [3])
        let migrated = try RecordedSession(contentsOfJSONL: file)
        #expect(migrated.handlers == recorded.handlers)
        #expect(await productReplay(migrated).run().isMatch)
    }

    @Test("a damaged handler member is refused naming the file, the entry and the line")
    func damagedHandler() async throws {
        let path = directory.path("sign-in.actionlog")
        let id = try await recordSignInSession(path: path, script: [.viewDidLoad])
        let text = try Journal(path: path).recordedSession(id).jsonl().replacingOccurrences(of: #""started":0"#, with: #""started":-1"#)
        let error = #expect(throws: ActionLogError.self) { try RecordedSession(jsonl: text, file: "sign-in.jsonl") }
        #expect(error?.description == "sign-in.jsonl, entry 1: line 3: started is not a whole number from 0 to 2147483647")
    }
}
