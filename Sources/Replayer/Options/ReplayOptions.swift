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
    /// `false` (the default): a step compares a long array (over 16 elements, of `Equatable`
    /// elements) only where the recorded change touched it, and its length, and the whole state at
    /// least every 256 steps (less often as the arrays grow: about 64 elements per step), at each
    /// keyframe, before each gap and at the end. A divergence found after steps that compared only
    /// part of an array makes the replay run again comparing everything after the last full
    /// comparison, so the report still names the entry where it began. Replaying a state that grows
    /// (a history, a feed) then costs what each step changed, not the state's size.
    ///
    /// `true`: compare every field at every step. Slower for long arrays (each step reads them
    /// whole), and it also catches a change that a reducer makes to a place the recording did not
    /// change *and undoes* before the next full comparison, which the default cannot see.
    public var comparesWholeStates = false

    /// The defaults: ignore no field, stop at the first divergence, no upcasters, and compare long
    /// arrays where each step changed them (see ``comparesWholeStates``).
    ///
    /// ```swift
    /// var options = ReplayOptions()
    /// options.comparesWholeStates = true
    /// ```
    public init() {}

    /// Options in one expression.
    ///
    /// ```swift
    /// let options = ReplayOptions(ignoring: ["lastUpdated"], stopAtFirstDivergence: false)
    /// ```
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
