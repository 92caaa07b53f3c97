@_exported import ActionLog

/// Writes the wrapper that journals a service's calls: `@Recordable` on a service protocol adds
/// `Recorded<Protocol>`, which conforms to it and passes every method through a ``RecordedService``
/// named after the protocol.
///
/// ```swift
/// import ActionLogMacros
///
/// @Recordable(errors: [ProductError.self])
/// protocol ProductService: Sendable {
///     func fetchProduct(id: String) async throws -> Product
///     func addToBasket(id: String, quantity: Int) async throws
/// }
///
/// // Recording: the calls go to the live service and are journaled with their answers.
/// let viewModel = ProductViewModel(service: RecordedProductService(live: LiveProductService()))
/// // Replay: they are answered from the journal; the live service is never called.
/// let replayed = ProductViewModel(service: RecordedProductService(live: UnreachableProductService()))
/// ```
///
/// The wrapper is what you would write by hand, one ``RecordedService/call(_:_:perform:)`` per
/// method: the journal names each call `ProductService.fetchProduct("p-7")`, and a golden recorded
/// with a hand-written wrapper of the same names replays with this one. It is as visible as the
/// protocol (`public`, `package` or internal).
///
/// Every requirement must be a method that is `async throws` (an untyped `throws`), not generic,
/// not static, without `inout` or variadic parameters, whose arguments are `Encodable & Sendable`
/// and whose result is `Codable & Sendable`: replay answers from the journal, and a call that is not
/// the recorded one throws. The macro names any requirement that breaks this, at the requirement.
///
/// - Parameter errors: the `Codable` error types the service throws, thrown again as themselves on
///   replay (see ``RecordedService/init(_:errors:)``).
@attached(peer, names: prefixed(Recorded))
public macro Recordable(errors: [any (Error & Codable).Type] = []) =
    #externalMacro(module: "ActionLogMacrosPlugin", type: "RecordableMacro")
