import Foundation
import Testing
@testable import ActionLogViewer

@Suite("The page and the requests")
struct ViewerPageTests {
    @Test("data embedded in a script element cannot end it: <, >, &, U+2028 and U+2029 become escapes")
    func escaping() throws {
        let json = Array(#"{"a":"</script><!-- & \#u{2028}\#u{2029} é"}"#.utf8)
        let escaped = String(decoding: ViewerPage.escapedForScript(json), as: UTF8.self)
        #expect(escaped == #"{"a":"\u003c/script\u003e\u003c!-- \u0026 \u2028\u2029 é"}"#)
        // The same value once parsed.
        let original = try JSONSerialization.jsonObject(with: Data(json)) as? [String: String]
        let parsed = try JSONSerialization.jsonObject(with: Data(escaped.utf8)) as? [String: String]
        #expect(original == parsed)
    }

    @Test("the page's title is escaped; the page uses no innerHTML and names no other site")
    func page() {
        let html = ViewerPage.html(title: "a <b> & \"c\"")
        #expect(html.contains("<title>a &lt;b&gt; &amp; &quot;c&quot;</title>"))
        #expect(!html.contains("innerHTML") && !html.contains("insertAdjacentHTML") && !html.contains("document.write"))
        #expect(!html.contains("http://") && !html.contains("https://"))
    }

    @Test("requests: the path and query are percent-decoded; what is not a request is refused with a reason")
    func requests() throws {
        let request = try HTTPRequest(head: Array("GET /api/sessions/1/timeline?label=add%2A+x&from=3&from=4 HTTP/1.1\r\nHOST: localhost:80\r\n".utf8))
        #expect(request.method == "GET")
        #expect(request.path == "/api/sessions/1/timeline")
        #expect(request.query == ["label": "add* x", "from": "3"])
        #expect(request.host == "localhost:80")
        func problem(_ text: String) -> HTTPRequest.Problem? {
            do {
                _ = try HTTPRequest(head: Array(text.utf8))
                return nil
            } catch {
                return error
            }
        }
        #expect(problem("GET / HTTP/1.1\r\nHost: a\r\nHost: b") == HTTPRequest.Problem(status: 400, reason: "The request has more than one Host header."))
        #expect(problem("GET http://x/ HTTP/1.1") == HTTPRequest.Problem(status: 400, reason: "The request target is not a path."))
        #expect(problem("GET /%zz HTTP/1.1") == HTTPRequest.Problem(status: 400, reason: "The path is not valid percent-encoded UTF-8."))
        #expect(problem("GET /%ff HTTP/1.1") == HTTPRequest.Problem(status: 400, reason: "The path is not valid percent-encoded UTF-8."))
        #expect(problem("GET / SPDY/3") == HTTPRequest.Problem(status: 400, reason: "The request line is not \"METHOD /path HTTP/1.1\"."))
    }

    @Test("the filter: no wildcard matches a part of the label; * and ? match whole labels")
    func filter() throws {
        #expect(try LabelPattern(filter: "Item").matches("addItem"))
        #expect(try !LabelPattern(filter: "item").matches("addItem"))
        #expect(try LabelPattern(filter: "add*").matches("addItem"))
        #expect(try !LabelPattern(filter: "Item*").matches("addItem"))
        #expect(try LabelPattern(filter: "?dd?tem").matches("addItem"))
    }
}
