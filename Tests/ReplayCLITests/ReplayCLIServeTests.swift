import ActionLogViewer
import Foundation
import Testing

/// Sends one HTTP/1.1 request to 127.0.0.1:`port` and returns the status line's code and the body.
private func request(port: Int, _ path: String, host: String) throws -> (status: Int, body: String) {
    let response = try LoopbackClient.get(port: port, path, host: host)
    return (response.status, response.body)
}

/// Starts `replay-cli` with `arguments` in `directory` and reads its first line, the address it
/// serves; returns the running process, that line and its standard error.
func startServe(_ arguments: [String], in directory: URL) throws -> (process: Process, url: String, errors: Pipe) {
    let process = Process()
    process.executableURL = try replayCLIBinary()
    process.arguments = arguments
    process.currentDirectoryURL = directory
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    // The first line, byte by byte: the address.
    var line: [UInt8] = []
    while let byte = try output.fileHandleForReading.read(upToCount: 1)?.first, byte != UInt8(ascii: "\n") { line.append(byte) }
    return (process, String(decoding: line, as: UTF8.self), errors)
}

/// The port of the address `serve` printed first (`http://127.0.0.1:PORT/`).
func servedPort(_ url: String) throws -> Int {
    try #require(Int(url.dropFirst("http://127.0.0.1:".count).dropLast()), "not an address: \(url)")
}

@Suite("replay-cli serve and report")
struct ServeCommandTests {
    @Test("serve prints its address first, answers the API, refuses a foreign Host and unknown paths, and stops on SIGINT with status 0")
    func serve() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            let (process, url, errors) = try startServe(["serve", "demo.actionlog", "--port", "0"], in: directory)
            defer { if process.isRunning { process.terminate() } }
            #expect(matches(url, #"http://127\.0\.0\.1:[0-9]+/"#))
            let port = try servedPort(url)
            let host = "127.0.0.1:\(port)"

            let sessions = try request(port: port, "/api/sessions", host: host)
            #expect(sessions.status == 200)
            #expect(sessions.body.hasPrefix(#"{"damaged":[],"file":"demo.actionlog","older":null,"sessions":[{"#))
            let timeline = try request(port: port, "/api/sessions/2/timeline?from=0&limit=2", host: host)
            #expect(timeline.body.contains(#""rows":[[0,0.000000,null,"keyframe",null,null],[1,"#))
            let entry = try request(port: port, "/api/sessions/2/entries/1", host: host)
            #expect(entry.status == 200 && entry.body.contains(#""label":"addItem""#))

            let foreign = try request(port: port, "/api/sessions", host: "attacker.example:\(port)")
            #expect(foreign.status == 421)
            #expect(foreign.body == """
                Refused: this viewer answers requests for http://127.0.0.1:\(port)/ only, not for the host "attacker.example:\(port)" \
                (a page of another site may be trying to read the journal). Open http://127.0.0.1:\(port)/ instead.

                """)
            let unknownPath = try request(port: port, "/demo.actionlog", host: host)
            #expect(unknownPath.status == 404)
            let unknownSession = try request(port: port, "/api/sessions/42/timeline", host: host)
            #expect(unknownSession.status == 404)
            #expect(unknownSession.body == #"{"entry":null,"error":"demo.actionlog, session 42: no such session","file":"demo.actionlog","session":42}"#)

            kill(process.processIdentifier, SIGINT)
            process.waitUntilExit()
            #expect(process.terminationReason == .exit)
            #expect(process.terminationStatus == 0)
            let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(stderr == "")
        }
    }

    @Test("a journal another connection holds locked answers 503 with Retry-After, and 200 once the lock is gone")
    func serveALockedJournal() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            let (process, url, _) = try startServe(["serve", "demo.actionlog", "--port", "0"], in: directory)
            defer { if process.isRunning { process.terminate() } }
            let port = try servedPort(url)
            #expect(try LoopbackClient.get(port: port, "/api/sessions").status == 200)

            // A sqlite3 session takes and keeps an exclusive lock: readers wait 5 s, then fail.
            let locker = Process()
            locker.executableURL = try sqlite3Tool()
            locker.arguments = ["demo.actionlog"]
            locker.currentDirectoryURL = directory
            let (input, output) = (Pipe(), Pipe())
            locker.standardInput = input
            locker.standardOutput = output
            try locker.run()
            defer { if locker.isRunning { locker.terminate() } }
            try input.fileHandleForWriting.write(contentsOf: Data("PRAGMA locking_mode=EXCLUSIVE;\nBEGIN EXCLUSIVE;\nSELECT 'locked';\n".utf8))
            var printed: [UInt8] = []
            while !String(decoding: printed, as: UTF8.self).hasSuffix("locked\n"),
                let byte = try output.fileHandleForReading.read(upToCount: 1)?.first {
                printed.append(byte)
            }

            let locked = try LoopbackClient.get(port: port, "/api/sessions")
            #expect(locked.status == 503)
            #expect(locked.headers["retry-after"] == "1")
            #expect(locked.body == """
                {"entry":null,"error":"demo.actionlog: another connection holds the journal locked, longer than this one waits for it \
                (SQLite error 5: database is locked); try again once it lets go","file":"demo.actionlog","session":null}
                """)

            try input.fileHandleForWriting.close()
            locker.waitUntilExit()
            #expect(try LoopbackClient.get(port: port, "/api/sessions").status == 200)
        }
    }

    @Test("serve --host with a name or a malformed address is a usage error, before anything listens",
          arguments: ["localhost", "127.0.0", "::1", "300.1.1.1"])
    func serveOnABadHost(host: String) throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            let result = try runCLI(["serve", "demo.actionlog", "--host", host], in: directory)
            #expect(result.status == 64)
            #expect(result.stdout == "")
            #expect(result.stderr.hasPrefix("Error: --host must be an IPv4 address such as 127.0.0.1, not \(host)\n"), "\(result.stderr)")
        }
    }

    @Test("serve --host warns that anyone who can reach the address can read the journal")
    func serveOnAnotherAddress() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            let (process, url, errors) = try startServe(["serve", "demo.actionlog", "--host", "0.0.0.0"], in: directory)
            defer { if process.isRunning { process.terminate() } }
            let port = try servedPort(url)
            #expect(try request(port: port, "/api/sessions", host: "127.0.0.1:\(port)").status == 200)
            #expect(try request(port: port, "/api/sessions", host: "192.168.1.20:\(port)").status == 200)
            #expect(try request(port: port, "/api/sessions", host: "rebound.example:\(port)").status == 421)
            process.terminate()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(stderr == """
                warning: serving on 0.0.0.0:\(port): anyone who can reach this address can read the journal demo.actionlog.

                """)
        }
    }

    @Test("report writes one HTML file with the session's data embedded and nothing fetched")
    func report() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            let result = try runCLI(["report", "demo.actionlog", "--session", "checkout", "--output", "checkout.html"], in: directory)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == "Wrote checkout.html: session 2 (15 entries).\n")
            let html = try String(contentsOf: directory.appendingPathComponent("checkout.html"), encoding: .utf8)
            #expect(html.contains(#"<script type="application/json" id="actionlog-data">{"sessions":[{"actionType":"ActionLogExamples.Checkout.Event""#))
            #expect(html.contains(#""name":"checkout""#))
            #expect(!html.contains("http://") && !html.contains("https://"))
            #expect(!html.contains("fetch(\"") && html.contains("default-src 'none'"))

            let capped = try runCLI(["report", "demo.actionlog", "--session", "2", "--output", "small.html", "--max-bytes", "1000"], in: directory)
            #expect(capped.status == 64)
            #expect(capped.stderr.hasPrefix("error: demo.actionlog, session 2, entry "))
            #expect(capped.stderr.hasSuffix(": the report would embed more than 1000 bytes of data; raise the cap (replay-cli report --max-bytes), or view the session with replay-cli serve\n"))
            let itself = try runCLI(["report", "demo.actionlog", "--session", "2", "--output", "demo.actionlog"], in: directory)
            #expect(itself.status == 64)
            #expect(itself.stderr == "error: demo.actionlog: the journal being read, or a file of it; --output needs another file\n")
        }
    }
}
