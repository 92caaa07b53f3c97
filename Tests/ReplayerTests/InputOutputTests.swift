import ActionLog
import Foundation
import Replayer
import Testing

// The Input-Output style: `transform(input:) -> Output`, streams in and streams out. It is journaled
// as an event ViewModel is: each input element is a view event, each output element an output event.

/// A password form: each input element answers with the form's verdict.
struct PasswordForm: Sendable {
    enum Input: Codable, Equatable, Sendable {
        case passwordChanged(String)
        case confirmationChanged(String)
    }

    enum Output: Codable, Equatable, Sendable {
        case verdict(canSubmit: Bool, hint: String?)
    }

    var minimumLength = 8

    /// Streams in, streams out: one verdict per input element.
    func transform(input: AsyncStream<Input>) -> AsyncStream<Output> {
        let minimumLength = minimumLength
        return AsyncStream { continuation in
            let task = Task {
                var password = ""
                var confirmation = ""
                for await element in input {
                    switch element {
                    case .passwordChanged(let text): password = text
                    case .confirmationChanged(let text): confirmation = text
                    }
                    let hint: String? =
                        password.count < minimumLength ? "At least \(minimumLength) characters"
                        : password != confirmation ? "The passwords differ" : nil
                    continuation.yield(.verdict(canSubmit: hint == nil, hint: hint))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

/// The glue between an Input-Output ViewModel and a journal: each input element goes into the
/// input stream, and ``send(_:)`` returns once the output element answering it came out and went to
/// the output's handler — so the output is journaled with its input (it is emitted during the
/// handler's turn).
actor TransformDriver<Input: Sendable, Output: Sendable> {
    private let feed: AsyncStream<Input>.Continuation
    private var answers: AsyncStream<Output>.Iterator
    private nonisolated let handler = Locked<(@Sendable (Output) -> Void)?>(nil)

    init(_ transform: (AsyncStream<Input>) -> AsyncStream<Output>) {
        let (inputs, feed) = AsyncStream.makeStream(of: Input.self)
        self.feed = feed
        answers = transform(inputs).makeAsyncIterator()
    }

    /// Where output elements go: the view, or a recorder's `emitted`.
    nonisolated func forwardOutputs(to handler: @escaping @Sendable (Output) -> Void) {
        self.handler.withLock { $0 = handler }
    }

    /// Sends `input`, and hands the output element that answers it to the output's handler.
    func send(_ input: Input) async {
        feed.yield(input)
        // The iterator shares its stream's storage: a copy reads the same elements.
        var reader = answers
        guard let output = await reader.next(isolation: self) else { return }
        handler.withLock { $0 }?(output)
    }
}

@Suite("The Input-Output style, journaled as event MVVM")
struct InputOutputTests {
    let directory = TemporaryDirectory()

    static let script: [PasswordForm.Input] = [
        .passwordChanged("hunter"), .passwordChanged("hunter22"), .confirmationChanged("hunter2"), .confirmationChanged("hunter22"),
    ]

    /// Records the script: each input element and the output answering it.
    func record(_ path: String) async throws {
        let driver = TransformDriver(PasswordForm().transform)
        let form = try await EventViewModelRecorder<PasswordForm.Input, PasswordForm.Output>(path: path, sessionName: "password form") {
            await driver.send($0)
        }
        driver.forwardOutputs { form.emitted($0) }
        for input in Self.script { form.send(input) }
        await form.settle()
        form.close()
    }

    static func replayed(minimumLength: Int) -> @MainActor @Sendable (@escaping @Sendable (PasswordForm.Output) -> Void) -> @Sendable (PasswordForm.Input) async -> Void {
        { emit in
            let driver = TransformDriver(PasswordForm(minimumLength: minimumLength).transform)
            driver.forwardOutputs(to: emit)
            return { await driver.send($0) }
        }
    }

    @Test("each input element is an entry with the output element that answered it, and a golden replays")
    func recordsAndReplays() async throws {
        let path = directory.path("password.actionlog")
        try await record(path)
        let recorded = try Journal(path: path).recordedSession(1)
        #expect(recorded.entries.compactMap(\.label) == ["passwordChanged", "passwordChanged", "confirmationChanged", "confirmationChanged"])
        #expect(recorded.handlers.map { $0.outputs.map(\.event.canonicalText) } == [
            #"{"verdict":{"canSubmit":false,"hint":"At least 8 characters"}}"#,
            #"{"verdict":{"canSubmit":false,"hint":"The passwords differ"}}"#,
            #"{"verdict":{"canSubmit":false,"hint":"The passwords differ"}}"#,
            #"{"verdict":{"canSubmit":true}}"#,
        ].map { [$0] })
        await assertReplay(golden: path, of: .eventViewModel(Self.replayed(minimumLength: 8)))
    }

    @Test("a changed rule is an output-event divergence at the first input it answers differently")
    func changedRuleFails() async throws {
        let path = directory.path("password.actionlog")
        try await record(path)
        let result = await verifyReplay(golden: path, of: .eventViewModel(Self.replayed(minimumLength: 6)))
        #expect(result.message == """
            Replay diverged at entry 1 of session 1 "password form" of password.actionlog (passwordChanged("hunter")).

              Output event 0:
                  PasswordForm.Output.verdict(
                    canSubmit: false,
                −   hint: "At least 8 characters"
                +   hint: "The passwords differ"
                  )

            (Recorded: −, Replayed: +)

            If the new behaviour is intended, record the session again and replace the golden.
            """)
    }
}
