/// Gives an action a short, stable label for timelines: by default its enum case name.
///
/// Conform to override the label of your action type:
///
/// ```swift
/// extension AppAction: ActionLabeled {
///     var actionLabel: String { "app.\(caseName)" }
/// }
/// ```
public protocol ActionLabeled {
    /// The label stored in the `label` column of the entry.
    var actionLabel: String { get }
}

/// The label the recorder stores for an action.
///
/// ```swift
/// ActionLabel.of(CitySearch.Input.queryChanged("par"))   // "queryChanged"
/// ```
public enum ActionLabel {
    /// The case name of an enum action, following nested enum payloads with dots:
    /// `.input(.queryChanged("par"))` is `input.queryChanged`; an ``ActionLabeled`` action's own
    /// label. Other types use their type name.
    ///
    /// - Parameter action: the action.
    /// - Returns: its label.
    public static func of(_ action: Any) -> String {
        if let labeled = action as? ActionLabeled { return labeled.actionLabel }
        var parts: [String] = []
        var current: Any = action
        while parts.count < 8 {
            let mirror = Mirror(reflecting: current)
            guard mirror.displayStyle == .enum else { break }
            if let child = mirror.children.first, let label = child.label {
                parts.append(label)
                current = child.value
                // A payload of one value is that value; a payload of several is a tuple: stop there.
                if Mirror(reflecting: current).displayStyle == .tuple { break }
            } else {
                parts.append(String(describing: current))
                break
            }
        }
        if parts.isEmpty { return String(describing: type(of: action)) }
        return parts.joined(separator: ".")
    }
}
