import ActionLog

/// How a replay compares and what it forgives: per-call options of ``Replay`` and `verifyReplay`.
///
/// ```swift
/// var options = ReplayOptions()
/// options.ignoring = ["lastUpdated", "items[*].addedAt"]
/// options.stopAtFirstDivergence = false
/// options.upcasters = [.renameCase("addItem", to: "addToCart")]
/// ```
public struct ReplayOptions: Sendable {
    /// Fields that are not compared, in the state and in the effect (timestamps, random ids). Replay
    /// goes on from the replayed state, so ignore only fields that later actions do not depend on.
    /// The places the recorder redacted (the session's `actionlog.redactedPaths`) need not be listed:
    /// replay redacts the replayed state there too, and leaves them out of its differences.
    public var ignoring: [FieldPattern] = []
    /// `true` (the default): stop at the first divergence. `false`: report every diverging entry;
    /// after each one, replay goes on from the recorded state of that entry, so later findings are
    /// independent of earlier ones.
    public var stopAtFirstDivergence = true
    /// Rewrites of older action shapes, applied in order before decoding. See ``Upcaster``.
    public var upcasters: [Upcaster] = []

    /// The defaults: compare everything, stop at the first divergence, no upcasters.
    public init() {}

    /// Options in one expression.
    ///
    /// - Parameters:
    ///   - ignoring: fields not compared.
    ///   - stopAtFirstDivergence: whether to stop at the first divergence.
    ///   - upcasters: rewrites of older action shapes.
    public init(ignoring: [FieldPattern] = [], stopAtFirstDivergence: Bool = true, upcasters: [Upcaster] = []) {
        self.ignoring = ignoring
        self.stopAtFirstDivergence = stopAtFirstDivergence
        self.upcasters = upcasters
    }
}
