import Foundation

/// The writer's ``ActionLabel``: labels each distinct action once and remembers it, by the action's
/// bytes (see ``ActionLabel`` for why that gives the label a new walk would). Not thread-safe: one
/// writer thread uses it.
final class ActionLabeler<Action> {
    /// Where the label of an action is in ``labels``, by the action's bytes.
    private var positions: [Bits: Int] = [:]
    private var labels: [String] = []
    /// The actions labelled, kept so that the objects they hold stay alive: equal bytes then mean
    /// the same objects, never a new one at a freed address.
    private var actions: [Action] = []
    private let types = LabelTypes()
    /// Whether each dynamic type met is ``ActionLabeled``.
    private var labeledTypes: [ObjectIdentifier: Bool] = [:]

    /// At most this many labels are remembered; then they are forgotten, and found again as needed.
    static var capacity: Int { 1024 }

    /// How many labels are remembered now. For tests.
    var remembered: Int { labels.count }

    /// The label of `action`: what `ActionLabel.of(action)` returns.
    func label(of action: Action) -> String {
        // `as Any` opens an existential `Action`: the dynamic type, not `any P`.
        let type = type(of: action as Any)
        let isLabeled = labeledTypes[ObjectIdentifier(type)] ?? {
            let isLabeled = type is ActionLabeled.Type
            labeledTypes[ObjectIdentifier(type)] = isLabeled
            return isLabeled
        }()
        if isLabeled, let labeled = action as? ActionLabeled { return labeled.actionLabel }
        // Actions larger than a key are walked every time.
        guard let key = Bits(action) else { return ActionLabel.caseNames(of: action, types: types) }
        if let position = positions[key] { return labels[position] }
        types.readsCode = false
        let label = ActionLabel.caseNames(of: action, types: types)
        if !types.readsCode {
            if labels.count >= Self.capacity {
                positions.removeAll(keepingCapacity: true)
                labels.removeAll(keepingCapacity: true)
                actions.removeAll(keepingCapacity: true)
            }
            positions[key] = labels.count
            labels.append(label)
            actions.append(action)
        }
        return label
    }
}

/// What the label walk needs to know of each type it meets, found once per type.
final class LabelTypes {
    private struct Traits {
        /// The display style of every value of the type; unused when ``customMirror``.
        var style: Mirror.DisplayStyle?
        /// `CustomReflectable`: each value says its own display style and children.
        var customMirror: Bool
        /// `String(describing:)` runs code of the type.
        var customDescription: Bool
    }

    private var traits: [ObjectIdentifier: Traits] = [:]
    /// Set when the walk read a custom mirror or description: the label may then depend on more
    /// than the action's bytes.
    var readsCode = false

    /// `Mirror(reflecting: value).displayStyle`, without a mirror when the type alone decides it.
    func style(of value: Any) -> Mirror.DisplayStyle? {
        let traits = self.traits(of: value)
        guard traits.customMirror else { return traits.style }
        readsCode = true
        return Mirror(reflecting: value).displayStyle
    }

    /// Notes that the walk describes `value` with `String(describing:)`.
    func noteDescription(of value: Any) {
        if traits(of: value).customDescription { readsCode = true }
    }

    private func traits(of value: Any) -> Traits {
        let type = type(of: value)
        if let known = traits[ObjectIdentifier(type)] { return known }
        let customMirror = type is CustomReflectable.Type
        let found = Traits(
            // Without a custom mirror, the style comes from the kind of type: enum, tuple, struct...
            style: customMirror ? nil : Mirror(reflecting: value).displayStyle,
            customMirror: customMirror,
            customDescription: type is CustomStringConvertible.Type || type is CustomDebugStringConvertible.Type
                || type is TextOutputStreamable.Type
        )
        traits[ObjectIdentifier(type)] = found
        return found
    }
}
