import ActionLog
import Foundation

// The full-encode path, timed step by step with the public API on the same actions: what the writer
// would pay per entry without the change-proportional encoder, against what it pays now.

struct Breakdown {
    var steps: Int
    /// `JSONEncoder.encode` of the state, µs per entry.
    var encode: Double
    /// Reading the encoder's output into a `JSONValue` (`JSONValue(encoding:)` minus the encoding).
    var parse: Double
    /// `JSONPatch.diff(from:to:)` against the previous state.
    var diff: Double
    /// The patch's canonical text.
    var patchText: Double
    /// The full state's canonical text, paid only for a keyframe.
    var stateText: Double
    /// The action's canonical JSON and its label (a `Mirror` walk, as `ActionLabel` does).
    var action: Double

    /// What the writer spends per entry on these steps, given the share of entries that are keyframes.
    func total(keyframeShare: Double) -> Double {
        encode + parse + diff + patchText + action + keyframeShare * stateText
    }
}

func measureBreakdown<State, Action>(_ workload: Workload<State, Action>, steps: Int) throws -> Breakdown {
    let encoder = makeEncoder()
    var state = workload.initial
    var previous = try JSONValue(encoding: state, encoder: encoder)
    var encode = Duration.zero, encodeAndParse = Duration.zero, diff = Duration.zero
    var patchText = Duration.zero, stateText = Duration.zero, action = Duration.zero
    for step in workload.actions(steps) {
        workload.reduce(&state, step)
        let t0 = clock.now
        blackHole(try encoder.encode(state))
        let t1 = clock.now
        let value = try JSONValue(encoding: state, encoder: encoder)
        let t2 = clock.now
        let patch = JSONPatch.diff(from: previous, to: value)
        let t3 = clock.now
        blackHole(patch.jsonValue.canonicalText)
        let t4 = clock.now
        blackHole(value.canonicalText)
        let t5 = clock.now
        blackHole(try JSONValue(encoding: step, encoder: encoder).canonicalText)
        blackHole(label(of: step))
        let t6 = clock.now
        encode += t0.duration(to: t1)
        encodeAndParse += t1.duration(to: t2)
        diff += t2.duration(to: t3)
        patchText += t3.duration(to: t4)
        stateText += t4.duration(to: t5)
        action += t5.duration(to: t6)
        previous = value
    }
    func micros(_ duration: Duration) -> Double { duration.seconds / Double(steps) * 1e6 }
    return Breakdown(
        steps: steps, encode: micros(encode), parse: max(0, micros(encodeAndParse) - micros(encode)),
        diff: micros(diff), patchText: micros(patchText), stateText: micros(stateText), action: micros(action)
    )
}

/// The label the writer stores: the case names down nested enums, found with `Mirror` (as `ActionLabel.of`).
private func label(of action: Any) -> String {
    var parts: [String] = []
    var current = action
    while parts.count < 8 {
        let mirror = Mirror(reflecting: current)
        guard mirror.displayStyle == .enum else { break }
        guard let child = mirror.children.first, let label = child.label else {
            parts.append(String(describing: current))
            break
        }
        parts.append(label)
        current = child.value
        if Mirror(reflecting: current).displayStyle == .tuple { break }
    }
    return parts.joined(separator: ".")
}
