/// An entry that changed the value at a path of the state: one answer to "which action changed
/// this field", from ``Journal/changes(to:in:through:becoming:limit:)``.
///
/// ```swift
/// for change in try journal.changes(to: JSONPointer("/cart/total")!, in: session.id) {
///     print(change.seq, change.label ?? "", change.oldValue?.canonicalText ?? "absent",
///           "→", change.newValue?.canonicalText ?? "absent")
/// }
/// ```
public struct FieldChange: Sendable, Hashable {
    /// The entry whose action changed the value.
    public let seq: Int
    /// The action's number, counting the actions gaps lost (see ``Journal/seq(ofAction:in:)``).
    public let action: Int
    /// The action's case name.
    public let label: String?
    /// What the entry's change touched: the path asked about, a parent of it (replaced or
    /// reordered as a whole) or children of it; `""` is the whole state, when what changed is not
    /// known.
    public let touchedPaths: [JSONPointer]
    /// The value at the path in the state before the entry (across a gap, the state before the
    /// gap); `nil` where the path did not exist.
    public let oldValue: JSONValue?
    /// The value at the path in the state after the entry; `nil` where the path no longer exists.
    public let newValue: JSONValue?
    /// Actions a gap lost just before the entry: its change includes theirs.
    public let droppedBefore: Int

    package init(seq: Int, action: Int, label: String?, touchedPaths: [JSONPointer], oldValue: JSONValue?, newValue: JSONValue?, droppedBefore: Int) {
        self.seq = seq
        self.action = action
        self.label = label
        self.touchedPaths = touchedPaths
        self.oldValue = oldValue
        self.newValue = newValue
        self.droppedBefore = droppedBefore
    }
}

extension FieldChange {
    /// The change as `replay-cli why --json` and the viewer's API send it: `seq`, `action`, `label`,
    /// `touched` (JSON Pointers), `droppedBefore`, and `oldValue` and `newValue`, each left out where
    /// the path did not exist (`null` is a value a field may hold), and replaced by `oldValueOmitted`
    /// or `newValueOmitted` (`true`) past `largestValue` of JSON text.
    ///
    /// - Parameter largestValue: the most JSON text, in bytes about, a value sent whole may weigh.
    package func jsonValue(largestValue: Int) -> JSONValue {
        var members: [String: JSONValue] = [
            "seq": .number(String(seq)), "action": .number(String(action)),
            "label": label.map(JSONValue.string) ?? .null,
            "touched": .array(touchedPaths.map { .string($0.description) }),
            "droppedBefore": .number(String(droppedBefore)),
        ]
        for (key, value) in [("oldValue", oldValue), ("newValue", newValue)] {
            guard let value else { continue }
            if value.measure(weightLimit: largestValue).isComplete { members[key] = value } else { members[key + "Omitted"] = true }
        }
        return .object(members)
    }
}
