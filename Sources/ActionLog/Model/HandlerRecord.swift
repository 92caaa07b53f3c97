/// What an asynchronous handler did for one entry of a session: when it ran, the service calls it
/// made and the output events it emitted, in the order it made them.
///
/// Sessions of an actor ViewModel (``ViewModelRecorder``) and of an event ViewModel
/// (``EventViewModelRecorder``) hold one for each entry with an action; a reducer's session holds
/// none. Handlers take turns: one runs at a time, from its start or from a service's answer until it
/// awaits its next service call or returns (see ``ViewModelRecorder``). ``started`` and each call's
/// ``ServiceCall/answered`` are positions in the session's *run order*, the order in which those
/// turns were given, which replay follows again. The entry's `seq` is the order in which handlers
/// returned.
///
/// ```swift
/// let recorded = try Journal(path: "product.actionlog").recordedSession(1)
/// for handler in recorded.handlers {
///     print(handler.seq, handler.started, handler.calls.map(\.method), handler.outputs.count)
/// }
/// ```
@usableFromInline package struct HandlerRecord: Sendable, Hashable {
    /// One thing a handler did, in the order it did it.
    package enum Record: Sendable, Hashable {
        /// A call to a recorded service, with its answer.
        case call(ServiceCall)
        /// An output event the ViewModel emitted (event MVVM).
        case output(OutputEvent)
    }

    /// The entry whose action the handler handled.
    package var seq: Int
    /// The position of the handler's start in the session's run order (0, 1, 2, … across starts
    /// and answers).
    package var started: Int
    /// Its service calls and output events, in the order it made them.
    package var records: [Record]
    /// Where the recorder took the handler's turn from it, or `nil` (almost always): the position in
    /// the run order of the first turn given after it. A handler keeps its turn until it awaits a
    /// recorded call or returns; one that waited longer than
    /// ``ActionLogError/Code/turnHeld``'s delay with another handler behind it (it joined another
    /// handler's task, awaited a continuation or a stream) had its turn given on, so the run order
    /// from here was decided by time: replay reports the entry as not reproducible.
    package var releasedAt: Int?
    /// How many output events the ViewModel emitted outside any handler's work (a timer,
    /// `Task.detached`, a GCD or delegate callback) after the entry before this one was written:
    /// no action can be said to have caused them, so they are not journaled; they are counted here,
    /// where they happened in the session, for `verify` and `log` to name. 0 almost always.
    package var untrackedOutputs: Int

    /// Makes a handler record.
    ///
    /// ```swift
    /// let record = HandlerRecord(seq: 1, started: 0, records: [.output(OutputEvent(label: "showSpinner", event: ["showSpinner": [:]]))])
    /// ```
    ///
    /// - Parameters:
    ///   - seq: the entry.
    ///   - started: the position of its start in the run order.
    ///   - records: its calls and output events, in order.
    ///   - releasedAt: where the recorder took its turn from it, if it did (see ``releasedAt``).
    ///   - untrackedOutputs: the output events not journaled before it (see ``untrackedOutputs``).
    package init(seq: Int, started: Int, records: [Record], releasedAt: Int? = nil, untrackedOutputs: Int = 0) {
        self.seq = seq
        self.started = started
        self.records = records
        self.releasedAt = releasedAt
        self.untrackedOutputs = untrackedOutputs
    }

    /// The service calls, in the order they were made.
    package var calls: [ServiceCall] {
        records.compactMap { if case .call(let call) = $0 { call } else { nil } }
    }

    /// The output events, in the order they were emitted.
    package var outputs: [OutputEvent] {
        records.compactMap { if case .output(let event) = $0 { event } else { nil } }
    }
}

/// One call a handler made to a recorded service, and what the service answered.
///
/// ```swift
/// let call = ServiceCall(service: "ProductService", method: "fetchProduct", arguments: ["p-7"],
///                        outcome: .returned(["name": "Lamp"]), answered: 2)
/// print(call)   // ProductService.fetchProduct("p-7")
/// ```
package struct ServiceCall: Sendable, Hashable, CustomStringConvertible {
    /// What the service answered.
    package enum Outcome: Sendable, Hashable {
        /// The value the method returned, canonical JSON (`null` for a method returning nothing).
        case returned(JSONValue)
        /// The error the method threw: `{"type": "…", "value": …}` for an error type that is
        /// `Codable`, `{"type": "…", "description": "…"}` for another.
        case threw(JSONValue)
    }

    /// The service's name, as the wrapper gives it: `ProductService`.
    package var service: String
    /// The method's name, as the wrapper gives it: `fetchProduct`.
    package var method: String
    /// The arguments, each canonical JSON, in order.
    package var arguments: [JSONValue]
    /// The answer.
    package var outcome: Outcome
    /// The position in the session's run order at which the answer was given back to the handler.
    package var answered: Int

    /// Makes a call record.
    ///
    /// - Parameters:
    ///   - service: the service's name.
    ///   - method: the method's name.
    ///   - arguments: the arguments' JSON, in order.
    ///   - outcome: what the service answered.
    ///   - answered: the position of the answer in the run order.
    package init(service: String, method: String, arguments: [JSONValue], outcome: Outcome, answered: Int) {
        self.service = service
        self.method = method
        self.arguments = arguments
        self.outcome = outcome
        self.answered = answered
    }

    /// The call in one line: `ProductService.fetchProduct("p-7")`.
    package var description: String {
        "\(service).\(method)(\(arguments.map(\.canonicalText).joined(separator: ", ")))"
    }
}

/// One event a ViewModel emitted through its output, in answer to a `ViewEvent`.
///
/// ```swift
/// let event = OutputEvent(label: "signedIn", event: ["signedIn": ["name": "Ada"]])
/// ```
package struct OutputEvent: Sendable, Hashable {
    /// The event's case name, as for actions: `signedIn`.
    package var label: String
    /// The event, canonical JSON.
    package var event: JSONValue

    /// Makes an output event record.
    ///
    /// - Parameters:
    ///   - label: the event's case name.
    ///   - event: the event's JSON.
    package init(label: String, event: JSONValue) {
        self.label = label
        self.event = event
    }
}

extension Sequence<HandlerRecord> {
    /// The records by their entry's seq, for a reader that looks them up entry by entry; where a
    /// damaged source holds two for one entry, the first is kept.
    package var bySeq: [Int: HandlerRecord] {
        Dictionary(map { ($0.seq, $0) }, uniquingKeysWith: { first, _ in first })
    }
}
