/// A state type that says which version of its shape it is, so that a reader built with an older
/// shape refuses a session recorded with a newer one instead of misreading it.
///
/// The recorder stores the version in the session's metadata under `"actionlog.stateVersion"`; replay refuses
/// a session whose recorded version is newer than today's. Bump it when a change to the state type
/// cannot be read by older code (a field removed or retyped).
///
/// ```swift
/// extension Cart: VersionedState {
///     static let stateVersion = 3
/// }
/// ```
public protocol VersionedState {
    /// The version of the state's shape; start at 1.
    static var stateVersion: Int { get }
}

/// Reading and writing the state version in session metadata.
package enum StateVersion {
    /// The session metadata key that holds the recorded state version.
    package static let metadataKey = "actionlog.stateVersion"

    /// The version of `type`, if it is a ``VersionedState``.
    ///
    /// - Parameter type: a state type.
    package static func of(_ type: Any.Type) -> Int? {
        (type as? any VersionedState.Type)?.stateVersion
    }

    /// `metadata` with the version of `type` added, when `type` has one.
    ///
    /// - Parameters:
    ///   - metadata: the session metadata, a JSON object.
    ///   - type: the recorded state type.
    package static func adding(_ type: Any.Type, to metadata: JSONValue) -> JSONValue {
        guard let version = of(type), case .object(var members) = metadata else { return metadata }
        members[metadataKey] = .number(String(version))
        return .object(members)
    }

    /// The state version recorded in `metadata`, if any.
    ///
    /// - Parameter metadata: the session metadata.
    package static func recorded(in metadata: JSONValue) -> Int? {
        guard case .number(let text)? = metadata[metadataKey] else { return nil }
        return Int(text)
    }
}
