import ActionLog
import Foundation

/// The JSON shapes the page reads, shared by the server's API and the report's embedded data, so
/// that the page reads both the same way. Every number comes from a file: it is written as it is,
/// or `null` when it cannot be JSON (a time that is not finite).
package enum ViewerJSON {
    package static func number(_ value: some BinaryInteger) -> JSONValue { .number(String(value)) }

    /// Seconds with microsecond precision, or `null` when not finite.
    package static func seconds(_ value: Double) -> JSONValue {
        guard value.isFinite else { return .null }
        return .number(String(format: "%.6f", value))
    }

    /// A journal's session as the session list shows it.
    package static func session(_ session: JournalSession) -> JSONValue {
        self.session(session.header, id: String(session.id))
    }

    /// A session as the session list shows it. `id` is a string, so that a report can name its
    /// sessions (`recorded`, `replayed`) as a journal numbers them.
    package static func session(_ session: SessionHeader, id: String) -> JSONValue {
        .object([
            "id": .string(id),
            "name": .string(session.name),
            "status": .string(session.status.rawValue),
            "entries": number(session.entryCount),
            "startedAt": seconds(session.startedAt.timeIntervalSince1970),
            "lastEntryAt": session.lastEntryAt.map { seconds($0.timeIntervalSince1970) } ?? .null,
            "duration": session.duration.map(seconds) ?? .null,
            "appVersion": session.appVersion.map(JSONValue.string) ?? .null,
            "dropped": number(session.droppedCount),
            "stateType": .string(session.stateType),
            "actionType": .string(session.actionType),
        ])
    }

    /// A timeline row: `[seq, offset seconds, label, kind, reducer nanoseconds, dropped]`, an array
    /// to keep a window (and a report) small.
    package static func row(_ entry: EntrySummary, startedAt: Date) -> JSONValue {
        .array([
            number(entry.seq),
            seconds(entry.time.timeIntervalSince(startedAt)),
            entry.label.map(JSONValue.string) ?? .null,
            .string(entry.kind.rawValue),
            entry.reducerDuration.map { number($0.saturatingNanoseconds) } ?? .null,
            entry.gap.map { number($0.dropped) } ?? .null,
        ])
    }

    /// An entry's handler record: its service calls and output events, as `replay-cli log --json` writes them.
    package static func handler(_ record: HandlerRecord?) -> JSONValue {
        record?.jsonValue ?? .null
    }

    /// What an entry changed, as patch operations.
    package static func change(_ patch: JSONPatch?) -> JSONValue {
        patch?.jsonValue ?? .array([])
    }

    /// A journal error as the API answers it: the whole sentence, and its parts for code.
    package static func error(_ error: ActionLogError) -> JSONValue {
        .object([
            "error": .string(error.description),
            "file": error.file.map(JSONValue.string) ?? .null,
            "session": error.session.map(number) ?? .null,
            "entry": error.entry.map(number) ?? .null,
        ])
    }

    /// A request error that no journal caused (a bad parameter, an unknown path).
    package static func error(_ message: String) -> JSONValue {
        .object(["error": .string(message)])
    }
}
