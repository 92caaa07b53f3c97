import Observation

/// A stored property observed by hand: what `@Observable` writes for one property, with its
/// registrar only where the system has Observation (macOS 14, iOS 17, tvOS 17, watchOS 10 and
/// later), so that its owner runs the same, unobserved, on the systems before.
///
/// ```swift
/// public private(set) var state: State {
///     get { observed.read(self, \.state) }
///     _modify { observed.willSet(self, \.state); defer { observed.didSet(self, \.state) }; yield &observed.value }
/// }
/// private var observed: ObservedValue<State>
/// ```
///
/// The owner declares `@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) extension Owner: Observable {}`.
package struct ObservedValue<Value> {
    /// The value itself; read and change it through the owner's property, which tells observers.
    package var value: Value
    /// An `ObservationRegistrar` where the system has one, `nil` before.
    private let registrar: Any? =
        if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) { ObservationRegistrar() } else { nil }

    package init(_ value: Value) { self.value = value }

    /// The value, after telling observers that `owner`'s `keyPath` was read.
    package func read<Owner: AnyObject>(_ owner: Owner, _ keyPath: KeyPath<Owner, Value>) -> Value {
        tell(.read, owner, keyPath)
        return value
    }

    /// Tells observers that `owner`'s `keyPath` is read and about to change.
    package func willSet<Owner: AnyObject>(_ owner: Owner, _ keyPath: KeyPath<Owner, Value>) {
        tell(.willSet, owner, keyPath)
    }

    /// Tells observers that `owner`'s `keyPath` changed.
    package func didSet<Owner: AnyObject>(_ owner: Owner, _ keyPath: KeyPath<Owner, Value>) {
        tell(.didSet, owner, keyPath)
    }

    private enum Event { case read, willSet, didSet }

    /// Tells the registrar, where the system has one and the owner is `Observable`.
    private func tell<Owner: AnyObject>(_ event: Event, _ owner: Owner, _ keyPath: KeyPath<Owner, Value>) {
        guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *), let registrar = registrar as? ObservationRegistrar,
            let owner = owner as? any Observable
        else { return }
        Self.tell(event, registrar, owner, keyPath)
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    private static func tell<Owner: Observable>(_ event: Event, _ registrar: ObservationRegistrar, _ owner: Owner, _ keyPath: AnyKeyPath) {
        guard let keyPath = keyPath as? KeyPath<Owner, Value> else { return }
        switch event {
        case .read:
            registrar.access(owner, keyPath: keyPath)
        case .willSet:
            registrar.access(owner, keyPath: keyPath)
            registrar.willSet(owner, keyPath: keyPath)
        case .didSet:
            registrar.didSet(owner, keyPath: keyPath)
        }
    }
}
