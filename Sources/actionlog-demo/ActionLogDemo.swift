import ActionLog
import ActionLogExamples
import ArgumentParser
import CommandLineSupport
import Foundation
import Replayer

/// `actionlog-demo`: records the example features, replays them, and says what it did. An executable
/// of its own, so that `replay-cli` does not link the examples.
@main
struct ActionLogDemo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "actionlog-demo",
        abstract: "Record scripted sessions of the example features into a journal, then replay them.",
        discussion: """
            The four example features, one per architecture: a Store with effects (city search), a state-machine \
            ViewModel (checkout), an actor ViewModel behind a Reducer front (product card) and an event ViewModel \
            (sign in). An existing journal keeps its sessions: the demo adds four more.

            Examples:
              actionlog-demo
              actionlog-demo --output /tmp/demo.actionlog
            """,
        version: ActionLogLibrary.version
    )

    /// ArgumentParser's `main` with checked help output and `SIGPIPE`'s default action.
    static func main() async {
        await checkedMain()
    }

    @Option(name: .shortAndLong, help: ArgumentHelp("The journal to write.", valueName: "path"), completion: .file(extensions: ["actionlog"]))
    var output = "demo.actionlog"

    func validate() throws {
        try refuseEmptyPath(output, "--output")
    }

    @MainActor
    func run() async throws {
        var configuration = RecorderConfiguration()
        configuration.appVersion = "actionlog-demo"
        configuration.onError = { error in Terminal.printError(error.description.displayEscaped) }

        let (citySearch, _) = try await reportingAsync { try await ExampleScripts.recordCitySearch(path: output, configuration: configuration) }
        let (checkout, _) = try await reportingAsync { try await ExampleScripts.recordCheckout(path: output, configuration: configuration) }
        let (productCard, _) = try await reportingAsync { try await ExampleScripts.recordProductCard(path: output, configuration: configuration) }
        let (signIn, _) = try await reportingAsync { try await ExampleScripts.recordSignIn(path: output, configuration: configuration) }

        let journal = try reportingErrors { () throws(ActionLogError) in try Journal(path: output) }
        var reports = try reportingErrors { () throws(ActionLogError) in
            [
                try Replay(journal: journal, session: citySearch, reducer: CitySearch.reduce).run(),
                try Replay(journal: journal, session: checkout, reducer: Checkout.reduce).run(),
            ]
        }
        let (productCardSession, signInSession) = try reportingErrors { () throws(ActionLogError) in
            (try journal.recordedSession(productCard), try journal.recordedSession(signIn))
        }
        reports.append(
            await ViewModelReplay<ProductCard, ProductCardAction>(recording: productCardSession, services: ["ProductService"]) { initial in
                let replayed = ExampleScripts.replayedProductCard(initial)
                return ReplayedViewModel(handle: replayed.handle, snapshot: replayed.snapshot)
            }.run())
        reports.append(
            await EventViewModelReplay<SignInViewEvent, SignInViewModelEvent>(recording: signInSession, services: ["AuthService"]) { emit in
                ExampleScripts.replayedSignIn(emit: emit)
            }.run())
        var text = BufferedOutput()
        for report in reports {
            try text.write(
                "Recorded \(report.sessionName.displayEscaped): \(report.session.entryCount) entries, \(report.session.status.rawValue)"
            )
        }
        for report in reports {
            // A report's description is escaped for a terminal already.
            try text.write(report.description)
        }
        // Commands that run as printed, from the directory the demo ran in (the package's, after
        // `swift run actionlog-demo`): the path quoted for a shell when it needs it.
        let path = shellQuoted(output).displayEscaped
        try text.write("""

            Journal: \(output.displayEscaped)
            Next:
              swift run replay-cli sessions \(path)
              swift run replay-cli log \(path) --session \(checkout)
              swift run replay-cli log \(path) --session \(productCard)
              swift run replay-cli state \(path) --session \(checkout) --at 5
              swift run replay-cli verify \(path)
            """)
        try text.flush()
        if reports.contains(where: { !$0.isMatch }) { throw ExitCode.failure }
    }
}

/// `reportingErrors` for the async recording scripts.
@MainActor
private func reportingAsync<T>(_ body: @MainActor () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch let error as ActionLogError {
        return try reportingErrors { () throws(ActionLogError) in throw error }
    }
}

/// `path` as one word of a POSIX shell that names the same file: as it is when it holds only
/// characters no shell treats specially, otherwise in single quotes (a quote inside written `'\''`);
/// a path that starts with `-` gets `./` before it, so that it is not read as an option.
func shellQuoted(_ path: String) -> String {
    let path = path.hasPrefix("-") ? "./" + path : path
    let plain = !path.isEmpty && path.unicodeScalars.allSatisfy { scalar in
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "_", "-", ".", "/", "+", "=", ":", ",", "@", "%": true
        default: false
        }
    }
    return plain ? path : "'" + path.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
}
