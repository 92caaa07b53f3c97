import Foundation

/// Journals the calls to one service, and answers them from the journal on replay: the line a
/// service wrapper writes per method.
///
/// Write a wrapper that conforms to your service protocol and passes each method through
/// `call(_:_:perform:)`:
///
/// ```swift
/// protocol ProductService: Sendable {
///     func fetchProduct(id: String) async throws -> Product
///     func addToBasket(id: String, quantity: Int) async throws
/// }
///
/// struct RecordedProductService: ProductService {
///     let live: any ProductService
///     let recorded = RecordedService("ProductService", errors: [ProductError.self])
///
///     func fetchProduct(id: String) async throws -> Product {
///         try await recorded.call("fetchProduct", id) { try await live.fetchProduct(id: id) }
///     }
///     func addToBasket(id: String, quantity: Int) async throws {
///         try await recorded.call("addToBasket", id, quantity) { try await live.addToBasket(id: id, quantity: quantity) }
///     }
/// }
/// ```
///
/// What a call does depends on the handler that makes it:
///
/// - in a handler run by a ``ViewModelRecorder`` or ``EventViewModelRecorder``, the live service is
///   called, and the call (service, method, arguments, then the result or the thrown error) is
///   journaled with the entry of the action whose handler made it;
/// - in a handler replayed by the Replayer, the live service is never called: the call is checked
///   against the recorded one (same method, same arguments, in the same order within the entry) and
///   the recorded answer is returned, or the recorded error thrown;
/// - anywhere else, the live service is called and nothing is journaled.
///
/// A thrown error is journaled as `{"type": "…", "value": …}` when its type is `Codable` (its
/// value only, so that redacted fields stay redacted), and as `{"type": "…", "description": "…"}`
/// otherwise, with `"localizedDescription"` when that reads differently (a `LocalizedError`, a
/// Foundation error). On replay:
/// - an error of a type given in `errors` is decoded and thrown as that type, so
///   `catch ProductError.notFound` behaves as it did;
/// - a `CancellationError` (a call cancelled with its task) is thrown as a `CancellationError`, so
///   `catch is CancellationError` behaves as it did;
/// - any other is thrown as a ``ActionLogError`` of code ``ActionLogError/Code/recordedError``, whose `description` and
///   `localizedDescription` read as the recorded error's did.
public struct RecordedService: Sendable {
    /// The service's name in the journal: `ProductService`.
    package let name: String
    let errorTypes: [ErrorTypeBox]

    /// Names a service whose calls are journaled.
    ///
    /// ```swift
    /// let recorded = RecordedService("ProductService", errors: [ProductError.self])
    /// ```
    ///
    /// - Parameters:
    ///   - name: the service's name in the journal; replay matches calls by this name and the method's.
    ///   - errors: the `Codable` error types the service throws, thrown again as themselves on replay.
    public init(_ name: String, errors: [any (Error & Codable).Type] = []) {
        self.name = name
        self.errorTypes = errors.map(ErrorTypeBox.init)
    }

    /// Calls `perform` (the live service) and journals the call, or, on replay, answers from the journal.
    ///
    /// ```swift
    /// try await recorded.call("fetchProduct", id) { try await live.fetchProduct(id: id) }
    /// ```
    ///
    /// - Parameters:
    ///   - method: the method's name in the journal.
    ///   - arguments: the arguments, each encoded as canonical JSON and compared on replay.
    ///   - perform: the live call. Not called on replay.
    /// - Returns: what the live service returned, or on replay the recorded result.
    /// - Throws: what the live service threw, or on replay the recorded error; on replay, a
    ///   ``ActionLogError`` of code ``ActionLogError/Code/serviceCallDiverged`` when the call is not the one recorded, which the replay reports.
    public func call<Result: Codable & Sendable>(
        _ method: String, _ arguments: any (Encodable & Sendable)..., perform: () async throws -> Result
    ) async throws -> Result {
        guard let run = HandlerRun.current else { return try await perform() }
        let dates = run.host.dates
        let request = CallRequest(
            service: name, method: method, arguments: arguments.map { Self.encode($0, dates: dates) }, errorTypes: errorTypes)
        return try await run.host.call(request, in: run, live: perform)
    }

    /// `call(_:_:perform:)` for a method that returns nothing (journaled as the result `null`).
    ///
    /// ```swift
    /// try await recorded.call("addToBasket", id, quantity) { try await live.addToBasket(id: id, quantity: quantity) }
    /// ```
    ///
    /// - Parameters:
    ///   - method: the method's name in the journal.
    ///   - arguments: the arguments, each encoded as canonical JSON and compared on replay.
    ///   - perform: the live call. Not called on replay.
    /// - Throws: what the live service threw, or on replay the recorded error or a ``ActionLogError`` of code ``ActionLogError/Code/serviceCallDiverged``.
    public func call(_ method: String, _ arguments: any (Encodable & Sendable)..., perform: () async throws -> Void) async throws {
        guard let run = HandlerRun.current else { return try await perform() }
        let dates = run.host.dates
        let request = CallRequest(
            service: name, method: method, arguments: arguments.map { Self.encode($0, dates: dates) }, errorTypes: errorTypes)
        _ = try await run.host.call(request, in: run) { () async throws -> NoResult in
            try await perform()
            return NoResult()
        }
    }

    /// An argument's JSON; one that does not encode is journaled as a string saying so.
    static func encode(_ argument: any Encodable & Sendable, dates: DateConvention = .iso8601) -> JSONValue {
        do {
            return try JSONValueEncoder(dates: dates).encode(argument)
        } catch {
            return .string("<does not encode: \(EncodingFailure.describe(error))>")
        }
    }

    /// How a thrown error is journaled: its type, and its value when it is `Codable`; else its
    /// description, and its localized description when that differs.
    package static func encode(error: any Error) -> JSONValue {
        let type = String(reflecting: Swift.type(of: error))
        // Only a type that also decodes can be thrown again as itself (`errors:`); one that only
        // encodes keeps its description, which is all a replay can give back of it.
        if let codable = error as? any Codable, let value = try? JSONValueEncoder().encode(codable) {
            return .object(["type": .string(type), "value": value])
        }
        let description = String(describing: error)
        var members: [String: JSONValue] = ["type": .string(type), "description": .string(description)]
        let localized = error.localizedDescription
        if localized != description { members["localizedDescription"] = .string(localized) }
        return .object(members)
    }
}

/// The result of a service method that returns nothing: journaled as `null`.
struct NoResult: Codable, Sendable {
    init() {}
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard container.decodeNil() else {
            throw DecodingError.typeMismatch(NoResult.self, .init(codingPath: [], debugDescription: "expected null for a method that returns nothing"))
        }
    }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encodeNil()
    }
}

extension ActionLogError {
    /// The error a replayed service call throws when the recorded error's type was not given to
    /// ``RecordedService/init(_:errors:)``: ``Code/recordedError``, naming the type, reading as the
    /// recorded error did.
    ///
    /// - Parameters:
    ///   - type: `String(reflecting:)` of the recorded error's type.
    ///   - message: the recorded error: its description, or its JSON for a `Codable` error of a type
    ///     not declared in `errors:` (a `Codable` error is journaled as its value only).
    ///   - localizedDescription: its localized description, when that differed from `message`.
    package static func recordedError(type: String, message: String, localizedDescription: String? = nil) -> ActionLogError {
        ActionLogError(.recordedError, reason: message, recordedType: type, recordedLocalizedDescription: localizedDescription)
    }

    /// What a replayed handler's service call throws when it is not the recorded one
    /// (``Code/serviceCallDiverged``): `entry 2: called ProductService.fetchProduct("p-8"), but the
    /// recording has ProductService.fetchProduct("p-7")`.
    ///
    /// - Parameters:
    ///   - seq: the entry whose handler made the call.
    ///   - recorded: what was recorded at that place, `nil` when nothing was.
    ///   - made: the call made.
    package static func serviceCallDiverged(seq: Int, recorded: String?, made: String) -> ActionLogError {
        ActionLogError(
            .serviceCallDiverged, entry: seq,
            reason: "called \(made), but \(recorded.map { "the recording has \($0)" } ?? "the recording has no more calls")")
    }
}
