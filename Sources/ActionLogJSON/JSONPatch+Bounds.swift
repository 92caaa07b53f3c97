extension JSONPatch {
    /// The limits that keep rebuilding a state from a keyframe and its patches bounded, however the
    /// patches were written.
    ///
    /// A patch may not nest the state deeper than ``JSONValue/maximumDepth`` levels (the depth the
    /// parser accepts), and `copy` may not make it heavier than ``growthFactor`` times the bytes
    /// stored for it (its keyframe, and the values its patches add), or ``minimumAllowance``,
    /// whichever is larger: a 23 KB patch of forty `copy` operations of the whole document would
    /// otherwise build a terabyte. Values added by `add` and `replace` are stored in the patch
    /// itself, so they always fit. Measuring a `copy` or `move` costs at most the allowance.
    ///
    /// One `Bounds` follows one chain: start a new one at each keyframe.
    package struct Bounds: Sendable {
        /// How many times its stored bytes a state may weigh.
        package static let growthFactor = 4
        /// The allowance however small the stored bytes: 1 MiB. It is also about the most work a
        /// refused patch bomb costs a reader before it is refused.
        package static let minimumAllowance = 1 << 20

        /// The stored weight: the document when first measured, plus every value added since.
        private var stored = 0
        /// An upper bound of the document's weight: stored, plus every copy.
        private var used = 0
        /// The weight measured for `move`s, against the same allowance.
        private var moved = 0
        /// Whether the document has been measured: only when a `copy` or `move` first needs it.
        private var measuredDocument = false

        package init() {}

        var allowance: Int {
            let (scaled, overflow) = stored.multipliedReportingOverflow(by: Self.growthFactor)
            return overflow ? .max : max(Self.minimumAllowance, scaled)
        }

        mutating func measureDocument(_ document: JSONValue) {
            guard !measuredDocument else { return }
            measuredDocument = true
            let measure = document.measure()
            stored = stored.addingClamped(measure.weight)
            used = used.addingClamped(measure.weight)
        }

        mutating func added(_ weight: Int) {
            stored = stored.addingClamped(weight)
            used = used.addingClamped(weight)
        }

        mutating func copied(_ weight: Int) -> Bool {
            used = used.addingClamped(weight)
            return used <= allowance
        }

        mutating func moved(_ weight: Int) -> Bool {
            moved = moved.addingClamped(weight)
            return moved <= allowance
        }

        var remaining: Int { max(0, allowance - used) }
        /// About the bytes stored for the state: its keyframe, and what the patches added.
        var storedWeight: Int { stored }
        var remainingMoves: Int { max(0, allowance - moved) }
    }

    /// Applies the operations in place, like ``apply(to:)-(inout JSONValue)``, refusing any that
    /// would pass `bounds`.
    ///
    /// - Throws: ``ActionLogError`` naming the operation; ``ActionLogError/Code/tooDeep`` or
    ///   ``ActionLogError/Code/tooLarge`` when it would pass the bounds (the document is then left as
    ///   the operations before it made it).
    package func apply(to document: inout JSONValue, within bounds: inout Bounds) throws(ActionLogError) {
        for (index, operation) in operations.enumerated() {
            do {
                try operation.check(against: document, within: &bounds)
                try operation.perform(on: &document)
            } catch {
                throw error.located(at: index, operation)
            }
        }
    }
}

extension JSONPatch.Operation {
    /// Checks the operation against the bounds before it runs; records what it adds.
    fileprivate func check(against document: JSONValue, within bounds: inout JSONPatch.Bounds) throws(OperationFailure) {
        func tooDeep(_ depth: Int) -> OperationFailure {
            OperationFailure(code: .tooDeep, reason: """
                the state would nest \(depth) levels deep, deeper than the \(JSONValue.maximumDepth) levels a journal may hold
                """)
        }
        func tooLarge(_ what: String) -> OperationFailure {
            OperationFailure(code: .tooLarge, reason: """
                the patches would \(what) past \(bounds.allowance) bytes, the bound of a state rebuilt from \
                \(bounds.storedWeight) bytes stored since its keyframe (\(JSONPatch.Bounds.growthFactor) times those, \
                or \(JSONPatch.Bounds.minimumAllowance), whichever is larger)
                """)
        }
        switch self {
        case .add(let path, let value), .replace(let path, let value):
            let measure = value.measure()
            let depth = path.tokens.count.addingClamped(measure.depth)
            guard measure.isComplete, depth <= JSONValue.maximumDepth else { throw tooDeep(depth) }
            bounds.added(measure.weight)
        case .copy(let from, let path):
            guard let value = document.value(at: from) else { return }  // The operation itself reports it.
            bounds.measureDocument(document)
            let measure = value.measure(weightLimit: bounds.remaining)
            guard measure.isComplete || measure.depth > JSONValue.maximumDepth, bounds.copied(measure.weight) else {
                throw tooLarge("grow the state")
            }
            let depth = path.tokens.count.addingClamped(measure.depth)
            guard measure.depth <= JSONValue.maximumDepth, depth <= JSONValue.maximumDepth else { throw tooDeep(depth) }
        case .move(let from, let path):
            guard path.tokens.count > from.tokens.count, let value = document.value(at: from) else { return }
            bounds.measureDocument(document)
            let measure = value.measure(weightLimit: bounds.remainingMoves)
            guard measure.isComplete || measure.depth > JSONValue.maximumDepth, bounds.moved(measure.weight) else {
                throw tooLarge("move values")
            }
            let depth = path.tokens.count.addingClamped(measure.depth)
            guard depth <= JSONValue.maximumDepth else { throw tooDeep(depth) }
        case .remove, .test:
            return
        }
    }
}

extension Int {
    /// The sum, or `Int.max` when it would overflow (only non-negative weights are added).
    package func addingClamped(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }
}
