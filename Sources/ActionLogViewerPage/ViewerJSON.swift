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
        let metadata = metadata(session.metadata)
        return .object([
            "id": .string(id),
            "name": .string(session.name),
            "uuid": .string(session.uuid.uuidString.lowercased()),
            "status": .string(session.status.rawValue),
            "entries": number(session.entryCount),
            "startedAt": seconds(session.startedAt.timeIntervalSince1970),
            "lastEntryAt": session.lastEntryAt.map { seconds($0.timeIntervalSince1970) } ?? .null,
            "duration": session.duration.map(seconds) ?? .null,
            "appVersion": session.appVersion.map(JSONValue.string) ?? .null,
            "dropped": number(session.droppedCount),
            "stateType": .string(session.stateType),
            "actionType": .string(session.actionType),
            "metadata": metadata ?? .null,
            "metadataTooLarge": .bool(metadata == nil),
        ])
    }

    /// The most bytes of a session's metadata (its canonical JSON) the session list sends: past it,
    /// `metadata` is `null` and `metadataTooLarge` true, so that a list of 1,000 sessions stays small
    /// whatever a file holds.
    package static let metadataLimit = 8 << 10

    /// A session's metadata as sent: the value, or `nil` when its text is longer than ``metadataLimit``.
    static func metadata(_ metadata: JSONValue) -> JSONValue? {
        // Measured first, with a bound: a metadata of megabytes is not written out to be counted.
        guard metadata.measure(weightLimit: metadataLimit).isComplete, metadata.canonicalBytes.count <= metadataLimit else { return nil }
        return metadata
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

    /// What an entry changed, as patch operations; with the state before it, each operation that
    /// replaces or removes a value also has that value as `old` (an `add` that sets an existing
    /// member replaces it too).
    ///
    /// The operations are applied one by one to `before`, so that each old value is the one the
    /// operation met. The old values sent add up to at most ``oldValuesLimit`` (about the bytes of
    /// their JSON text); past it an operation has `"oldOmitted": true` instead, so that a patch that
    /// replaces a large value many times (after `copy`s) answers in bounded size.
    package static func change(_ patch: JSONPatch?, before: JSONValue? = nil) -> JSONValue {
        guard let patch else { return .array([]) }
        guard var document = before else { return patch.jsonValue }
        var budget = oldValuesLimit
        var applies = true
        var operations: [JSONValue] = []
        operations.reserveCapacity(patch.operations.count)
        for operation in patch.operations {
            guard case .object(var members) = operation.jsonValue else { continue }
            if applies, let old = replacedValue(operation, in: document) {
                let measure = old.measure(weightLimit: budget)
                if measure.isComplete, measure.weight <= budget {
                    members["old"] = old
                    budget -= measure.weight
                } else {
                    members["oldOmitted"] = .bool(true)
                    budget = 0
                }
            }
            // A patch that does not apply to the state before is the journal's to report (the
            // entry's state says so); the operations after it are sent without old values.
            if applies {
                do { try operation.perform(on: &document) } catch { applies = false }
            }
            operations.append(.object(members))
        }
        return .array(operations)
    }

    /// The most old values of one change sent, in all: about 4 MiB of JSON text.
    package static let oldValuesLimit = 4 << 20

    /// The value `operation` replaces or removes in `document`, if any.
    private static func replacedValue(_ operation: JSONPatch.Operation, in document: JSONValue) -> JSONValue? {
        switch operation {
        case .replace(let path, _), .remove(let path):
            return document.value(at: path)
        case .add(let path, _):
            // Adding to an array inserts; adding an object's member that exists, or the root, replaces it.
            if path.tokens.isEmpty { return document }
            guard let key = path.tokens.last, case .object(let members)? = document.value(at: path.parent) else { return nil }
            return members[key]
        case .move, .copy, .test:
            return nil
        }
    }

    /// The fields that differ between two states, as `replay-cli diff --json` lists them but with
    /// JSON Pointers as paths (the viewer's paths): `[{"path", "from", "to"}]`, a side left out
    /// where the field is absent.
    package static func differences(from earlier: JSONValue, to later: JSONValue) -> JSONValue {
        .array(earlier.differences(to: later).map { difference in
            var members: [String: JSONValue] = ["path": .string(difference.path.jsonPointer)]
            members["from"] = difference.recorded
            members["to"] = difference.replayed
            return .object(members)
        })
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
