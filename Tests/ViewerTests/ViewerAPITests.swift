import ActionLog
import ActionLogViewer
@testable import ActionLogViewerPage
import Foundation
import Testing

@Suite("ViewerAPI: old values in a change, comparing two entries, session metadata")
struct ViewerAPITests {
    @Test("compare: the fields that differ between two entries' states, with JSON Pointers; a gap or a missing parameter is refused")
    func compare() throws {
        let directory = try TemporaryDirectory()
        let path = try importJournal(cartJSONL, named: "cart", in: directory)
        let server = try ViewerServer(journalPath: path, port: 0)
        defer { server.stop() }
        let answer = try get(port: server.port, "/api/sessions/1/compare?from=0&to=2")
        #expect(answer.status == 200)
        #expect(answer.body == #"""
            {"differences":[{"path":"/items/0","to":"tea"},{"path":"/items/1","to":"</script><script>alert(1)</script>"},{"from":0,"path":"/total","to":5}],"from":0,"session":"1","to":2}
            """#)
        // The same fields as the library's (and replay-cli diff's) comparison.
        let journal = try Journal(path: path)
        let expected = try journal.state(at: 0, in: 1).differences(to: try journal.state(at: 2, in: 1)).map(\.path.jsonPointer)
        #expect(try JSONValue(parsing: answer.body)["differences"]?.array?.compactMap { $0["path"]?.string } == expected)
        #expect(try get(port: server.port, "/api/sessions/1/compare?from=3&to=3").body == #"{"differences":[],"from":3,"session":"1","to":3}"#)

        let gap = try get(port: server.port, "/api/sessions/1/compare?from=0&to=4")
        #expect(gap.status == 404)
        #expect(gap.body == #"{"entry":4,"error":"cart.actionlog, session 1, entry 4: a gap: 2 actions were lost here, so no state was recorded","file":"cart.actionlog","session":1}"#)
        let missing = try get(port: server.port, "/api/sessions/1/compare?from=0")
        #expect(missing.status == 400)
        #expect(missing.body == #"{"error":"The parameters from and to name the two entries to compare."}"#)
        let word = try get(port: server.port, "/api/sessions/1/compare?from=x&to=1")
        #expect(word.status == 400)
        #expect(word.body == #"{"error":"The parameter from must be an integer from 0 to 9223372036854775807, not \"x\"."}"#)
        let beyond = try get(port: server.port, "/api/sessions/1/compare?from=0&to=70")
        #expect(beyond.status == 404)
        #expect(beyond.body == #"{"entry":70,"error":"cart.actionlog, session 1, entry 70: no such entry","file":"cart.actionlog","session":1}"#)
    }

    @Test("changes: the entries that changed a path up to an entry, newest first, with old and new values; a bad path or bound is refused")
    func changes() throws {
        let directory = try TemporaryDirectory()
        let path = try importJournal(changedByJSONL, named: "cart", in: directory)
        let server = try ViewerServer(journalPath: path, port: 0)
        defer { server.stop() }
        let answer = try get(port: server.port, "/api/sessions/1/changes?path=%2Fcart%2Ftotal&at=6")
        #expect(answer.status == 200)
        #expect(answer.body == #"""
            {"changes":[{"action":8,"droppedBefore":3,"label":"checkout","newValue":9,"oldValue":2,"seq":6,"touched":["/cart/total"]},{"action":1,"droppedBefore":0,"label":"reprice","newValue":2,"oldValue":1,"seq":1,"touched":["/cart"]}],"more":false,"path":"/cart/total","session":"1"}
            """#)
        #expect(try get(port: server.port, "/api/sessions/1/changes?path=/cart/total&at=5&limit=1").body == #"""
            {"changes":[{"action":1,"droppedBefore":0,"label":"reprice","newValue":2,"oldValue":1,"seq":1,"touched":["/cart"]}],"more":true,"path":"/cart/total","session":"1"}
            """#)
        #expect(try get(port: server.port, "/api/sessions/1/entries/6").body.contains(#""actionNumber":8"#))
        let root = try get(port: server.port, "/api/sessions/1/changes?path=")
        #expect(root.status == 400)
        #expect(root.body == #"{"error":"The parameter path must be a JSON Pointer inside the state (/cart/total)."}"#)
        let limit = try get(port: server.port, "/api/sessions/1/changes?path=/cart&limit=0")
        #expect(limit.status == 400)
        #expect(limit.body == #"{"error":"The parameter limit must be an integer from 1 to 1000, not \"0\"."}"#)
        let session = try get(port: server.port, "/api/sessions/9/changes?path=/cart")
        #expect(session.status == 404)
        #expect(session.body == #"{"entry":null,"error":"cart.actionlog, session 9: no such session","file":"cart.actionlog","session":9}"#)
    }

    @Test("old values: each operation meets the state its earlier operations left; an add that sets an existing member replaced it, an insert did not")
    func oldValues() throws {
        let before: JSONValue = ["items": ["a", "b"], "total": 3, "note": "x"]
        let patch = try JSONPatch(JSONValue(parsing: """
            [{"op":"remove","path":"/items/0"},{"op":"replace","path":"/items/0","value":"c"},{"op":"add","path":"/items/0","value":"d"},
             {"op":"add","path":"/note","value":"y"},{"op":"add","path":"/new","value":1},{"op":"move","from":"/total","path":"/sum"},
             {"op":"replace","path":"","value":{}}]
            """))
        #expect(ViewerJSON.change(patch, before: before).canonicalText == """
            [{"old":"a","op":"remove","path":"/items/0"},{"old":"b","op":"replace","path":"/items/0","value":"c"},{"op":"add","path":"/items/0","value":"d"},\
            {"old":"x","op":"add","path":"/note","value":"y"},{"op":"add","path":"/new","value":1},{"from":"/total","op":"move","path":"/sum"},\
            {"old":{"items":["d","c"],"new":1,"note":"y","sum":3},"op":"replace","path":"","value":{}}]
            """)
        // Without the state before, the operations as stored; after one that does not apply, no more old values.
        #expect(ViewerJSON.change(patch).canonicalText == patch.jsonValue.canonicalText)
        let broken = try JSONPatch(JSONValue(parsing: #"[{"op":"remove","path":"/missing"},{"op":"replace","path":"/total","value":4}]"#))
        #expect(ViewerJSON.change(broken, before: before).canonicalText == #"[{"op":"remove","path":"/missing"},{"op":"replace","path":"/total","value":4}]"#)
    }

    @Test("old values add up to at most 4 MiB per change: a patch that copies and replaces a large value again and again stays bounded")
    func oldValuesBounded() throws {
        let large = String(repeating: "x", count: 1 << 20)
        let before: JSONValue = ["big": .string(large)]
        var operations: [JSONPatch.Operation] = []
        for _ in 0..<5 {
            operations.append(.copy(from: try #require(JSONPointer("/big")), path: try #require(JSONPointer("/c"))))
            operations.append(.replace(path: try #require(JSONPointer("/c")), value: 0))
        }
        let change = ViewerJSON.change(JSONPatch(operations: operations), before: before).array ?? []
        #expect(change.count == 10)
        // Each old value weighs a little more than 1 MiB: three fit, then none.
        #expect(change.map { $0["old"] != nil } == [false, true, false, true, false, true, false, false, false, false])
        #expect(change.map { $0["oldOmitted"] == .bool(true) } == [false, false, false, false, false, false, false, true, false, true])
        #expect(change[1]["old"] == .string(large))
    }

    @Test("the session list sends a session's metadata, or says it is larger than 8 KiB")
    func metadata() throws {
        let directory = try TemporaryDirectory()
        let header = #"{"actionlog":"session","format":1,"name":"NAME","status":"closed","startedAt":1000,"endedAt":1001,"libraryVersion":"0.1.0","stateType":"S","actionType":"A","dropped":0,"metadata":METADATA}"#
        let entry = #"{"seq":0,"kind":"keyframe","time":1000,"state":{}}"#
        let small = header.replacingOccurrences(of: "NAME", with: "small").replacingOccurrences(of: "METADATA", with: #"{"device":"phone","build":77}"#)
        let large = header.replacingOccurrences(of: "NAME", with: "large")
            .replacingOccurrences(of: "METADATA", with: #"{"notes":"\#(String(repeating: "y", count: 9000))"}"#)
        let path = directory.path("metadata.actionlog")
        for (name, text) in [("small", small), ("large", large)] {
            let url = directory.url.appendingPathComponent("\(name).jsonl")
            try (text + "\n" + entry + "\n").write(to: url, atomically: true, encoding: .utf8)
            try Journal.importJSONL(at: url, into: path)
        }
        let server = try ViewerServer(journalPath: path, port: 0)
        defer { server.stop() }
        let sessions = try JSONValue(parsing: try get(port: server.port, "/api/sessions").body)["sessions"]?.array ?? []
        #expect(sessions.map { $0["metadata"] } == [["build": 77, "device": "phone"], .null])
        #expect(sessions.map { $0["metadataTooLarge"] } == [false, true])
    }
}
