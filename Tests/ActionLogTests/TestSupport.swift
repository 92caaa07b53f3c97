import Foundation
@testable import ActionLog

/// A fresh directory per test, removed when the value goes away.
final class TemporaryDirectory: Sendable {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("ActionLogTests-\(UUID().uuidString)", isDirectory: true)
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

// MARK: - A small feature to record

struct Counter: Codable, Equatable, Sendable {
    var count = 0
    var history: [Int] = []
    var label: String?
}

enum CounterAction: Codable, Equatable, Sendable {
    case increment
    case add(Int)
    case rename(to: String)
    case poison
}

enum CounterEffect: Codable, Equatable, Sendable {
    case save(count: Int)
}

func reduceCounter(_ state: inout Counter, _ action: CounterAction) -> CounterEffect? {
    switch action {
    case .increment:
        state.count += 1
    case .add(let amount):
        state.count += amount
    case .rename(let name):
        state.label = name
        return nil
    case .poison:
        break
    }
    state.history.append(state.count)
    return state.count % 5 == 0 ? .save(count: state.count) : nil
}

/// An action that refuses to encode when it is `.poison`, to exercise encoding failures.
struct PoisonRefused: Error, CustomStringConvertible {
    var description: String { "refused to encode" }
}

struct PoisonableAction: Codable, Equatable, Sendable {
    var action: CounterAction
    init(_ action: CounterAction) { self.action = action }
    func encode(to encoder: any Encoder) throws {
        if case .poison = action { throw PoisonRefused() }
        try action.encode(to: encoder)
    }
    init(from decoder: any Decoder) throws { action = try CounterAction(from: decoder) }
}

typealias CounterRecorder = Recorder<Counter, CounterAction, CounterEffect>

/// Collects errors reported by a recorder.
final class ErrorLog: Sendable {
    private let errors = Locked<[ActionLogError]>([])
    var all: [ActionLogError] { errors.withLock { $0 } }
    var handler: @Sendable (ActionLogError) -> Void {
        { error in self.errors.withLock { $0.append(error) } }
    }
}

/// A configuration that reports errors into `log` instead of standard error.
func configuration(_ log: ErrorLog, _ change: (inout RecorderConfiguration) -> Void = { _ in }) -> RecorderConfiguration {
    var configuration = RecorderConfiguration()
    configuration.onError = log.handler
    change(&configuration)
    return configuration
}

/// Runs SQL on a journal file through a separate connection, as another tool would.
func sql(_ path: String, _ statements: String) throws {
    let connection = try Connection(path: path, mode: .readWrite)
    try connection.execute(statements)
}

extension PoisonableAction: ActionLabeled {
    var actionLabel: String { ActionLabel.of(action) }
}
