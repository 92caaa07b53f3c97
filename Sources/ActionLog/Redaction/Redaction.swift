/// A session's redacted paths (``RecorderConfiguration/redactedPaths``), sorted by what they are
/// anchored at: one ``Redactor`` for the state and one for each kind of message. The recorder
/// redacts what it writes with it; replay redacts what it replays the same way before comparing,
/// so that placeholders meet placeholders.
///
/// ```swift
/// let redaction = try Redaction(paths: ["/user/token", "action:/signedIn/token"], file: "app.actionlog")
/// redaction.actions.keyframe(["signedIn": ["token": "s3cret"]])   // {"signedIn":{"token":"<redacted>"}}
/// ```
///
/// Each redactor is ``Redactor/isEmpty`` when no path has its scope, and redacting with an empty
/// one returns its input: recording costs nothing more for a kind of message no path names.
package struct Redaction: Sendable {
    /// Every path, as configured or read from the session's metadata, in their order.
    package let paths: [RedactedPath]
    /// The paths anchored at the state.
    package let state: Redactor
    /// Anchored at each action, at its case.
    package let actions: Redactor
    /// Anchored at each effect, at its case.
    package let effects: Redactor
    /// Anchored at each output event of an event ViewModel, at its case.
    package let outputs: Redactor
    /// Anchored at each service call: `/<service>/<method>/arguments/<index>`, `/result`, `/error`.
    package let calls: Redactor

    /// No path: everything is written as it is.
    package static let none = Redaction(checked: [])

    /// The session metadata key that lists the redacted paths, an array of strings as written.
    package static let metadataKey = "actionlog.redactedPaths"

    private init(checked paths: [RedactedPath]) {
        self.paths = paths
        func scoped(_ scope: RedactedPath.Scope) -> Redactor {
            Redactor(checked: paths.filter { $0.scope == scope })
        }
        state = scoped(.state)
        actions = scoped(.action)
        effects = scoped(.effect)
        outputs = scoped(.output)
        calls = scoped(.call)
    }

    /// The redaction of paths given by the app; refuses a path that is not one.
    ///
    /// - Parameters:
    ///   - paths: the configured paths.
    ///   - file: the journal's file name, for the error.
    /// - Throws: ``ActionLogError`` with code ``ActionLogError/Code/invalidArgument`` naming the first
    ///   path that does not parse, has an unknown scope, or is deeper than ``Redactor/maximumDepth``.
    package init(paths: [RedactedPath], file: String) throws(ActionLogError) {
        for path in paths {
            if let reason = Redactor.problem(with: path) {
                throw ActionLogError(.invalidArgument, file: file, reason: "the redacted path \(JSONPatch.quoted(path.description)) \(reason)")
            }
        }
        self.init(checked: paths)
    }

    /// The redaction of a recorded session, from its metadata (``metadataKey``); ``none`` when the
    /// metadata lists no path.
    ///
    /// - Parameter metadata: the session's metadata.
    /// - Returns: the redaction, or why the list cannot be read (a phrase).
    package static func recorded(in metadata: JSONValue) -> Result<Redaction, RedactionMetadataError> {
        guard let listed = metadata[metadataKey] else { return .success(.none) }
        guard case .array(let items) = listed else {
            return .failure(RedactionMetadataError(reason: "\"\(metadataKey)\" is \(JSONPatch.describeType(listed)), not an array of paths"))
        }
        var paths: [RedactedPath] = []
        for item in items {
            guard case .string(let text) = item else {
                return .failure(RedactionMetadataError(reason: "\"\(metadataKey)\" holds \(JSONPatch.describeType(item)), not a path"))
            }
            let path = RedactedPath(text)
            if let reason = Redactor.problem(with: path) {
                return .failure(RedactionMetadataError(reason: "\"\(metadataKey)\" holds \(JSONPatch.quoted(text)), which \(reason)"))
            }
            paths.append(path)
        }
        return .success(Redaction(checked: paths))
    }

    /// Whether there is no path at all.
    package var isEmpty: Bool { paths.isEmpty }

    /// `metadata` with the paths listed under ``metadataKey``; `metadata` itself when there is no
    /// path, `nil` when there are paths and `metadata` is not an object.
    ///
    /// - Parameter metadata: the session's metadata, a JSON object.
    package func listing(in metadata: JSONValue) -> JSONValue? {
        guard !isEmpty else { return metadata }
        guard case .object(var members) = metadata else { return nil }
        members[Self.metadataKey] = .array(paths.map { .string($0.description) })
        return .object(members)
    }

    // MARK: - Service calls and output events

    /// `record` with its calls' arguments, results and errors and its output events redacted;
    /// `record` itself when no path names calls or output events.
    ///
    /// - Parameter record: what a handler did, as the recorder took it.
    package func handler(_ record: HandlerRecord?) -> HandlerRecord? {
        guard var record, !calls.isEmpty || !outputs.isEmpty else { return record }
        for index in record.records.indices {
            switch record.records[index] {
            case .call(let call):
                record.records[index] = .call(self.call(call))
            case .output(var output):
                output.event = outputs.keyframe(output.event)
                record.records[index] = .output(output)
            }
        }
        return record
    }

    /// `call` with its arguments and its answer redacted.
    ///
    /// - Parameter call: a service call as made and answered.
    package func call(_ call: ServiceCall) -> ServiceCall {
        guard !calls.isEmpty else { return call }
        var call = call
        call.arguments = arguments(call.arguments, service: call.service, method: call.method)
        let anchor = JSONPointer(tokens: [call.service, call.method])
        switch call.outcome {
        case .returned(let value): call.outcome = .returned(calls.value(value, at: anchor.appending("result")))
        case .threw(let error): call.outcome = .threw(calls.value(error, at: anchor.appending("error")))
        }
        return call
    }

    /// The arguments of a call to `service`'s `method`, redacted: what the journal holds of them,
    /// and what a replayed call's arguments are compared as.
    ///
    /// - Parameters:
    ///   - arguments: the arguments' JSON, in order.
    ///   - service: the service's name.
    ///   - method: the method's name.
    package func arguments(_ arguments: [JSONValue], service: String, method: String) -> [JSONValue] {
        guard !calls.isEmpty else { return arguments }
        let anchor = JSONPointer(tokens: [service, method, "arguments"])
        return arguments.enumerated().map { index, argument in calls.value(argument, at: anchor.appending(String(index))) }
    }
}

extension Redactor {
    /// Says that a recorded value did not decode because a path made it a placeholder: `the value
    /// at /signedIn/token was redacted when it was recorded (by "action:/signedIn/token"), and its
    /// placeholder does not decode into today's type`; `nil` when the place where decoding failed is
    /// not redacted.
    ///
    /// - Parameters:
    ///   - error: what decoding the recorded value threw.
    ///   - anchor: where the value is, in the terms of this redactor's paths (`["AuthService",
    ///     "signIn", "result"]` for a call's result; nothing for an action, an effect or a state).
    package func placeholderNote(for error: any Error, at anchor: [String] = []) -> String? {
        guard !isEmpty, let error = error as? DecodingError else { return nil }
        let context: DecodingError.Context
        switch error {
        case .typeMismatch(_, let found), .valueNotFound(_, let found), .dataCorrupted(let found), .keyNotFound(_, let found): context = found
        @unknown default: return nil
        }
        let place = FieldPath(anchor.map { .key($0) } + FieldPath(codingPath: context.codingPath).components)
        guard let path = covering(place) else { return nil }
        return """
            the value at \(JSONPointer(place)) was redacted when it was recorded (by \(JSONPatch.quoted(path.description))), \
            and its placeholder does not decode into today's type
            """
    }
}

/// Why a session's list of redacted paths cannot be read.
package struct RedactionMetadataError: Error, Sendable {
    /// A phrase: `"actionlog.redactedPaths" holds a number, not a path`.
    package let reason: String
}
