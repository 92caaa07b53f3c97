/// Encodes a sequence of states at a cost proportional to what changed between them, returning
/// each state's JSON and the RFC 6902 patch from the previous state's JSON.
///
/// The encoder keeps the previous state as a *shadow tree* (see ``ShadowNode``): at every place of
/// the value, the Swift value that was there (when its type is `Equatable`) and the nodes below it.
/// Encoding the next state walks its `encode(to:)` while holding the previous value at the same
/// place. A child whose type is `Equatable` and that `==` the previous one keeps its previous JSON
/// without being encoded; anything else is encoded, compared with the previous JSON, and its
/// differences become `replace`, `add` and `remove` operations where they happen. Arrays are
/// compared element by element (see ``EncodableArray``). The root is never compared with `==`:
/// that would compare everything, to find the usual small change.
///
/// ```swift
/// let encoder = ChangeEncoder<Cart>()
/// let first = try encoder.encode(cart)      // first.patch == nil: a full encode
/// cart.items[7].quantity += 1
/// let second = try encoder.encode(cart)
/// second.patch?.description  // [{"op":"replace","path":"/items/7/quantity","value":2}]
/// ```
///
/// The contract, for any sequence of states:
/// - `json` is exactly (`==`) what ``JSONValueEncoder`` gives for the state;
/// - `try patch.apply(to: previousJSON) == json`, exactly.
///
/// Both hold as long as `==` agrees with the encoding: values that are `==` encode to the same
/// JSON. When a type's `==` ignores something its `encode(to:)` writes — or a value holds a class
/// instance that was changed in place, which looks equal to itself — the reused JSON can be stale.
/// Classes, and optionals, arrays, sets and dictionaries of them, are never compared (their
/// children are), but a struct holding one is. A `Set` that is `==` to the previous one keeps the
/// previous element order. (`-0.0 == 0.0`, so both are written `0`; see ``JSONLeaf``.) Checking
/// the result against a full encode from time to time (a keyframe) catches such types.
///
/// Not thread-safe: use one encoder from one task or thread at a time.
package final class ChangeEncoder<State: Encodable> {
    /// One encoded state.
    package struct Change: Sendable {
        /// The state's JSON.
        package var json: JSONValue
        /// The patch from the previous state's JSON to ``json``; `nil` for a full encode (the first
        /// one, and the first after ``reset()``).
        package var patch: JSONPatch?
    }

    /// Internal, not private, for tests.
    let context: EncodingContext
    private var previous: (json: JSONValue, node: ShadowNode?)?

    /// Makes an encoder; its first ``encode(_:)`` is a full one.
    ///
    /// - Parameters:
    ///   - userInfo: what `Encoder.userInfo` gives the values' `encode(to:)`.
    ///   - dates: how dates are written.
    package init(userInfo: [CodingUserInfoKey: Any] = [:], dates: DateConvention = .iso8601) {
        context = EncodingContext(tracking: true, userInfo: userInfo, dates: dates)
    }

    /// The JSON of the last state encoded, which the next patch applies to; `nil` after ``reset()``.
    package var previousJSON: JSONValue? { previous?.json }

    /// Whether ``encode(_:)`` makes the new JSON by applying the patch to the previous JSON in place,
    /// instead of rebuilding the arrays that changed: an append to a long array then costs the
    /// append, not a copy of the array. Off by default.
    ///
    /// It pays only when nothing else holds the previous JSON during ``encode(_:)``: drop the last
    /// ``Change/json`` before the next call, or the first change copies what the copies share. The
    /// patch and the JSON are the same either way.
    package var patchesPreviousJSON = false

    /// Whether the shadow of a `ChunkedArray` shares everything with the state encoded, its last leaf
    /// and group too. Off by default: the shadow then holds its own list of groups, last group and
    /// last leaf, so that the owner's next append or edit at the end copies nothing while the encoder
    /// holds the previous state (what a recorder needs: the app's dispatch pays for nothing the
    /// writer keeps). On, the owner's next change to the end copies those few buffers instead, in
    /// code specialized for the element type; the detached copy is made in code that is not (the
    /// encoder reaches arrays through a protocol), which costs several times more. A replay, which
    /// pays for both sides alike, turns it on.
    package var sharesChunkedArrayEnds: Bool {
        get { context.sharesChunkedArrayEnds }
        set { context.sharesChunkedArrayEnds = newValue }
    }

    /// Encodes `state`, and the patch from the previous state's JSON when there is one.
    ///
    /// ```swift
    /// let change = try encoder.encode(state)
    /// if let patch = change.patch { journal.appendDelta(patch) } else { journal.appendKeyframe(change.json) }
    /// ```
    ///
    /// If it throws, the encoder is unchanged: the next patch is still from the last state that encoded.
    ///
    /// - Parameter state: the state to encode.
    /// - Returns: the state's JSON, and the patch unless this is a full encode.
    /// - Throws: what ``JSONValueEncoder/encode(_:)`` throws for the state.
    package func encode(_ state: State) throws -> Change {
        try encode(state, expecting: nil)
    }

    /// How many array elements the last ``encode(_:expecting:)`` took as unchanged without comparing
    /// them, on the word of its hints; 0 without hints.
    package private(set) var assumedUnchanged = 0

    /// Encodes `state`, comparing large arrays only where `hints` expect changes (see ``ChangeHints``).
    ///
    /// The patch then holds the changes at those places; a change elsewhere in an array that the
    /// hints take as unchanged is missing from it, and from the JSON, until an encode without hints
    /// finds it (it compares everything against what this encoder holds, which such a change makes
    /// differ).
    ///
    /// - Parameters:
    ///   - state: the state to encode.
    ///   - hints: where changes are expected; `nil` compares everything, as ``encode(_:)``.
    /// - Returns: the state's JSON, and the patch unless this is a full encode.
    /// - Throws: what ``JSONValueEncoder/encode(_:)`` throws for the state.
    package func encode(_ state: State, expecting hints: ChangeHints?) throws -> Change {
        context.hints = hints
        defer {
            assumedUnchanged = context.assumedUnchanged
            context.hints = nil
        }
        context.assumedUnchanged = 0
        if patchesPreviousJSON, let change = try encodePatchingInPlace(state) { return change }
        context.patchesInPlace = false
        context.assumedUnchanged = 0
        context.operations.removeAll(keepingCapacity: true)
        context.afterSuccess.removeAll()
        let encoded = try context.encode(
            state, previous: previous?.json, previousNode: previous?.node, parent: nil, component: .none,
            reusable: false, isRoot: true)
        for work in context.afterSuccess { work() }
        context.afterSuccess.removeAll()
        let patch = previous == nil ? nil : JSONPatch(operations: context.operations)
        previous = (encoded.json, encoded.node)
        return Change(json: encoded.json, patch: patch)
    }

    /// ``encode(_:)`` with ``patchesPreviousJSON``: arrays that changed emit their operations without
    /// rebuilding their JSON, and the new JSON is the patch applied to the previous JSON, which the
    /// encoder holds alone meanwhile. `nil` when it cannot be done that way (no previous state, or a
    /// member written twice, whose operation needs its exact JSON): then ``encode(_:)`` rebuilds.
    private func encodePatchingInPlace(_ state: State) throws -> Change? {
        guard let node = previous?.node, var json = previous?.json else { return nil }
        previous = nil  // `json` is now the encoder's only reference to the previous JSON.
        context.patchesInPlace = true
        context.staleValues = 0
        context.needsExactJSON = false
        context.operations.removeAll(keepingCapacity: true)
        // The owned array copies take over their previous buffers only once this encode has
        // succeeded (see ``OwnedArrayShadow``); an attempt given up leaves the previous nodes whole.
        context.afterSuccess.removeAll()
        defer { context.afterSuccess.removeAll() }
        var encoded: Encoded
        do {
            encoded = try context.encode(state, previous: json, previousNode: node, parent: nil, component: .none, reusable: false, isRoot: true)
        } catch {
            previous = (json, node)
            throw error
        }
        context.patchesInPlace = false
        let patch = JSONPatch(operations: context.operations)
        if context.needsExactJSON {
            previous = (json, node)
            return nil
        }
        if context.staleValues == 0 {
            // Nothing was left to patch: the encoded JSON is exact.
            for work in context.afterSuccess { work() }
            previous = (encoded.json, encoded.node)
            return Change(json: encoded.json, patch: patch)
        }
        let newNode = encoded.node
        encoded = Encoded(json: .null, node: nil)  // Shares containers with `json`: dropped before patching it.
        do {
            try patch.apply(to: &json)
        } catch {
            // The operations were found from `json`: they always apply. Start afresh if not.
            throw EncodingError.invalidValue(
                state, .init(codingPath: [], debugDescription: "ActionLog's change encoder made a patch that does not apply: \(error)"))
        }
        for work in context.afterSuccess { work() }
        previous = (json, newNode)
        return Change(json: json, patch: patch)
    }

    /// Forgets the previous state, so that the next ``encode(_:)`` is a full one without a patch.
    ///
    /// Call it when the previous JSON is no longer what the reader has: after a write failed, or
    /// when the next entry is a keyframe anyway.
    ///
    /// ```swift
    /// do { try journal.append(encoder.encode(state)) } catch { encoder.reset() }
    /// ```
    package func reset() {
        previous = nil
    }
}
