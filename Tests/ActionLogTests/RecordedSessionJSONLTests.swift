import Foundation
import Testing
@testable import ActionLog

/// A small session with every kind of entry and every optional field, at times that are exact in binary.
func tinySession(status: SessionHeader.Status = .closed, endedAt: Date? = Date(timeIntervalSince1970: 1_763_700_002.5)) -> RecordedSession {
    let entries = [
        Entry(seq: 0, time: Date(timeIntervalSince1970: 1_763_700_000), label: nil, action: nil,
              content: .keyframe(["items": [], "total": 0]), effect: nil),
        Entry(seq: 1, time: Date(timeIntervalSince1970: 1_763_700_000.25), label: "addItem",
              action: ["addItem": ["sku": "tea", "quantity": 2]],
              content: .delta(JSONPatch(operations: [
                  .add(path: JSONPointer(tokens: ["items", "-"]), value: "tea"), .replace(path: JSONPointer(tokens: ["total"]), value: 2),
              ])),
              effect: ["save": ["total": 2]], reducerDuration: .nanoseconds(1500)),
        Entry(seq: 2, time: Date(timeIntervalSince1970: 1_763_700_001), label: nil, action: nil,
              content: .gap(dropped: 2, note: "2 actions dropped: the writer fell behind"), effect: nil),
        Entry(seq: 3, time: Date(timeIntervalSince1970: 1_763_700_002), label: "clear",
              action: ["clear": [:]], content: .keyframe(["items": [], "total": 0]), effect: nil, reducerDuration: .nanoseconds(800)),
    ]
    let session = SessionHeader(name: #"checkout "tiny""#, startedAt: Date(timeIntervalSince1970: 1_763_700_000), endedAt: endedAt,
        status: status, libraryVersion: "0.1.0", appVersion: "2.4.1 (311)", stateType: "App.Cart",
        actionType: "App.CartAction", effectType: "App.CartEffect", metadata: ["device": "iPhone", "build": 311],
        entryCount: entries.count, droppedCount: 2, lastEntryAt: entries.last?.time
    )
    return RecordedSession(session: session, entries: entries, source: .textFile("tiny.jsonl"))
}

/// The whole text of ``tinySession(status:endedAt:)``.
let tinyText = #"""
    {"actionlog":"session","format":1,"name":"checkout \"tiny\"","status":"closed","startedAt":"2025-11-21T04:40:00.000000Z","endedAt":"2025-11-21T04:40:02.500000Z","libraryVersion":"0.1.0","appVersion":"2.4.1 (311)","stateType":"App.Cart","actionType":"App.CartAction","effectType":"App.CartEffect","dropped":2,"metadata":{"build":311,"device":"iPhone"}}
    {"seq":0,"kind":"keyframe","time":"2025-11-21T04:40:00.000000Z","state":{"items":[],"total":0}}
    {"seq":1,"kind":"delta","label":"addItem","time":"2025-11-21T04:40:00.250000Z","durationNs":1500,"action":{"addItem":{"quantity":2,"sku":"tea"}},"effect":{"save":{"total":2}},"patch":[{"op":"add","path":"/items/-","value":"tea"},{"op":"replace","path":"/total","value":2}]}
    {"seq":2,"kind":"gap","time":"2025-11-21T04:40:01.000000Z","dropped":2,"note":"2 actions dropped: the writer fell behind"}
    {"seq":3,"kind":"keyframe","label":"clear","time":"2025-11-21T04:40:02.000000Z","durationNs":800,"action":{"clear":{}},"state":{"items":[],"total":0}}

    """#

/// `tinyText` with line `number` (1-based) replaced.
func tinyText(replacingLine number: Int, with line: String) -> String {
    var lines = tinyText.components(separatedBy: "\n")
    lines[number - 1] = line
    return lines.joined(separator: "\n")
}

@Suite("RecordedSession: the text form (JSONL)")
struct RecordedSessionJSONLTests {
    let directory = TemporaryDirectory()

    // MARK: - Writing and reading

    @Test("a tiny session's whole text: header keys in fixed order, one line per entry, canonical nested JSON")
    func tinySessionText() throws {
        #expect(tinySession().jsonl() == tinyText)
        let parsed = try RecordedSession(jsonl: tinyText, file: "tiny.jsonl")
        #expect(parsed == tinySession())
        #expect(parsed.jsonl() == tinyText)
    }

    @Test("a recorded session with keyframes, deltas, a gap and effects: export, import, export is byte-identical")
    func recordedSessionRoundTrip() throws {
        let path = directory.path("recorded.actionlog")
        // A queue of two, and a writer that takes only on flush: the third action sent between two
        // flushes is dropped, which records a gap.
        let recorder = try Recorder<Shelf, ShelfAction, ShelfEffect>(path: path, sessionName: "shelf", initialState: Shelf(), configuration: configuration(ErrorLog()) {
            $0.queueCapacity = 2
            $0.batchSize = 10_000
            $0.writerWaitsForFlush = true
            $0.batchInterval = .seconds(3600)
            $0.backpressure = .drop
            $0.appVersion = "1.0 (7)"
            $0.metadata = ["device": "test", "locale": "fr_FR"]
        })
        let reduce = recorder.recording(Shelf.reduce)
        var state = Shelf()
        recorder.flush()
        _ = reduce(&state, .select(3)); _ = reduce(&state, .open)
        recorder.flush()
        _ = reduce(&state, .select(5)); _ = reduce(&state, .select(6)); _ = reduce(&state, .select(7))
        recorder.flush()
        _ = reduce(&state, .open)
        recorder.close()

        let journal = try Journal(path: path)
        let recorded = try journal.recordedSession(recorder.sessionID)
        #expect(recorded.entries.map(\.kind) == [.keyframe, .delta, .delta, .delta, .delta, .gap, .delta])
        #expect(recorded.entries.contains { $0.effect != nil })
        let text = recorded.jsonl()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == recorded.entries.count + 2, "a header, one line per entry, and the empty string after the last newline")
        #expect(lines.last == "")
        for line in lines.dropLast() {
            #expect(try JSONSerialization.jsonObject(with: Data(line.utf8)) is [String: Any], "every line is a JSON object: \(line)")
        }
        let uuid = recorded.session.uuid.uuidString.lowercased()
        #expect(lines[0].hasPrefix(#"{"actionlog":"session","format":1,"name":"shelf","uuid":"\#(uuid)","status":"closed","startedAt":"#))
        #expect(lines[0].hasSuffix(#","libraryVersion":"\#(ActionLogLibrary.version)","appVersion":"1.0 (7)","stateType":"ActionLogTests.Shelf","actionType":"ActionLogTests.ShelfAction","effectType":"ActionLogTests.ShelfEffect","dropped":1,"metadata":{"actionlog.dates":"iso8601","device":"test","locale":"fr_FR"}}"#))
        #expect(lines[6].hasPrefix(#"{"seq":5,"kind":"gap","time":"#))
        #expect(lines[6].hasSuffix(#","dropped":1,"note":"1 actions dropped: the writer fell behind"}"#))

        // Text → session → text.
        let parsed = try RecordedSession(jsonl: text, file: "counter.jsonl")
        #expect(parsed.jsonl() == text)
        // Text → journal → text, twice over.
        let copyPath = directory.path("copy.actionlog")
        let first = try Journal(path: copyPath, mode: .readWrite).insert(parsed)
        let again = try Journal(path: copyPath).recordedSession(first).jsonl()
        #expect(again == text)
        // The same session again: refused, naming the session that has its uuid.
        #expect(throws: ActionLogError(.invalidArgument, file: "copy.actionlog", session: first, reason: #"holds this session already: "shelf" has the uuid \#(uuid)"#)) {
            try Journal(path: copyPath, mode: .readWrite).insert(RecordedSession(jsonl: again, file: "again.jsonl"))
        }
        #expect(try Journal(path: copyPath).sessions().count == 1)
        #expect(try Journal(path: copyPath).verify().isValid)
        // Every state reads back the same from the copy.
        for entry in recorded.entries where entry.kind != .gap {
            #expect(try Journal(path: copyPath).state(at: entry.seq, in: first) == journal.state(at: entry.seq, in: recorder.sessionID))
            #expect(try parsed.state(at: entry.seq) == journal.state(at: entry.seq, in: recorder.sessionID))
        }
    }

    /// A closed session named `name` of 3,000 actions, each appending its text to a log: `text(seq)`.
    private func longSession(_ name: String, text: (Int) -> String) -> (session: SessionHeader, entries: [Entry]) {
        var entries = [Entry(seq: 0, time: Date(timeIntervalSince1970: 1_763_700_000), label: nil, action: nil,
                             content: .keyframe(["log": []]), effect: nil)]
        for seq in 1...3_000 {
            let line = text(seq)
            entries.append(Entry(seq: seq, time: Date(timeIntervalSince1970: 1_763_700_000 + Double(seq)), label: "add",
                action: ["add": ["text": .string(line)]],
                content: .delta(JSONPatch(operations: [.add(path: JSONPointer(tokens: ["log", "-"]), value: .string(line))])),
                effect: nil))
        }
        let session = SessionHeader(name: name, startedAt: Date(timeIntervalSince1970: 1_763_700_000), endedAt: Date(timeIntervalSince1970: 1_763_703_000),
            status: .closed, libraryVersion: "0.1.0", appVersion: nil, stateType: "T", actionType: "A", effectType: nil,
            metadata: [:], entryCount: entries.count, droppedCount: 0, lastEntryAt: nil)
        return (session, entries)
    }

    @Test("a text file many read chunks long (lines across 64 KiB boundaries, \\r\\n endings) imports and exports byte for byte")
    func longFileStreams() throws {
        // Lines of varied length, so that line ends fall anywhere in a read chunk.
        let (session, entries) = longSession("long") { String(repeating: "é", count: $0 % 97) }
        let text = RecordedSession(session: session, entries: entries, source: .textFile("long.jsonl")).jsonl()
        #expect(text.utf8.count > 4 << 16)
        let url = directory.url.appendingPathComponent("long.jsonl")
        try Data(text.replacingOccurrences(of: "\n", with: "\r\n").utf8).write(to: url)

        let journalPath = directory.path("long.actionlog")
        let id = try Journal.importJSONL(at: url, into: journalPath)
        let exported = directory.url.appendingPathComponent("exported.jsonl")
        #expect(FileManager.default.createFile(atPath: exported.path, contents: nil))
        let handle = try FileHandle(forWritingTo: exported)
        try Journal(path: journalPath).exportJSONL(id, to: handle)
        try handle.close()
        #expect(try String(contentsOf: exported, encoding: .utf8) == text)
        #expect(try RecordedSession(contentsOfJSONL: url).entries == entries)
    }

    @Test("an export that reaches a damaged entry has written the header and every line before it, across chunks")
    func exportStopsAfterTheLinesBeforeADamagedEntry() throws {
        let (session, entries) = longSession("damaged") { String(repeating: "x", count: 40 + $0 % 60) }
        let text = RecordedSession(session: session, entries: entries, source: .textFile("damaged.jsonl")).jsonl()
        let source = directory.url.appendingPathComponent("damaged.jsonl")
        try Data(text.utf8).write(to: source)
        let journalPath = directory.path("damaged.actionlog")
        let id = try Journal.importJSONL(at: source, into: journalPath)
        let connection = try Connection(path: journalPath, mode: .readWrite)
        try connection.execute("UPDATE entries SET checksum = NULL, action = '{bad' WHERE seq = 2000")
        connection.close()

        let exported = directory.url.appendingPathComponent("exported.jsonl")
        #expect(FileManager.default.createFile(atPath: exported.path, contents: nil))
        let handle = try FileHandle(forWritingTo: exported)
        #expect {
            try Journal(path: journalPath).exportJSONL(id, to: handle)
        } throws: { error in
            (error as? ActionLogError)?.description
                == "damaged.actionlog, session 1, entry 2000: the action is not valid JSON: invalid JSON at byte 1: unexpected character \"b\""
        }
        try handle.close()
        // The header and entries 0 to 1,999: more than 64 KiB, so several chunks were written before the last.
        let written = try String(contentsOf: exported, encoding: .utf8)
        let expected = text.split(separator: "\n", omittingEmptySubsequences: false).prefix(2_001).joined(separator: "\n") + "\n"
        #expect(written.utf8.count > 1 << 16)
        #expect(written == expected)
    }

    @Test("awkward times round-trip exactly, through the text and through a journal, again and again")
    func awkwardTimes() throws {
        var times: [Date] = [
            Date(timeIntervalSinceReferenceDate: 1e-20), Date(timeIntervalSince1970: 1e-5), Date(timeIntervalSince1970: 0),
            Date(timeIntervalSince1970: -1.5e-7), Date(timeIntervalSinceReferenceDate: 0.1), Date(timeIntervalSinceReferenceDate: -0.0),
            Date(timeIntervalSince1970: 1_763_700_000), Date(timeIntervalSince1970: 1_763_700_000.123456789),
            Date(timeIntervalSinceReferenceDate: 785_392_800.1.nextUp), Date(timeIntervalSinceReferenceDate: 785_392_800.1.nextDown),
            .distantPast, .distantFuture, Date(timeIntervalSince1970: 1e300), Date(timeIntervalSince1970: -4.2e17),
        ]
        var generator = EncodingModel.SeededGenerator(seed: 42)
        for _ in 0..<200 {
            let magnitude = pow(10, Double.random(in: -12...18, using: &generator))
            times.append(Date(timeIntervalSinceReferenceDate: Double.random(in: -magnitude...magnitude, using: &generator)))
        }
        let entries = times.enumerated().map { seq, time in
            Entry(seq: seq, time: time, label: seq == 0 ? nil : "tick", action: seq == 0 ? nil : ["tick": [:]],
                  content: .keyframe(["n": JSONValue(integerLiteral: seq)]), effect: nil)
        }
        let session = SessionHeader(name: "times", startedAt: times[1], endedAt: times[7], status: .closed, libraryVersion: "0.1.0",
            appVersion: nil, stateType: "T", actionType: "A", effectType: nil, metadata: [:],
            entryCount: entries.count, droppedCount: 0, lastEntryAt: nil, storedUUID: UUID()
        )
        let recorded = RecordedSession(session: session, entries: entries, source: .textFile("times.jsonl"))
        let text = recorded.jsonl()
        var current = text
        for round in 0..<3 {
            current = try RecordedSession(jsonl: current, file: "times.jsonl").jsonl()
            #expect(current == text, "text round trip \(round)")
        }
        for round in 0..<3 {
            // A journal each: one journal holds a session (a uuid) once.
            let path = directory.path("times-\(round).actionlog")
            let id = try Journal(path: path, mode: .readWrite).insert(RecordedSession(jsonl: current, file: "times.jsonl"))
            current = try Journal(path: path).recordedSession(id).jsonl()
            #expect(current == text, "journal round trip \(round)")
        }
        #expect(text.contains(#""time":"2025-11-21T04:40:00.000000Z","#))
        #expect(text.contains(#""time":"1970-01-01T00:00:00.000010Z","#), "1e-05 seconds since 1970, to the microsecond")
        #expect(text.contains(#""time":"4001-01-01T00:00:00.000000Z","#), "distantFuture")
        #expect(text.contains(#""time":1e+300,"#), "past 9999, a number of seconds since 1970 as before")
    }

    @Test("every time is written as ISO 8601, or past 9999 as a JSON number that reads back as the same Double")
    func timeTexts() throws {
        #expect(JSONLTime.text(Date(timeIntervalSince1970: 0)) == #""1970-01-01T00:00:00.000000Z""#)
        #expect(JSONLTime.text(Date(timeIntervalSince1970: -1_763_700_000.123)) == #""1914-02-10T19:19:59.877000Z""#)
        let seconds: [Double] = [1e16, 1e+300, -1e16, -4.2e17]
        for value in seconds {
            let date = Date(timeIntervalSince1970: value)
            let text = JSONLTime.text(date)
            #expect(throws: Never.self, "\(text)") { try JSONValue(parsing: text) }
            #expect(Double(text) == date.timeIntervalSince1970, "\(text)")
            #expect(JSONLTime.text(JSONLTime.date(try #require(Double(text)))) == text, "reading the text gives a Date that writes it again")
        }
        #expect(JSONLTime.text(Date(timeIntervalSince1970: .infinity)) == #""inf""#, "not a number: written as a string that reading refuses")
    }

    @Test("reading accepts \\r\\n, blank lines at the end, keys in any order and unknown keys")
    func lenientReading() throws {
        let crlf = tinyText.replacingOccurrences(of: "\n", with: "\r\n") + "\r\n\n  \n"
        #expect(try RecordedSession(jsonl: crlf, file: "tiny.jsonl").jsonl() == tinyText)
        let noFinalNewline = String(tinyText.dropLast())
        #expect(try RecordedSession(jsonl: noFinalNewline, file: "tiny.jsonl").jsonl() == tinyText)
        let reordered = tinyText(
            replacingLine: 5,
            with: #"{"state":{"total":0,"items":[]},"future":[1,2],"action":{"clear":{}},"durationNs":800,"time":"2025-11-21T04:40:02.000000Z","label":"clear","kind":"keyframe","seq":3}"#
        )
        #expect(try RecordedSession(jsonl: reordered, file: "tiny.jsonl").jsonl() == tinyText)
    }

    @Test("a file read from disk names itself; a missing file is fileNotFound")
    func contentsOfFile() throws {
        let url = directory.url.appendingPathComponent("disk.jsonl")
        try Data(tinyText.utf8).write(to: url)
        let recorded = try RecordedSession(contentsOfJSONL: url)
        #expect(recorded.file == "disk.jsonl")
        #expect(recorded.session.name == #"checkout "tiny""#)
        let missing = directory.url.appendingPathComponent("nope.jsonl")
        let error = #expect(throws: ActionLogError.self) { try RecordedSession(contentsOfJSONL: missing) }
        #expect(error?.description == "nope.jsonl: no such file (looked for \(missing.path))")
        #expect(error?.code == .fileNotFound)
    }

    // MARK: - Refusals

    @Test("damaged text is refused with the file, the entry and the line (line 0: the whole text)", arguments: [
        (1, #"{"actionlog":"session","format":1,"#,
         #"tiny.jsonl: line 1: not an ActionLog session header: invalid JSON at byte 34: unexpected end of text"#),
        (1, #"{"actionlog":"session","name":"x"}"#, #"tiny.jsonl: line 1: the header has no "format""#),
        (1, #"{"actionlog":"session","format":1,"status":"closed"}"#, #"tiny.jsonl: line 1: the header has no "name""#),
        (1, #"{"actionlog":"session","format":1,"name":"x","startedAt":0,"status":"paused"}"#,
         #"tiny.jsonl: line 1: unknown session status "paused" (expected recording, closed or interrupted)"#),
        (1, #"{"actionlog":"session","format":1,"name":"x","status":"closed","startedAt":"yesterday"}"#,
         #"tiny.jsonl: line 1: "startedAt" must be an ISO 8601 time in UTC such as "2026-11-28T12:31:00.123456Z" (or a number of seconds since 1970), not "yesterday""#),
        (3, #"{"seq":1,"kind":"delta""#, "tiny.jsonl, entry 1: line 3: not JSON: invalid JSON at byte 23: unexpected end of text"),
        (3, "[1]", "tiny.jsonl, entry 1: line 3: an entry must be a JSON object, not an array"),
        (3, "", "tiny.jsonl, entry 1: line 3: a blank line; after the header, every line holds one entry"),
        (3, #"{"kind":"keyframe"}"#, #"tiny.jsonl, entry 1: line 3: the entry has no "seq""#),
        (3, #"{"seq":"1","kind":"keyframe"}"#, #"tiny.jsonl, entry 1: line 3: "seq" must be an integer, not a string"#),
        (3, #"{"seq":1.5,"kind":"keyframe"}"#, #"tiny.jsonl, entry 1: line 3: "seq" must be an integer, not 1.5"#),
        (4, #"{"seq":3,"kind":"keyframe","time":1,"state":{}}"#,
         "tiny.jsonl, entry 3: line 4: entry 3 where entry 2 was expected: entries run 0, 1, 2, … without holes"),
        (3, #"{"seq":1,"kind":"snapshot","time":1}"#,
         #"tiny.jsonl, entry 1: line 3: unknown entry kind "snapshot" (expected keyframe, delta or gap)"#),
        (3, #"{"seq":1,"kind":"keyframe","time":1,"patch":[]}"#, #"tiny.jsonl, entry 1: line 3: a keyframe without a state"#),
        (3, #"{"seq":1,"kind":"delta","time":1,"state":{}}"#, #"tiny.jsonl, entry 1: line 3: a delta without a patch"#),
        (3, #"{"seq":1,"kind":"delta","time":1,"patch":{"op":"add"}}"#,
         #"tiny.jsonl, entry 1: line 3: the delta is not a JSON Patch: invalid JSON Patch: the patch is an object, not an array of operations"#),
        (4, #"{"seq":2,"kind":"gap","time":1}"#, "tiny.jsonl, entry 2: line 4: a gap that lost no actions"),
        (4, #"{"seq":2,"kind":"gap","time":1,"dropped":-3}"#, "tiny.jsonl, entry 2: line 4: a gap that lost no actions"),
        (4, #"{"seq":2,"kind":"gap","time":1,"dropped":1,"state":{}}"#, "tiny.jsonl, entry 2: line 4: a gap holding a state"),
        (3, #"{"seq":1,"kind":"delta","patch":[]}"#, #"tiny.jsonl, entry 1: line 3: the entry has no "time""#),
        (3, #"{"seq":1,"kind":"delta","time":1e999,"patch":[]}"#,
         #"tiny.jsonl, entry 1: line 3: "time" must be an ISO 8601 time in UTC such as "2026-11-28T12:31:00.123456Z" (or a number of seconds since 1970), not 1e999"#),
        (3, #"{"seq":1,"kind":"delta","time":"inf","patch":[]}"#,
         #"tiny.jsonl, entry 1: line 3: "time" must be an ISO 8601 time in UTC such as "2026-11-28T12:31:00.123456Z" (or a number of seconds since 1970), not "inf""#),
        (3, #"{"seq":1,"kind":"delta","time":1,"patch":[],"label":7}"#,
         #"tiny.jsonl, entry 1: line 3: "label" must be a string, not 7"#),
    ])
    func refusals(line: Int, replacement: String, message: String) throws {
        let text = line == 0 ? replacement : tinyText(replacingLine: line, with: replacement)
        let error = #expect(throws: ActionLogError.self) { try RecordedSession(jsonl: text, file: "tiny.jsonl") }
        #expect(error?.description == message)
        #expect(error?.code == .corrupt)
        #expect(error?.file == "tiny.jsonl")
        #expect(error?.session == nil, "a text file has no session id")
    }

    @Test("a file of another kind (empty, not JSON from its first byte, JSON without the header's mark) is notAJournal", arguments: [
        (0, "", "tiny.jsonl: line 1: the file is empty, so not an ActionLog session"),
        (0, "\n\n", "tiny.jsonl: line 1: the file is empty, so not an ActionLog session"),
        (0, "root:x:0:0:root:/root:/bin/bash\n", #"tiny.jsonl: line 1: not an ActionLog session header: invalid JSON at byte 0: unexpected character "r""#),
        (1, #"{"seq":0,"kind":"keyframe"}"#, #"tiny.jsonl: line 1: not an ActionLog session header (it has no "actionlog":"session")"#),
        (1, "[1, 2]", #"tiny.jsonl: line 1: not an ActionLog session header (it has no "actionlog":"session")"#),
    ])
    func anotherKindOfFile(line: Int, replacement: String, message: String) throws {
        let text = line == 0 ? replacement : tinyText(replacingLine: line, with: replacement)
        let error = #expect(throws: ActionLogError.self) { try RecordedSession(jsonl: text, file: "tiny.jsonl") }
        #expect(error?.description == message)
        #expect(error?.code == .notAJournal)
    }

    @Test("a journal given where its text form is expected is named as such, notAJournal")
    func journalInsteadOfText() throws {
        let text = "SQLite format 3\u{0}\u{40}\u{0}\u{2}\u{2}\n{}"
        let error = #expect(throws: ActionLogError.self) { try RecordedSession(jsonl: text, file: "app.jsonl") }
        #expect(error?.description == "app.jsonl: an SQLite database (a journal?), not an ActionLog session in text form")
        #expect(error?.code == .notAJournal)
    }

    @Test("a file from a newer ActionLog is refused as newerSchema, saying so")
    func newerFormat() throws {
        let text = tinyText(replacingLine: 1, with: #"{"actionlog":"session","format":2,"whatever":"changed"}"#)
        let error = #expect(throws: ActionLogError.self) { try RecordedSession(jsonl: text, file: "future.jsonl") }
        #expect(error?.description == "future.jsonl: line 1: written by a newer ActionLog (text format 2), but this ActionLog reads text formats up to 1; update ActionLog to read it")
        #expect(error?.code == .newerSchema)
    }

    // MARK: - Import

    @Test("a session that does not replay is refused before anything is written", arguments: [
        (3, #"{"seq":1,"kind":"delta","label":"addItem","time":1,"action":{},"patch":[{"op":"replace","path":"/missing","value":1}]}"#,
         #"tiny.jsonl, entry 1: line 3: the delta does not apply: operation 0 (replace /missing): no member "missing""#),
        (2, #"{"seq":0,"kind":"delta","time":1,"patch":[]}"#,
         "tiny.jsonl, entry 0: line 2: entry 0 must be a keyframe holding the initial state and no action"),
        // After a gap, a delta applies to the state before the gap (entry 1's), or is refused.
        (5, #"{"seq":3,"kind":"delta","label":"clear","time":1,"action":{},"patch":[{"op":"remove","path":"/missing"}]}"#,
         #"tiny.jsonl, entry 3: line 5: the delta does not apply: operation 0 (remove /missing): no member "missing""#),
        (4, #"{"seq":2,"kind":"gap","time":1,"dropped":1}"#,
         "tiny.jsonl: line 1: the session counts 2 dropped actions, but its gaps add up to 1"),
        (0, String(tinyText.prefix { $0 != "\n" }) + "\n", "tiny.jsonl: line 1: no entries: a session needs at least entry 0, its initial state"),
    ])
    func refusedImports(line: Int, replacement: String, message: String) throws {
        let text = line == 0 ? replacement : tinyText(replacingLine: line, with: replacement)
        let recorded = try RecordedSession(jsonl: text, file: "tiny.jsonl")
        let path = directory.path("target.actionlog")
        let error = #expect(throws: ActionLogError.self) { try Journal(path: path, mode: .readWrite).insert(recorded) }
        #expect(error?.description == message)
        #expect(error?.code == .corrupt)
        #expect(try Journal(path: path).sessions().isEmpty)

        let url = directory.url.appendingPathComponent("tiny.jsonl")
        try Data(text.utf8).write(to: url)
        let fresh = directory.path("fresh.actionlog")
        let convenience = #expect(throws: ActionLogError.self) { try Journal.importJSONL(at: url, into: fresh) }
        #expect(convenience?.description == message)
        #expect(!FileManager.default.fileExists(atPath: fresh), "a damaged file creates no journal")
    }

    @Test("a delta after a gap imports, reads as the state before the gap patched, and exports to the same bytes")
    func deltaAfterGapImports() throws {
        let text = tinyText(replacingLine: 5, with: #"{"seq":3,"kind":"delta","label":"clear","time":"2025-11-21T04:40:02.000000Z","durationNs":800,"action":{"clear":{}},"patch":[{"op":"remove","path":"/items/0"},{"op":"replace","path":"/total","value":0}]}"#)
        let recorded = try RecordedSession(jsonl: text, file: "tiny.jsonl")
        #expect(try recorded.state(at: 3) == ["items": [], "total": 0])
        let path = directory.path("target.actionlog")
        let id = try Journal(path: path, mode: .readWrite).insert(recorded)
        let journal = try Journal(path: path)
        #expect(try journal.state(at: 3, in: id) == ["items": [], "total": 0])
        #expect(try journal.recordedSession(id).jsonl() == text)
        #expect(try journal.verify().isValid)
    }

    @Test("a failed insert rolls back: no partial session, and the next import gets the id")
    func failedInsertRollsBack() throws {
        let path = directory.path("target.actionlog")
        let journal = try Journal(path: path, mode: .readWrite)
        try sql(path, "CREATE TRIGGER refuse BEFORE INSERT ON entries WHEN NEW.seq = 2 BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END;")
        let error = #expect(throws: ActionLogError.self) { try journal.insert(tinySession()) }
        #expect(error?.description == """
            target.actionlog, entry 2: SQLite error 19: database or disk is full — while executing \
            INSERT INTO entries (session_id, seq, kind, time, label, action, state, effect, duration_ns, dropped, note, checksum) \
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
            """)
        #expect(error?.code == .sqlite)
        #expect(try journal.sessions().isEmpty)
        let connection = try Connection(path: path, mode: .readOnly)
        #expect(try connection.scalarInt("SELECT count(*) FROM entries") == 0)

        try sql(path, "DROP TRIGGER refuse")
        #expect(try journal.insert(tinySession()) == 1)
        #expect(try journal.recordedSession(1).jsonl() == tinyText)
    }

    @Test("a journal opened read-only refuses an insert with a clear error")
    func readOnlyJournal() throws {
        let path = directory.path("readonly.actionlog")
        _ = try Journal(path: path, mode: .readWrite)
        let error = #expect(throws: ActionLogError.self) { try Journal(path: path).insert(tinySession()) }
        #expect(error?.description == "readonly.actionlog: opened read-only, so no session can be inserted; open it with mode: .readWrite")
        #expect(try Journal(path: path).sessions().isEmpty)
    }

    @Test("a live session exports as recording and imports as interrupted, ended at its last entry")
    func liveSession() throws {
        let live = tinySession(status: .recording, endedAt: nil)
        let text = live.jsonl()
        #expect(text.hasPrefix(#"{"actionlog":"session","format":1,"name":"checkout \"tiny\"","status":"recording","startedAt":"2025-11-21T04:40:00.000000Z","libraryVersion":"0.1.0","#))
        let path = directory.path("live.actionlog")
        let id = try Journal(path: path, mode: .readWrite).insert(RecordedSession(jsonl: text, file: "live.jsonl"))
        let session = try Journal(path: path).session(id)
        #expect(session.status == .interrupted)
        #expect(session.endedAt == Date(timeIntervalSince1970: 1_763_700_002))
        let reexported = try Journal(path: path).recordedSession(id).jsonl()
        #expect(reexported.hasPrefix(#"{"actionlog":"session","format":1,"name":"checkout \"tiny\"","status":"interrupted","startedAt":"2025-11-21T04:40:00.000000Z","endedAt":"2025-11-21T04:40:02.000000Z","#))
    }

    @Test("state(at:) of a text session: the states, a gap, an entry that is not there")
    func statesOfTextSession() throws {
        let recorded = try RecordedSession(jsonl: tinyText, file: "tiny.jsonl")
        #expect(try recorded.state(at: 0) == ["items": [], "total": 0])
        #expect(try recorded.state(at: 1) == ["items": ["tea"], "total": 2])
        #expect(try recorded.state(at: 3) == ["items": [], "total": 0])
        let gap = #expect(throws: ActionLogError.self) { try recorded.state(at: 2) }
        #expect(gap?.description == "tiny.jsonl, entry 2: line 4: a gap: 2 actions were lost here, so no state was recorded")
        #expect(gap?.code == .entryNotFound)
        let missing = #expect(throws: ActionLogError.self) { try recorded.state(at: 9) }
        #expect(missing?.description == "tiny.jsonl, entry 9: no such entry")
    }
}

// MARK: - A feature whose small changes are recorded as deltas

/// A shelf of books with long titles, so that choosing one is a small change to a large state.
struct Shelf: Codable, Equatable, Sendable {
    var books = (1...12).map { "Volume \($0) of a collection whose titles are long enough to make a keyframe large" }
    var selected: Int?
    var opened: [Int] = []

    static func reduce(_ shelf: inout Shelf, _ action: ShelfAction) -> ShelfEffect? {
        switch action {
        case .select(let index):
            shelf.selected = index
            return nil
        case .open:
            guard let index = shelf.selected else { return nil }
            shelf.opened.append(index)
            return .read(title: shelf.books[index])
        }
    }
}

enum ShelfAction: Codable, Equatable, Sendable {
    case select(Int)
    case open
}

enum ShelfEffect: Codable, Equatable, Sendable {
    case read(title: String)
}
