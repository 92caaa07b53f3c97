import ActionLog
import ActionLogViewer
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("ViewerServer")
struct ViewerServerTests {
    /// Serves the cart session on a free port for the duration of `body`.
    private func serving(_ body: (ViewerServer, TemporaryDirectory) throws -> Void) throws {
        let directory = try TemporaryDirectory()
        let path = try importJournal(cartJSONL, named: "cart", in: directory)
        let server = try ViewerServer(journalPath: path, port: 0)
        defer { server.stop() }
        try body(server, directory)
    }

    @Test("the page: HTML with the DOM the viewer needs, and the safety headers")
    func page() throws {
        try serving { server, _ in
            #expect(server.url.absoluteString == "http://127.0.0.1:\(server.port)/")
            let response = try get(port: server.port, "/")
            #expect(response.status == 200)
            #expect(response.headers["content-type"] == "text/html; charset=utf-8")
            #expect(response.headers["x-content-type-options"] == "nosniff")
            #expect(response.headers["cache-control"] == "no-store")
            #expect(response.headers["content-security-policy"]?.hasPrefix("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'") == true)
            for id in ["sessions", "timeline", "state", "diff", "action", "effect", "filter", "jump", "slider"] {
                #expect(response.body.contains("id=\"\(id)\""), "no #\(id)")
            }
            #expect(!response.body.contains("innerHTML"))
            #expect(!response.body.contains("http://") && !response.body.contains("https://"))
            let head = try get(port: server.port, "/", method: "HEAD")
            #expect(head.status == 200 && head.body.isEmpty)
        }
    }

    @Test("sessions: the list with names, statuses, counts and times")
    func sessions() throws {
        try serving { server, _ in
            let response = try get(port: server.port, "/api/sessions")
            #expect(response.status == 200)
            #expect(response.headers["content-type"] == "application/json; charset=utf-8")
            #expect(response.body == #"""
                {"damaged":[],"file":"cart.actionlog","older":null,"sessions":[{"actionType":"Cart.Action","appVersion":"2.1","dropped":2,"duration":2.000000,"entries":7,"id":"1","lastEntryAt":1002.000000,"metadata":{},"metadataTooLarge":false,"name":"cart <b>","startedAt":1000.000000,"stateType":"Cart","status":"closed","uuid":"\#(derivedCartUUID)"}]}
                """#)
        }
    }

    @Test("sessions: the newest first, a window at a time, older naming the window before; a bad before or limit answers 400")
    func sessionWindows() throws {
        try serving { server, directory in
            try addEmptySessions(4, to: directory.path("cart.actionlog"))
            func window(_ query: String) throws -> (ids: [String], older: JSONValue?) {
                let response = try get(port: server.port, "/api/sessions" + query)
                #expect(response.status == 200, "\(query)")
                let body = try JSONValue(parsing: response.body)
                guard case .array(let sessions)? = body["sessions"] else { return ([], nil) }
                let ids = sessions.compactMap { session -> String? in
                    if case .string(let id)? = session["id"] { return id }
                    return nil
                }
                return (ids, body["older"])
            }
            func expectWindow(_ query: String, _ ids: [String], older: JSONValue) throws {
                let answer = try window(query)
                #expect(answer.ids == ids && answer.older == older, "\(query)")
            }
            try expectWindow("", ["1", "2", "3", "4", "5"], older: .null)
            try expectWindow("?limit=2", ["4", "5"], older: .string("4"))
            try expectWindow("?before=4&limit=2", ["2", "3"], older: .string("2"))
            try expectWindow("?before=2&limit=2", ["1"], older: .null)
            try expectWindow("?before=1", [], older: .null)
            let extra = try JSONValue(parsing: try get(port: server.port, "/api/sessions?limit=1").body)
            #expect(extra["sessions"]?[0]?["name"] == .string("extra 5"))
            for query in ["?limit=0", "?limit=1001", "?before=x", "?limit=-1"] {
                let refused = try get(port: server.port, "/api/sessions" + query)
                #expect(refused.status == 400, "\(query)")
            }
            #expect(try get(port: server.port, "/api/sessions?limit=1001").body == #"{"error":"The parameter limit must be an integer from 1 to 1000, not \"1001\"."}"#)
        }
    }

    @Test("timeline: a window of rows from an entry, and the label filter (substring, or * and ?)")
    func timeline() throws {
        try serving { server, _ in
            let window = try get(port: server.port, "/api/sessions/1/timeline?from=1&limit=4")
            #expect(window.status == 200)
            #expect(window.body.contains(#""rows":[[1,0.500000,"addItem","keyframe",1500,null],[2,1.000000,"addItem","delta",900,null],[3,1.250000,"removeItem","delta",null,null],[4,1.500000,null,"gap",null,2]]"#))
            #expect(window.body.contains(#""next":5"#))
            let last = try get(port: server.port, "/api/sessions/1/timeline?from=5")
            #expect(last.body.contains(#""next":null"#) && last.body.contains(#""rows":[[5,"#))
            let filtered = try get(port: server.port, "/api/sessions/1/timeline?label=Item")
            #expect(filtered.body.contains(#""rows":[[1,0.500000,"addItem","keyframe",1500,null],[2,1.000000,"addItem","delta",900,null],[3,1.250000,"removeItem","delta",null,null]]"#))
            let glob = try get(port: server.port, "/api/sessions/1/timeline?label=r%3F%3F%2A")
            #expect(glob.body.contains(#""rows":[[3,1.250000,"removeItem","delta",null,null],[6,2.000000,"reset","keyframe",null,null]]"#))
            let bad = try get(port: server.port, "/api/sessions/1/timeline?limit=5000")
            #expect(bad.status == 400)
            #expect(bad.body == #"{"error":"The parameter limit must be an integer from 0 to 1000, not \"5000\"."}"#)
        }
    }

    @Test("the label filter: a pattern of more than 1000 Unicode scalars answers 400 with the limit")
    func filterLengthLimit() throws {
        try serving { server, _ in
            let longest = try get(port: server.port, "/api/sessions/1/timeline?label=" + String(repeating: "a", count: 1000))
            #expect(longest.status == 200 && longest.body.contains(#""rows":[]"#))
            let refused = try get(port: server.port, "/api/sessions/1/timeline?label=%2A" + String(repeating: "%C3%A9", count: 1000))
            #expect(refused.status == 400)
            #expect(refused.body == #"{"error":"The label pattern must be at most 1000 characters (Unicode scalars) long, not 1001."}"#)
        }
    }

    /// A session whose labels are `labels` (entry 0, the initial state, has none).
    private static func labelled(_ labels: [String]) -> String {
        var text = """
            {"actionlog":"session","format":1,"name":"long","status":"closed","startedAt":1000,"endedAt":1001,"libraryVersion":"0.1.0","stateType":"S","actionType":"A","dropped":0,"metadata":{}}
            {"seq":0,"kind":"keyframe","time":1000,"state":{}}

            """
        for (index, label) in labels.enumerated() {
            text += #"{"seq":\#(index + 1),"kind":"delta","label":\#(JSONValue.string(label).canonicalText),"time":1000.5,"action":{"a":{}},"patch":[]}"# + "\n"
        }
        return text
    }

    @Test("labels of 1,000,000 characters and the longest pattern: the filtered window answers, with the right rows")
    func filterLongLabels() throws {
        let directory = try TemporaryDirectory()
        let long = String(repeating: "a", count: 1_000_000)
        let path = try importJournal(Self.labelled([long, long + "b", long, "b"]), named: "long", in: directory)
        let server = try ViewerServer(journalPath: path, port: 0)
        defer { server.stop() }
        let pattern = "%2A" + String(repeating: "a", count: 998) + "b"
        // A filtered window answers what it found within its time budget, with `next` to go on: on a
        // busy machine the match may come in a later window, so the windows are read to the end.
        #expect(try filteredSeqs(port: server.port, label: pattern) == [.number("2")])
        // As a substring (no wildcard), the same.
        #expect(try filteredSeqs(port: server.port, label: String(repeating: "a", count: 999) + "b") == [.number("2")])
    }

    /// The seqs of the rows every filtered window of session 1 holds for `label`, following `next`
    /// to the end (at most 100 windows).
    private func filteredSeqs(port: Int, label: String) throws -> [JSONValue] {
        var seqs: [JSONValue] = []
        var from = 0
        for _ in 0..<100 {
            let response = try get(port: port, "/api/sessions/1/timeline?label=\(label)&from=\(from)")
            #expect(response.status == 200)
            let body = try JSONValue(parsing: response.body)
            if case .array(let rows)? = body["rows"] { seqs += rows.compactMap { $0[0] } }
            guard case .number(let next)? = body["next"], let seq = Int(next) else { return seqs }
            from = seq
        }
        Issue.record("the filtered windows did not end after 100 reads")
        return seqs
    }

    @Test("a filtered window whose time is spent answers what it found, and next goes on to the same rows")
    func filterTimeBudget() throws {
        let directory = try TemporaryDirectory()
        let labels = (1...12).map { $0 % 3 == 0 ? "keep\($0)" : "skip\($0)" }
        let path = try importJournal(Self.labelled(labels), named: "budget", in: directory)
        // No time at all: each filtered window reads one entry, then answers.
        let server = try ViewerServer(journalPath: path, port: 0, timeoutSeconds: 10, filterTimeBudget: .zero)
        defer { server.stop() }
        var from = 0
        var found: [JSONValue] = []
        var windows = 0
        while windows < 100 {
            windows += 1
            let response = try get(port: server.port, "/api/sessions/1/timeline?label=keep&from=\(from)")
            #expect(response.status == 200)
            let body = try JSONValue(parsing: response.body)
            if case .array(let rows)? = body["rows"] { found += rows.compactMap { $0[2] } }
            guard case .number(let next)? = body["next"], let seq = Int(next) else { break }
            // Each window reads one entry and goes on after it.
            #expect(seq == from + 1)
            from = seq
        }
        #expect(found == [JSONValue]((1...4).map { .string("keep\($0 * 3)") }))
        // Entries 0 to 12, then the window after the last, which ends it.
        #expect(windows == labels.count + 2)
        // Unfiltered windows are not cut short.
        let whole = try JSONValue(parsing: try get(port: server.port, "/api/sessions/1/timeline").body)
        #expect(whole["rows"]?[12] != nil && whole["next"] == .null)
    }

    @Test("an entry: the state rebuilt from its keyframe, the delta as its change with the values it replaced and removed, action and effect")
    func deltaEntry() throws {
        try serving { server, _ in
            let response = try get(port: server.port, "/api/sessions/1/entries/3")
            #expect(response.status == 200)
            #expect(response.body == #"""
                {"action":{"removeItem":{"index":0}},"actionNumber":3,"change":[{"old":"tea","op":"remove","path":"/items/0"},{"old":5,"op":"replace","path":"/total","value":3}],"changeSource":"delta","dropped":null,"effect":null,"handler":null,"kind":"delta","label":"removeItem","note":null,"offset":1.250000,"reducerNanoseconds":null,"seq":3,"session":"1","state":{"items":["</script><script>alert(1)</script>"],"total":3}}
                """#)
        }
    }

    @Test("a keyframe's change is its diff from the previous state; a gap has no state; after a gap, no change is known")
    func keyframesAndGaps() throws {
        try serving { server, _ in
            let diff = try get(port: server.port, "/api/sessions/1/entries/6")
            #expect(diff.body.contains(#""change":[{"old":true,"op":"remove","path":"/paid"}],"changeSource":"diff""#))
            let gap = try get(port: server.port, "/api/sessions/1/entries/4")
            #expect(gap.body.contains(#""kind":"gap""#) && gap.body.contains(#""state":null"#) && gap.body.contains(#""note":"queue full""#))
            let afterGap = try get(port: server.port, "/api/sessions/1/entries/5")
            #expect(afterGap.body.contains(#""change":[],"changeSource":"none""#))
            let initial = try get(port: server.port, "/api/sessions/1/entries/0")
            #expect(initial.body.contains(#""changeSource":"initial""#))
        }
    }

    @Test("after a gap, a delta's state is the state before the gap patched; as after a keyframe there, no change is said")
    func deltaAfterGap() throws {
        let directory = try TemporaryDirectory()
        let keyframe = #"{"seq":5,"kind":"keyframe","label":"checkout","time":1001.75,"action":{"checkout":{}},"state":{"items":[],"paid":true,"total":0}}"#
        let delta = #"{"seq":5,"kind":"delta","label":"checkout","time":1001.75,"action":{"checkout":{}},"patch":[{"op":"remove","path":"/items/0"},{"op":"add","path":"/paid","value":true},{"op":"replace","path":"/total","value":0}]}"#
        #expect(cartJSONL.contains(keyframe))
        let path = try importJournal(cartJSONL.replacingOccurrences(of: keyframe, with: delta), named: "cart", in: directory)
        let server = try ViewerServer(journalPath: path, port: 0)
        defer { server.stop() }
        let afterGap = try get(port: server.port, "/api/sessions/1/entries/5")
        #expect(afterGap.body.contains(#""kind":"delta""#))
        #expect(afterGap.body.contains(#""change":[],"changeSource":"none""#))
        #expect(afterGap.body.contains(#""state":{"items":[],"paid":true,"total":0}"#))
        let diff = try get(port: server.port, "/api/sessions/1/entries/6")
        #expect(diff.body.contains(#""change":[{"old":true,"op":"remove","path":"/paid"}],"changeSource":"diff""#))
    }

    @Test("errors: an unknown session or entry answers 404 with the journal's message")
    func errors() throws {
        try serving { server, _ in
            let session = try get(port: server.port, "/api/sessions/9/entries/0")
            #expect(session.status == 404)
            #expect(session.body == #"{"entry":null,"error":"cart.actionlog, session 9: no such session","file":"cart.actionlog","session":9}"#)
            let entry = try get(port: server.port, "/api/sessions/1/entries/7")
            #expect(entry.status == 404)
            #expect(entry.body == #"{"entry":7,"error":"cart.actionlog, session 1, entry 7: no such entry","file":"cart.actionlog","session":1}"#)
            let word = try get(port: server.port, "/api/sessions/abc/timeline")
            #expect(word.status == 404)
            #expect(word.body == #"{"entry":null,"error":"cart.actionlog: no session \"abc\"","file":"cart.actionlog","session":null}"#)
            let huge = try get(port: server.port, "/api/sessions/1/entries/99999999999999999999999")
            #expect(huge.status == 404)
        }
    }

    @Test("a damaged entry answers 422 naming the file, the session and the entry; the server goes on")
    func damagedEntry() throws {
        let directory = try TemporaryDirectory()
        let path = try importJournal(cartJSONL, named: "cart", in: directory)
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        sqlite.arguments = ["sqlite3", path, "UPDATE entries SET checksum = NULL, state = '{\"items\":' WHERE seq = 1"]
        try sqlite.run()
        sqlite.waitUntilExit()
        try #require(sqlite.terminationStatus == 0, "sqlite3 is needed for this test")
        let server = try ViewerServer(journalPath: path, port: 0)
        defer { server.stop() }
        let response = try get(port: server.port, "/api/sessions/1/entries/2")
        #expect(response.status == 422)
        #expect(response.body == #"{"entry":1,"error":"cart.actionlog, session 1, entry 1: the state is not valid JSON: invalid JSON at byte 9: unexpected end of text","file":"cart.actionlog","session":1}"#)
        #expect(try get(port: server.port, "/api/sessions/1/timeline").status == 200)
    }

    @Test("the deepest state a journal may hold is served, with its change")
    func deepestState() throws {
        let directory = try TemporaryDirectory()
        let levels = JSONValue.maximumDepth - 1
        let deep = String(repeating: #"{"d":"#, count: levels - 1) + "1" + String(repeating: "}", count: levels - 1)
        let deeper = String(repeating: #"{"d":"#, count: levels - 1) + "2" + String(repeating: "}", count: levels - 1)
        let text = """
            {"actionlog":"session","format":1,"name":"deep","status":"closed","startedAt":1000,"endedAt":1001,"libraryVersion":"0.1.0","stateType":"S","actionType":"A","dropped":0,"metadata":{}}
            {"seq":0,"kind":"keyframe","time":1000,"state":\(deep)}
            {"seq":1,"kind":"keyframe","label":"tap","time":1000.5,"action":{"tap":{}},"state":\(deeper)}

            """
        let path = try importJournal(text, named: "deep", in: directory)
        let server = try ViewerServer(journalPath: path, port: 0)
        defer { server.stop() }
        let response = try get(port: server.port, "/api/sessions/1/entries/1")
        #expect(response.status == 200)
        #expect(response.body.contains(#""changeSource":"diff""#) && response.body.contains(#""op":"replace""#))
    }

    @Test("refuses a Host header other than the address it printed (DNS rebinding), and unknown paths and methods")
    func refusals() throws {
        try serving { server, _ in
            let port = server.port
            let foreign = try get(port: port, "/api/sessions", host: "evil.example:\(port)")
            #expect(foreign.status == 421)
            #expect(foreign.headers["content-type"] == "text/plain; charset=utf-8")
            #expect(foreign.body == """
                Refused: this viewer answers requests for http://127.0.0.1:\(port)/ only, not for the host "evil.example:\(port)" \
                (a page of another site may be trying to read the journal). Open http://127.0.0.1:\(port)/ instead.

                """)
            #expect(try get(port: port, "/api/sessions", host: "localhost:\(port)").status == 200)
            #expect(try get(port: port, "/api/sessions", host: "127.0.0.1").status == 421)
            #expect(try get(port: port, "/api/sessions", host: "127.0.0.1:\(port + 1)").status == 421)
            let noHost = try exchange(port: port, Array("GET / HTTP/1.1\r\n\r\n".utf8))
            #expect(noHost.status == 400)
            #expect(noHost.body == "Refused: the request has no Host header.\n")
            let unknown = try get(port: port, "/etc/passwd")
            #expect(unknown.status == 404)
            #expect(unknown.body == #"{"error":"No such page: the viewer serves /, /api/sessions and /api/sessions/ID/…."}"#)
            #expect(try get(port: port, "/api/sessions/1/../../cart.actionlog").status == 404)
            let icon = try get(port: port, "/favicon.ico")
            #expect(icon.status == 200 && icon.headers["content-type"] == "image/svg+xml" && icon.body.hasPrefix("<svg "))
            let post = try get(port: port, "/api/sessions", method: "POST")
            #expect(post.status == 405 && post.headers["allow"] == "GET, HEAD")
            let garbage = try exchange(port: port, Array("HELLO\r\n\r\n".utf8))
            #expect(garbage.status == 400)
            // An encoded slash makes no route; an empty Host is none; a head whose lines end in a
            // bare LF is read, not waited on until the timeout.
            let slash = try get(port: port, "/api/sessions/1%2Fentries%2F1")
            #expect(slash.status == 400)
            #expect(slash.body == "Refused: The path holds an encoded slash (%2F).\n")
            #expect(try exchange(port: port, Array("GET / HTTP/1.1\r\nHost: \r\n\r\n".utf8)).status == 400)
            let bareLF = try exchange(port: port, Array("GET /api/sessions HTTP/1.1\nHost: 127.0.0.1:\(port)\n\n".utf8))
            #expect(bareLF.status == 200 && bareLF.body.hasPrefix(#"{"damaged":[]"#))
            let large = try exchange(port: port, Array("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX: \(String(repeating: "a", count: 20_000))\r\n\r\n".utf8))
            #expect(large.status == 431)
            #expect(large.body == "Refused: the request's head is larger than 16 KiB.\n")
        }
    }

    @Test("a session being recorded: new entries show in the next window, and its status is recording")
    func liveSession() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("live.actionlog")
        let recorder = try Recorder<Int, String, Never>(path: path, sessionName: "live", initialState: 0)
        recorder.record(action: "one", state: 1)
        recorder.flush()
        let server = try ViewerServer(journalPath: path, port: 0)
        defer { server.stop() }
        let before = try get(port: server.port, "/api/sessions/1/timeline?from=0")
        #expect(before.body.contains(#""entries":2"#) && before.body.contains(#""status":"recording""#))
        recorder.record(action: "two", state: 2)
        recorder.flush()
        let after = try get(port: server.port, "/api/sessions/1/timeline?from=2")
        #expect(after.body.contains(#""rows":[[2,"#) && after.body.contains(#""entries":3"#))
        recorder.close()
        let closed = try get(port: server.port, "/api/sessions/1/timeline?from=3")
        #expect(closed.body.contains(#""status":"closed""#) && closed.body.contains(#""rows":[]"#))
    }

    @Test("stop ends the server, twice is harmless; an address that is not IPv4 is refused with a sentence")
    func stopping() throws {
        let directory = try TemporaryDirectory()
        let path = try importJournal(cartJSONL, named: "cart", in: directory)
        let server = try ViewerServer(journalPath: path, port: 0)
        let port = server.port
        #expect(try get(port: port, "/api/sessions").status == 200)
        server.stop()
        server.stop()
        #expect(throws: ViewerServerError.self) { try get(port: port, "/api/sessions") }
        #expect {
            try ViewerServer(journalPath: path, host: "::1", port: 0)
        } throws: { error in
            (error as? ViewerServerError)?.description == "cannot listen on ::1: it is not an IPv4 address (such as 127.0.0.1)"
        }
        #expect(throws: ActionLogError.self) { try ViewerServer(journalPath: directory.path("missing.actionlog"), port: 0) }
    }

    @Test("a peer that reads a large answer slowly is cut off at the write deadline (the timeout, and a tenth of it per MiB), not served for as long as it reads")
    func slowReaderIsCutOff() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("large.actionlog")
        let recorder = try Recorder<[String], String, Never>(
            path: path, sessionName: "large", initialState: [String(repeating: "x", count: 12 << 20)])
        recorder.close()
        let server = try ViewerServer(journalPath: path, port: 0, timeoutSeconds: 1)
        defer { server.stop() }

        // A client that asks for entry 0 (12 MiB of state, more than the kernel buffers) and then reads
        // 1 KiB every 50 ms: 20 KiB/s, ten minutes for the whole answer, and never silent for the 1 s
        // a write waits.
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var size: Int32 = 4096
        setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(server.port)).bigEndian
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(connected == 0)
        let request = Array("GET /api/sessions/1/entries/0 HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n".utf8)
        try #require(request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) } == request.count)
        let clock = ContinuousClock()
        let start = clock.now
        var received = 0
        var chunk = [UInt8](repeating: 0, count: 1024)
        while clock.now - start < .seconds(60) {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            received += count
            Thread.sleep(forTimeInterval: 0.05)
        }
        // Cut off after about 2.2 s (1 s, and 0.1 s per MiB of the answer), far short of the answer:
        // the connection is reset, so what the kernel still held for it is dropped too.
        #expect(clock.now - start < .seconds(60), "the server kept writing to a slow reader")
        #expect(received < 4 << 20)
        // Meanwhile, and after, others are answered.
        #expect(try get(port: server.port, "/api/sessions").status == 200)
    }

    @Test("requests read through connections of their own: two at once get two, and the pool keeps them for the next")
    func journalPool() throws {
        let directory = try TemporaryDirectory()
        let path = try importJournal(cartJSONL, named: "cart", in: directory)
        let pool = JournalPool(try Journal(path: path), path: path, capacity: 2)
        let (outer, inner, sessions) = try pool.withJournal { outer in
            try pool.withJournal { inner in
                (ObjectIdentifier(outer), ObjectIdentifier(inner), try inner.sessions().count)
            }
        }
        #expect(outer != inner)
        #expect(sessions == 1)
        #expect(pool.idleCount == 2)
        // Kept and given again, not opened anew; beyond the capacity, not kept.
        let again = pool.withJournal { ObjectIdentifier($0) }
        #expect(again == outer || again == inner)
        pool.withJournal { _ in pool.withJournal { _ in pool.withJournal { _ in } } }
        #expect(pool.idleCount == 2)
    }
}
