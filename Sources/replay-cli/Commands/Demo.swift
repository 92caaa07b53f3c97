import ActionLog
import ActionLogExamples
import ArgumentParser
import Foundation
import Replayer

/// `replay-cli demo`: records the example features, replays them, and says what it did.
struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record scripted sessions of the example features into a journal, then replay them.",
        discussion: "An existing journal keeps its sessions: the demo adds two more."
    )

    @Option(name: .shortAndLong, help: "The journal to write.")
    var output = "demo.actionlog"

    @MainActor
    func run() async throws {
        var configuration = RecorderConfiguration()
        configuration.appVersion = "replay-cli demo"
        configuration.onError = { error in Terminal.printError(error.description) }

        let (citySearch, _) = try await reportingAsync { try await ExampleScripts.recordCitySearch(path: output, configuration: configuration) }
        let (checkout, _) = try await reportingAsync { try await ExampleScripts.recordCheckout(path: output, configuration: configuration) }

        let journal = try JournalOptions(file: output).open()
        let reports = try reportingErrors { () throws(JournalError) in
            [
                try Replay(journal: journal, session: citySearch, reducer: CitySearch.reduce).run(),
                try Replay(journal: journal, session: checkout, reducer: Checkout.reduce).run(),
            ]
        }
        for report in reports {
            print("Recorded session \(report.session.id) \"\(report.session.name)\": \(report.session.entryCount) entries, \(report.session.status.rawValue)")
        }
        for report in reports {
            print(report.description)
        }
        print("""

            Journal: \(output)
            Next:
              replay-cli sessions \(output)
              replay-cli log \(output) --session \(checkout)
              replay-cli state \(output) --session \(checkout) --at 5
              replay-cli verify \(output)
            """)
        if reports.contains(where: { !$0.isMatch }) { throw ExitCode.failure }
    }
}

/// `reportingErrors` for the async recording scripts.
@MainActor
private func reportingAsync<T>(_ body: @MainActor () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch let error as JournalError {
        return try reportingErrors { () throws(JournalError) in throw error }
    }
}

extension JournalOptions {
    init(file: String) {
        self.init()
        self.file = file
    }
}
