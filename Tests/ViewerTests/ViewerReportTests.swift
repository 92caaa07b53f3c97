import ActionLog
import ActionLogViewer
import Foundation
import Testing

@Suite("ViewerReport")
struct ViewerReportTests {
    /// The JSON embedded in a report, parsed.
    private func embeddedData(_ html: String) throws -> [String: Any] {
        let start = try #require(html.range(of: #"<script type="application/json" id="actionlog-data">"#))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        let json = String(html[start.upperBound..<end.lowerBound])
        #expect(!json.contains("<") && !json.contains(">") && !json.contains("&"))
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    @Test("a report embeds the session's entries as stored, escaped for the page, and makes no request")
    func report() throws {
        let directory = try TemporaryDirectory()
        let path = try importJournal(cartJSONL, named: "cart", in: directory)
        let output = directory.path("cart.html")
        try ViewerReport.write(journalPath: path, session: 1, to: output)
        let html = try String(contentsOfFile: output, encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(!html.contains("http://") && !html.contains("https://") && !html.contains("fetch(\"") )
        #expect(html.contains(#"<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'"#))
        // The label that closes a script element stays inside the JSON, escaped.
        #expect(!html.contains("</script><script>alert(1)"))
        #expect(html.contains(#"\u003c/script\u003e\u003cscript\u003ealert(1)\u003c/script\u003e"#))
        let data = try embeddedData(html)
        #expect(data["file"] as? String == "cart.actionlog")
        #expect((data["open"] as? [String: Any])?["session"] as? String == "1")
        let sessions = try #require(data["sessions"] as? [[String: Any]])
        #expect(sessions.count == 1)
        #expect(sessions[0]["name"] as? String == "cart <b>")
        let entries = try #require(sessions[0]["data"] as? [[Any]])
        #expect(entries.count == 7)
        // A delta is stored as its patch, a keyframe as its state with its diff from the entry before.
        #expect(entries[3][3] as? String == "delta")
        #expect((entries[3][8] as? [[String: Any]])?.count == 2)
        #expect(entries[6][3] as? String == "keyframe")
        #expect((entries[6][9] as? [[String: Any]])?.first?["path"] as? String == "/paid")
        #expect(entries[4][11] as? String == "queue full")
    }

    @Test("a report over the cap is refused, naming the file, the session and the entry; no file is left")
    func cap() throws {
        let directory = try TemporaryDirectory()
        let path = try importJournal(cartJSONL, named: "cart", in: directory)
        let output = directory.path("cart.html")
        #expect {
            try ViewerReport.write(journalPath: path, session: 1, to: output, maximumBytes: 600)
        } throws: { error in
            (error as? ActionLogError)?.description == """
                cart.actionlog, session 1, entry 2: the report would embed more than 600 bytes of data; \
                raise the cap (replay-cli report --max-bytes), or view the session with replay-cli serve
                """
        }
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect {
            try ViewerReport.write(journalPath: path, session: 4, to: output)
        } throws: { error in
            (error as? ActionLogError)?.description == "cart.actionlog, session 4: no such session"
        }
    }

    @Test("a report of a 200-entry counter session rebuilds from keyframes and deltas")
    func recordedCounter() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("counter.actionlog")
        let padding = String(repeating: "x", count: 200)
        let recorder = try Recorder<[String: String], String, Never>(path: path, sessionName: "counter", initialState: ["count": "0", "padding": padding])
        for count in 1...200 { recorder.record(action: "increment", state: ["count": String(count), "padding": padding]) }
        recorder.close()
        let output = directory.path("counter.html")
        try ViewerReport.write(journalPath: path, session: 1, to: output)
        let data = try embeddedData(try String(contentsOfFile: output, encoding: .utf8))
        let entries = try #require((data["sessions"] as? [[String: Any]])?.first?["data"] as? [[Any]])
        #expect(entries.count == 201)
        let kinds = Set(entries.compactMap { $0[3] as? String })
        #expect(kinds == ["keyframe", "delta"])
    }
}
