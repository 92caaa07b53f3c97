/// Gives an action a short, stable label for timelines: by default its enum case name.
///
/// Conform to override the label of your action type:
///
/// ```swift
/// extension AppAction: ActionLabeled {
///     var actionLabel: String { "app.\(caseName)" }
/// }
/// ```
///
/// The recorder asks for `actionLabel` anew for every action it records.
public protocol ActionLabeled {
    /// The label stored in the `label` column of the entry.
    var actionLabel: String { get }
}

/// The label the recorder stores for an action.
///
/// ```swift
/// ActionLabel.of(CitySearch.Input.queryChanged("par"))   // "queryChanged"
/// ```
///
/// Finding a case name takes a `Mirror` walk, which costs microseconds. So a ``Recorder`` labels each
/// distinct action once and remembers it (up to 1,024 of them): an action whose bytes are those of an
/// action it labelled before — the same case and payload, holding the same objects, which the
/// recorder keeps alive meanwhile — gets the same label. That label is the one a new walk would
/// find, because the walk reads only the case names along the payloads, which such an action
/// shares. Where the walk reads something that code can compute — a `customMirror`
/// (`CustomReflectable`), or the description of a case without payload (`CustomStringConvertible`,
/// `CustomDebugStringConvertible`, `TextOutputStreamable`) — the label is not remembered and each
/// action is walked. Neither is an ``ActionLabeled`` action's label, nor that of an action larger
/// than 64 bytes.
package enum ActionLabel {
    /// The case name of an enum action, following nested enum payloads with dots:
    /// `.input(.queryChanged("par"))` is `input.queryChanged`; an ``ActionLabeled`` action's own
    /// label. Other types use their type name.
    ///
    /// - Parameter action: the action.
    /// - Returns: its label.
    package static func of(_ action: Any) -> String {
        if let labeled = action as? ActionLabeled { return labeled.actionLabel }
        return caseNames(of: action, types: nil)
    }

    /// The case names of `action` (not an ``ActionLabeled`` one) joined with dots, or its type name.
    ///
    /// - Parameter types: what is known of the types met, to skip a `Mirror` where the type alone
    ///   decides; it also notes whether the label depends on more than the action's bytes.
    static func caseNames(of action: Any, types: LabelTypes?) -> String {
        func style(_ value: Any) -> Mirror.DisplayStyle? {
            if let types { return types.style(of: value) }
            return Mirror(reflecting: value).displayStyle
        }
        var parts: [String] = []
        var current: Any = action
        while parts.count < 8 {
            // A value whose type is known not to be an enum needs no mirror.
            if let types, types.style(of: current) != .enum { break }
            let mirror = Mirror(reflecting: current)
            guard mirror.displayStyle == .enum else { break }
            if let child = mirror.children.first, let label = child.label {
                parts.append(label)
                current = child.value
                // A payload of one value is that value; a payload of several is a tuple: stop there.
                if style(current) == .tuple { break }
            } else {
                types?.noteDescription(of: current)
                parts.append(String(describing: current))
                break
            }
        }
        if parts.isEmpty { return String(describing: type(of: action)) }
        return parts.joined(separator: ".")
    }
}
