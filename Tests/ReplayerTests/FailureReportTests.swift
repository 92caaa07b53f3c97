import ActionLog
import ActionLogExamples
import Foundation
import Replayer
import Testing

@Suite("Golden failure reports (ACTIONLOG_FAILURE_REPORTS)")
@MainActor
struct FailureReportTests {
    private func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("FailureReportTests-\(UUID().uuidString)/reports")
        return url
    }

    @Test("a diverging golden writes a report of the recorded and the replayed session, and the message names it")
    func divergenceWritesReport() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let result = verifyReplay(
            golden: "fixtures/checkout.jsonl",
            of: .reducer(regressedCheckout),
            record: .never,
            environment: ["ACTIONLOG_FAILURE_REPORTS": folder.path])
        let path = folder.appendingPathComponent("checkout.html").path
        #expect(result.message == GoldenTests.checkoutRegressionMessage + "\nReport: \(path)")
        let html = try String(contentsOfFile: path, encoding: .utf8)
        #expect(html.contains(#"<script type="application/json" id="actionlog-data">"#))
        #expect(html.contains(#""id":"recorded""#) && html.contains(#""id":"replayed""#))
        #expect(html.contains(#""name":"checkout (recorded)""#) && html.contains(#""name":"checkout (replayed)""#))
        #expect(html.contains(#""open":{"seq":4,"session":"recorded"}"#))
        // The replayed session holds today's total, the recorded one the golden's.
        #expect(html.contains(#""totalCents":67300"#) && html.contains(#""totalCents":67400"#))
        #expect(html.contains("Replay diverged at entry 4 of session"))
        #expect(!html.contains("http://") && !html.contains("https://"))
    }

    @Test("a diverging asynchronous golden writes a report of the recorded session at the diverging entry")
    func asyncDivergenceWritesReport() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let result = await verifyReplay(
            golden: "fixtures/product-card.jsonl",
            of: .viewModel(services: ["ProductService"], ArchitectureGoldenTests.productCard(quantityPerTap: 2)),
            environment: ["ACTIONLOG_FAILURE_REPORTS": folder.path])
        let path = folder.appendingPathComponent("product-card.html").path
        #expect(result.message == ArchitectureGoldenTests.productCardRegression + "\nReport: \(path)")
        let html = try String(contentsOfFile: path, encoding: .utf8)
        #expect(html.contains(#""name":"product card (recorded)""#))
        #expect(!html.contains(#""id":"replayed""#))
        #expect(html.contains(#""open":{"seq":5,"session":"recorded"}"#))
        #expect(html.contains("Replay diverged at entry 5 of session"))
    }

    @Test("without the variable, or when the golden passes, no report is written and the message is unchanged")
    func noReport() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let failing = verifyReplay(golden: "fixtures/checkout.jsonl", of: .reducer(regressedCheckout), record: .never, environment: [:])
        #expect(failing.message == GoldenTests.checkoutRegressionMessage)
        let passing = verifyReplay(
            golden: "fixtures/checkout.jsonl",
            of: .reducer(Checkout.reduce),
            record: .never,
            environment: ["ACTIONLOG_FAILURE_REPORTS": folder.path])
        #expect(passing.passed)
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }

    @Test("a folder that cannot be created is said in the message, and the test still fails with the divergence")
    func unwritableFolder() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("FailureReportTests-\(UUID().uuidString)")
        try Data().write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = verifyReplay(
            golden: "fixtures/checkout.jsonl",
            of: .reducer(regressedCheckout),
            record: .never,
            environment: ["ACTIONLOG_FAILURE_REPORTS": file.appendingPathComponent("reports").path])
        let message = try #require(result.message)
        #expect(message.hasPrefix(GoldenTests.checkoutRegressionMessage + "\nReport: not written ("))
    }
}
