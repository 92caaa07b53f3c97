/// The text form of a ``HandlerRecord``: the `"handler"` member of an entry's line in JSONL,
/// `{"records":[{"call":{…}},{"output":{…}}],"started":0}` (canonical JSON, keys sorted), with
/// `"releasedAt"` when the recorder took the handler's turn from it and `"untrackedOutputs"` when
/// output events before it were not journaled.
extension HandlerRecord {
    /// Why a `"handler"` member is not a handler record.
    package struct Problem: Error {
        package let reason: String
    }

    /// The record as JSON, without its seq (the line's).
    package var jsonValue: JSONValue {
        var members: [String: JSONValue] = [
            "started": .number(String(started)),
            "records": .array(records.map { record in
                switch record {
                case .call(let call):
                    var members: [String: JSONValue] = [
                        "service": .string(call.service), "method": .string(call.method), "arguments": .array(call.arguments),
                        "answered": .number(String(call.answered)),
                    ]
                    switch call.outcome {
                    case .returned(let value): members["result"] = value
                    case .threw(let error): members["error"] = error
                    }
                    return .object(["call": .object(members)])
                case .output(let output):
                    return .object(["output": .object(["label": .string(output.label), "event": output.event])])
                }
            }),
        ]
        if let releasedAt { members["releasedAt"] = .number(String(releasedAt)) }
        if untrackedOutputs > 0 { members["untrackedOutputs"] = .number(String(untrackedOutputs)) }
        return .object(members)
    }

    /// Reads the JSON written by ``jsonValue`` for entry `seq`.
    package init(json: JSONValue, seq: Int) throws(Problem) {
        guard case .object(let members) = json else { throw Problem(reason: "the handler record is not an object") }
        let started = try Self.position(members["started"], "started")
        guard case .array(let items)? = members["records"] else { throw Problem(reason: "the handler record has no \"records\" array") }
        var records: [Record] = []
        for (index, item) in items.enumerated() {
            if case .object(let wrapper) = item, wrapper.count == 1, case .object(let call)? = wrapper["call"] {
                guard case .string(let service)? = call["service"], case .string(let method)? = call["method"] else {
                    throw Problem(reason: "call \(index) has no service or method")
                }
                guard case .array(let arguments)? = call["arguments"] else { throw Problem(reason: "the arguments of call \(index) are not a JSON array") }
                let outcome: ServiceCall.Outcome
                switch (call["result"], call["error"]) {
                case (let result?, nil): outcome = .returned(result)
                case (nil, let error?): outcome = .threw(error)
                default: throw Problem(reason: "call \(index) must hold a result or an error, not both or neither")
                }
                let answered = try Self.position(call["answered"], "answered of call \(index)")
                records.append(.call(ServiceCall(service: service, method: method, arguments: arguments, outcome: outcome, answered: answered)))
            } else if case .object(let wrapper) = item, wrapper.count == 1, case .object(let output)? = wrapper["output"] {
                guard case .string(let label)? = output["label"], let event = output["event"] else {
                    throw Problem(reason: "output \(index) has no label or event")
                }
                records.append(.output(OutputEvent(label: label, event: event)))
            } else {
                throw Problem(reason: "record \(index) is neither {\"call\":…} nor {\"output\":…}")
            }
        }
        let releasedAt = try members["releasedAt"].map { value throws(Problem) in try Self.position(value, "releasedAt") }
        let untracked = try members["untrackedOutputs"].map { value throws(Problem) in try Self.position(value, "untrackedOutputs") }
        self.init(seq: seq, started: started, records: records, releasedAt: releasedAt, untrackedOutputs: untracked ?? 0)
    }

    /// A place in the run order: a whole number from 0 up to 2³¹ − 1.
    private static func position(_ value: JSONValue?, _ name: String) throws(Problem) -> Int {
        guard case .number(let text)? = value, let number = Int32(text), number >= 0 else {
            throw Problem(reason: "\(name) is not a whole number from 0 to \(Int32.max)")
        }
        return Int(number)
    }
}

/// The handler records a JSONL reader found so far, by seq: a reference, so that whoever reads the
/// entries one at a time can look the records up beside the reader.
package final class CollectedHandlers {
    package private(set) var bySeq: [Int: HandlerRecord] = [:]
    package private(set) var inOrder: [HandlerRecord] = []

    func add(_ record: HandlerRecord) {
        bySeq[record.seq] = record
        inOrder.append(record)
    }
}
