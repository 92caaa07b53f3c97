/// Which kind of code recorded a session, as its metadata says: replay refuses to drive a session
/// with another kind, naming both.
package enum SessionArchitecture: String, Sendable, Hashable {
    /// A reducer (`Recorder`): no key in the metadata.
    case reducer
    /// An actor ViewModel behind a `Reducer` front (``ViewModelRecorder``).
    case actorViewModel
    /// An event ViewModel answering `ViewEvent`s with output events (``EventViewModelRecorder``).
    case eventViewModel

    /// The session metadata key that names the architecture.
    package static let metadataKey = "actionlog.architecture"
    /// The session metadata key that lists the recorded services' names.
    package static let servicesKey = "actionlog.services"
    /// The session metadata key that names the output event type of an event ViewModel.
    package static let outputTypeKey = "actionlog.outputType"
    /// The reserved service name of ``RecordedClock``'s sleeps. Every ViewModel may use the clock,
    /// so it is never listed: ``adding(services:outputType:to:)`` leaves it out of the metadata,
    /// and ``declared(_:)`` out of what is compared.
    package static let clockService = "RecordedClock"

    /// The services of `names` that must be listed, sorted: all but the reserved ``clockService``.
    /// What the check of a replay's `services:` against the recorded ones compares, on both sides.
    package static func declared(_ names: [String]) -> [String] {
        names.filter { $0 != clockService }.sorted()
    }

    /// How messages name it: `an actor ViewModel`.
    package var phrase: String {
        switch self {
        case .reducer: "a reducer"
        case .actorViewModel: "an actor ViewModel"
        case .eventViewModel: "an event ViewModel"
        }
    }

    /// Whether every entry of such a session after the first, but a gap, has a handler record (its
    /// service calls and its place in the run order): the asynchronous architectures.
    package var recordsHandlers: Bool { self != .reducer }

    /// The one wording of that rule broken, for `verify` and the text form's reader.
    package var missingHandlerRecord: String {
        "no handler record, which every entry of \(phrase) session after the first has (its service calls and its place in the run order)"
    }

    /// The architecture `metadata` names; `nil` when it names one this library does not know.
    package static func of(_ metadata: JSONValue) -> (architecture: SessionArchitecture?, raw: String) {
        guard case .object(let members) = metadata, let value = members[metadataKey] else { return (.reducer, "reducer") }
        guard case .string(let raw) = value else { return (nil, value.canonicalText) }
        return (SessionArchitecture(rawValue: raw), raw)
    }

    /// The service names `metadata` lists (empty when none are listed); `nil` when the list is not
    /// an array of strings.
    package static func services(in metadata: JSONValue) -> [String]? {
        guard case .object(let members) = metadata, let value = members[servicesKey] else { return [] }
        guard case .array(let names) = value else { return nil }
        var result: [String] = []
        for name in names {
            guard case .string(let text) = name else { return nil }
            result.append(text)
        }
        return result
    }

    /// `metadata` with this architecture, the services and the output type added.
    package func adding(services: [String], outputType: String?, to metadata: JSONValue) -> JSONValue {
        guard case .object(var members) = metadata else { return metadata }
        members[Self.metadataKey] = .string(rawValue)
        members[Self.servicesKey] = .array(Self.declared(services).map(JSONValue.string))
        if let outputType { members[Self.outputTypeKey] = .string(outputType) }
        return .object(members)
    }
}
