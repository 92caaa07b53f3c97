import ActionLog

/// Rewrites the JSON of an older action shape before it is decoded, so recordings made before the
/// action type changed still replay.
///
/// Register upcasters per action label in ``ReplayOptions/upcasters``. They run in order: each one
/// rewrites the actions whose label (as recorded, or as an earlier upcaster left it) is the one it
/// was made for, so a chain `v1 → v2 → v3` is a list of upcasters in that order.
///
/// ```swift
/// var options = ReplayOptions()
/// options.upcasters = [
///     .renameCase("addItem", to: "addToCart"),                      // case addItem(…) became addToCart(…)
///     .addField("quantity", default: 1, toCase: "addToCart"),       // a new field with a default
///     Upcaster(label: "checkout") { old in                          // one action split into two
///         [["confirmCart": [:]], ["pay": [:]]]
///     },
/// ]
/// ```
///
/// When one action becomes several, replay feeds them all and compares the entry's recorded state
/// with the state after the last one, and its recorded effect with the last one's effect.
public struct Upcaster: Sendable {
    /// The label of the actions this upcaster rewrites, e.g. `addItem` or `input.search`.
    let label: String
    private let transform: @Sendable (JSONValue) throws -> [JSONValue]

    /// An upcaster that turns one action into zero, one or several.
    ///
    /// ```swift
    /// Upcaster(label: "checkout") { _ in [["confirmCart": [:]], ["pay": [:]]] }   // one action split into two
    /// ```
    ///
    /// - Parameters:
    ///   - label: the label of the actions to rewrite.
    ///   - transform: the old action's JSON in, the new actions' JSON out. Throw to report that an
    ///     action cannot be upcast; the replay report names the entry.
    public init(label: String, _ transform: @escaping @Sendable (JSONValue) throws -> [JSONValue]) {
        self.label = label
        self.transform = transform
    }

    /// The actions `action` becomes, each with its label: the label follows the enum shape of the new
    /// JSON, or stays `label` when the new JSON is not enum-shaped.
    func upcast(_ action: JSONValue) throws -> [(label: String, action: JSONValue)] {
        try transform(action).map { new in (ActionJSON.label(of: new) ?? label, new) }
    }

    // MARK: - Common changes

    /// An enum case was renamed (or moved between nested action enums); its payload is unchanged.
    ///
    /// ```swift
    /// .renameCase("input.search", to: "input.queryChanged")
    /// ```
    ///
    /// - Parameters:
    ///   - old: the recorded label, with dots for nested cases.
    ///   - new: today's label.
    public static func renameCase(_ old: String, to new: String) -> Upcaster {
        Upcaster(label: old) { action in
            guard let payload = ActionJSON.payload(of: action, label: old) else {
                throw ReplayError.upcastFailed("the action is not the enum case \"\(old)\": \(action.canonicalText)")
            }
            return [ActionJSON.make(label: new, payload: payload)]
        }
    }

    /// A case gained an associated value; recordings made before get `value`.
    ///
    /// ```swift
    /// .addField("quantity", default: 1, toCase: "addToCart")
    /// ```
    ///
    /// - Parameters:
    ///   - name: the associated value's label (`_0`, `_1` for unlabeled ones).
    ///   - value: the value older recordings get.
    ///   - label: the case's label.
    public static func addField(_ name: String, default value: JSONValue, toCase label: String) -> Upcaster {
        Upcaster(label: label) { action in
            guard var payload = ActionJSON.payload(of: action, label: label) else {
                throw ReplayError.upcastFailed("the action is not the enum case \"\(label)\": \(action.canonicalText)")
            }
            if payload[name] == nil { payload[name] = value }
            return [ActionJSON.make(label: label, payload: payload)]
        }
    }
}

extension [Upcaster] {
    /// Runs the upcasters in order over one recorded action.
    ///
    /// - Returns: the actions to feed the reducer, with their labels.
    func upcast(label: String?, action: JSONValue) throws -> [(label: String, action: JSONValue)] {
        var actions = [(label: label ?? ActionJSON.label(of: action) ?? "?", action: action)]
        for upcaster in self {
            actions = try actions.flatMap { current in
                current.label == upcaster.label ? try upcaster.upcast(current.action) : [current]
            }
        }
        return actions
    }
}

extension RecordedSession {
    /// The actions to feed the reducer for `entry`: its recorded action through `upcasters`, decoded.
    ///
    /// - Returns: the decoded actions with their labels (one, unless an upcaster split it).
    /// - Throws: ``ReplayError`` naming the entry when an upcaster throws or an action does not decode.
    func actions<Action: Decodable>(of entry: Entry, _ json: JSONValue, upcasters: [Upcaster]) throws(ReplayError) -> [(label: String, action: Action)] {
        let upcast: [(label: String, action: JSONValue)]
        do { upcast = try upcasters.upcast(label: entry.label, action: json) } catch {
            throw failure(.upcastFailed, at: entry, "\(error)")
        }
        var decoded: [(label: String, action: Action)] = []
        for (label, json) in upcast {
            do { decoded.append((label, try json.decode(Action.self))) } catch {
                throw failure(.actionDoesNotDecode, entry: entry.seq, label: label, undecodable(error, decoding: json, redactedBy: \.actions))
            }
        }
        return decoded
    }
}
