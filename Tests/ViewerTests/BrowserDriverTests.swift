import ActionLog
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Every suite that starts Chromium nests in this one, so that one browser runs at a time
/// (the machines that run the tests are small and shared).
@Suite("Browser", .serialized, .enabled(if: BrowserEnvironment.runs, Comment(rawValue: BrowserEnvironment.skipNotice ?? "")))
struct BrowserTests {}

/// A page in a `data:` URL.
func dataURL(_ html: String) -> String {
    "data:text/html;charset=utf-8;base64,\(Data(html.utf8).base64EncodedString())"
}

extension BrowserTests {
    @Suite("The headless-Chromium driver on pages of its own")
    struct BrowserDriverTests {
        let directory: TemporaryDirectory

        init() throws { directory = try TemporaryDirectory() }

        @Test("evaluate returns JSON values; a throwing expression names its exception")
        func evaluates() async throws {
            try await Browser.with { browser in
                let page = try await browser.newPage(dataURL("<title>t</title><p id=p>hello <b>world</b></p>"))
                #expect(try await page.evaluate("document.querySelector('#p').textContent") == "hello world")
                #expect(try await page.evaluate("({a: [1, true, null], b: 'x'})") == ["a": [1, true, .null], "b": "x"])
                #expect(try await page.evaluate("new Promise(r => setTimeout(() => r(42), 10))") == 42)
                #expect(try await page.evaluate("undefined") == nil)
                await #expect(throws: BrowserError(description: "evaluating `nope.nope` threw: ReferenceError: nope is not defined\n    at <anonymous>:1:1")) {
                    try await page.evaluate("nope.nope")
                }
                #expect(page.exceptions.isEmpty, "an exception of evaluate is returned, not recorded as the page's")
            }
        }

        @Test("click, type and press reach the page as a user's mouse and keys; waitFor sees the effect")
        func interacts() async throws {
            let html = """
                <input id=field><button id=go style="margin:900px 0 0 0">go</button><ol id=out></ol>
                <script>
                  const out = document.querySelector('#out');
                  const add = t => { const li = document.createElement('li'); li.textContent = t; out.append(li); };
                  document.querySelector('#go').addEventListener('click', e => add('click ' + e.isTrusted));
                  document.querySelector('#field').addEventListener('input', e => add('input ' + e.target.value));
                  document.addEventListener('keydown', e => { if (e.target === document.body) add('key ' + e.key); });
                </script>
                """
            try await Browser.with { browser in
                let page = try await browser.newPage(dataURL(html))
                try await page.click("#go")
                try await page.type("abc", into: "#field")
                try await page.type("d", into: "#field")
                try await page.evaluate("document.activeElement.blur()")
                for key in ["ArrowDown", "j", "k", "ArrowUp", "Enter"] { try await page.press(key) }
                try await page.waitFor("document.querySelectorAll('#out li').length === 8")
                let lines = try await page.evaluate("[...document.querySelectorAll('#out li')].map(e => e.textContent)")
                #expect(lines == ["click true", "input abc", "input d", "key ArrowDown", "key j", "key k", "key ArrowUp", "key Enter"])
                await #expect(throws: BrowserError(description: "click: no element matches #missing")) { try await page.click("#missing") }
                await #expect(throws: BrowserError(description: "type: no element matches #missing")) { try await page.type("x", into: "#missing") }
            }
        }

        @Test("waitFor gives up after its timeout and says what it waited for")
        func waitForTimesOut() async throws {
            try await Browser.with { browser in
                let page = try await browser.newPage(dataURL("<p>still</p>"))
                await #expect(throws: BrowserError(description: "waited 0.2 seconds for `document.title === 'never'`; its last value: false; page: \(dataURL("<p>still</p>"))")) {
                    try await page.waitFor("document.title === 'never'", timeout: .milliseconds(200))
                }
            }
        }

        @Test("console calls, logged errors and uncaught exceptions are recorded for the test to check")
        func recordsConsoleAndExceptions() async throws {
            let html = """
                <script>
                  console.log('one', 2, {three: 3});
                  console.error('bad');
                  setTimeout(() => { throw new TypeError('thrown later'); }, 0);
                  setTimeout(() => { document.body.dataset.done = 'true'; }, 20);
                </script>
                """
            try await Browser.with { browser in
                let page = try await browser.newPage(dataURL(html))
                try await page.waitFor("document.body.dataset.done === 'true'")
                #expect(page.consoleMessages == ["log: one 2 Object", "error: bad"])
                #expect(page.exceptions.count == 1)
                #expect(page.exceptions.first?.hasPrefix("TypeError: thrown later") == true)
            }
        }

        @Test("a page opened with network recording lists every request it sends, from a file as well")
        func recordsRequests() async throws {
            let path = directory.path("requests.html")
            try #"<img src="http://127.0.0.1:9/pixel.png"><script>fetch('http://127.0.0.1:9/data').catch(() => {})</script>"#
                .write(toFile: path, atomically: true, encoding: .utf8)
            let url = URL(fileURLWithPath: path).absoluteString
            try await Browser.with { browser in
                let page = try await browser.newPage(url, network: true)
                try await page.waitFor("performance.getEntriesByType('resource').length >= 1")
                try await page.waitFor("document.readyState === 'complete'")
                let requests = page.requests
                #expect(requests.first == url)
                #expect(Set(requests.dropFirst()) == ["http://127.0.0.1:9/pixel.png", "http://127.0.0.1:9/data"])
            }
        }

        @Test("the escaping tests' strings do run script when a page inserts them as HTML")
        func hostileStringsAreLive() async throws {
            // What the viewer tests check the viewer does not do: if this stopped setting window.__pwned,
            // their "no script ran" would prove nothing.
            try await Browser.with { browser in
                for (payload, value) in [(Hostile.image, 2), (Hostile.toggle, 3), (Hostile.unquotedImage, 6)] {
                    let page = try await browser.newPage(dataURL("<div id=target></div>"))
                    try await page.evaluate("document.querySelector('#target').innerHTML = \(Page.literal(payload))")
                    try await page.waitFor("window.__pwned === \(value)")
                }
            }
        }

        @Test("a screenshot is a PNG of the viewport's size")
        func screenshot() async throws {
            let path = directory.path("shot.png")
            try await Browser.with { browser in
                let page = try await browser.newPage(dataURL("<body style='background:#36c'><h1>shot</h1>"))
                try await page.setViewport(width: 640, height: 400)
                try await page.screenshot(to: path)
            }
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(bytes.prefix(8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            // IHDR: width and height, big-endian, at bytes 16 and 20.
            let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
            let height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
            #expect(width == 640 && height == 400)
        }

        @Test("closing kills and reaps Chromium and removes its profile, also when the body throws")
        func closesOnFailure() async throws {
            struct Planned: Error {}
            let holder = BrowserHolder()
            await #expect(throws: Planned.self) {
                try await Browser.with { browser in
                    holder.browser = browser
                    throw Planned()
                }
            }
            let browser = try #require(holder.browser)
            #expect(kill(browser.pid, 0) == -1 && errno == ESRCH, "the browser process is gone and reaped")
            #expect(Browser.liveProcesses(inGroup: browser.pid) == [], "no process of its group is left")
            #expect(!FileManager.default.fileExists(atPath: browser.profile.path))
            await #expect(throws: BrowserError.self) { try await browser.pipe.send("Browser.getVersion", timeout: .seconds(5)) }
        }

        @Test("when Chromium dies, the command waiting and every wait after it fail with the pipe's end, not a timeout")
        func browserDies() async throws {
            try await Browser.with { browser in
                let page = try await browser.newPage(dataURL("<p>soon gone</p>"))
                #expect(kill(browser.pid, SIGKILL) == 0)
                do {
                    try await page.waitFor("false", timeout: .seconds(120))
                    Issue.record("waitFor returned after the browser died")
                } catch let error as BrowserError {
                    #expect(error.description.hasPrefix("Runtime.evaluate: Chromium closed its DevTools pipe (did it exit?)"), "\(error)")
                }
                await #expect(throws: BrowserError.self) { try await page.click("p") }
            }
        }

        @Test("where the browser tests are required and Chromium is not on PATH, they fail and say how to install it")
        func missingChromium() throws {
            #expect(throws: BrowserError(description: "Chromium is not installed: no chromium, chromium-browser or google-chrome on PATH. The viewer's browser tests need it, and ACTIONLOG_REQUIRE_BROWSER=1 requires them: install it with `apt-get install chromium`.")) {
                try BrowserEnvironment.chromiumPath(searching: directory.url.path)
            }
        }
    }
}

/// Keeps the browser a test body saw, to check it after `Browser.with` returned.
final class BrowserHolder: Sendable {
    private let stored = Locked<Browser?>(nil)
    var browser: Browser? {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}

extension BrowserError: Equatable {
    static func == (lhs: BrowserError, rhs: BrowserError) -> Bool { lhs.description == rhs.description }
}
