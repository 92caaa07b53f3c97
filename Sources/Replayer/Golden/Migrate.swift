import ActionLog
import Foundation

/// What ``migrate(golden:sessionName:upcasters:as:filePath:)`` rewrote.
public struct MigrationReport: Sendable, Equatable, CustomStringConvertible {
    /// The golden as it was named.
    let golden: String
    /// The entries whose action was rewritten.
    public let rewritten: [Int]

    /// The report in one sentence: `Migrated fixtures/checkout.jsonl: rewrote the actions of entries 2, 5.`
    public var description: String {
        rewritten.isEmpty
            ? "Migrated \(golden): no action needed rewriting."
            : "Migrated \(golden): rewrote the actions of \(describeEntries(rewritten))."
    }
}

/// Moves a golden forward once: rewrites its recorded actions through `upcasters`, checks that each
/// decodes as today's `Action`, and writes the golden back, so the upcasters can be deleted.
///
/// States and effects are kept as recorded. An upcaster that turns one action into several cannot
/// be migrated (a golden keeps one action per entry): keep it in ``ReplayOptions/upcasters``.
///
/// ```swift
/// let report = try migrate(
///     golden: "fixtures/checkout.jsonl",
///     upcasters: [.renameCase("addItem", to: "addToCart")],
///     as: Checkout.Event.self
/// )
/// print(report)   // Migrated fixtures/checkout.jsonl: rewrote the actions of entries 2, 5.
/// ```
///
/// - Parameters:
///   - golden: the golden file, found as `verifyReplay(golden:of:sessionName:options:record:environment:filePath:)` finds it.
///   - sessionName: for a journal golden holding several sessions, the one to migrate.
///   - upcasters: the rewrites, applied in order.
///   - actionType: today's action type; every rewritten action must decode as it.
///   - filePath: the calling file, for finding a relative golden.
/// - Returns: which entries were rewritten.
/// - Throws: ``ReplayError`` for a missing golden or an upcaster that splits an action,
///   ``ReplayError`` for an action that does not decode even after upcasting, `ActionLogError` for
///   a damaged golden.
public func migrate<Action: Decodable>(
    golden: String, sessionName: String? = nil, upcasters: [Upcaster], as actionType: Action.Type,
    filePath: StaticString = #filePath
) throws -> MigrationReport {
    let file = GoldenFile(path: golden, testFile: "\(filePath)")
    guard file.exists else { throw ReplayError(.missingGolden, file: golden, "No golden at \(golden) to migrate.") }
    let recorded = try file.read(sessionName: sessionName)
    var entries: [Entry] = []
    var rewritten: [Int] = []
    for entry in recorded.entries {
        guard let action = entry.action else {
            entries.append(entry)
            continue
        }
        let upcast: [(label: String, action: JSONValue)]
        do { upcast = try upcasters.upcast(label: entry.label, action: action) } catch {
            throw recorded.failure(.upcastFailed, at: entry, "\(error)")
        }
        guard upcast.count == 1, let new = upcast.first else {
            throw recorded.failure(.notMigratable, at: entry, """
                the upcasters turn action "\(entry.label ?? "?")" into \(upcast.count) actions; a golden keeps \
                one action per entry, so keep these upcasters in ReplayOptions instead of migrating
                """)
        }
        do { _ = try new.action.decode(Action.self) } catch {
            throw recorded.failure(.actionDoesNotDecode, entry: entry.seq, label: new.label, JSONValue.describe(error, decoding: new.action))
        }
        if new.action != action || new.label != entry.label { rewritten.append(entry.seq) }
        entries.append(entry.replacing(content: entry.content, action: new.action, label: new.label))
    }
    if !rewritten.isEmpty {
        var migrated = RecordedSession(session: recorded.session, entries: entries, source: recorded.source)
        migrated.handlers = recorded.handlers  // An asynchronous session keeps its turns, calls and output events.
        try file.write(migrated)
    }
    return MigrationReport(golden: golden, rewritten: rewritten)
}
