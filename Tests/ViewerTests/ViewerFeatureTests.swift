import ActionLog
import ActionLogViewer
import Foundation
import Testing

/// A session for the viewer's features: an integer past 2^53, right-to-left overrides and a newline
/// in a name, a label, metadata, a key and a value, a large value added and then replaced.
///
/// Entry 1 replaces `/counter` (40 → 41), entry 2 removes `/name` ("a"), entry 3 adds `/catalog` (30
/// keys), entry 4 replaces it with `{"small":1}`.
let featuresJSONL: String = {
    let catalog = "{" + (1...30).map { String(format: #""k%02d":"item number %d""#, $0, $0) }.joined(separator: ",") + "}"
    return #"""
        {"actionlog":"session","format":1,"name":"features \u202egnp.exe","status":"closed","startedAt":1700000000,"endedAt":1700000005,"libraryVersion":"0.1.0","appVersion":"3.4 (77)","stateType":"Feature.State","actionType":"Feature.Action","dropped":0,"metadata":{"build":"\u202egnp.exe","device":"phone <b>"}}
        {"seq":0,"kind":"keyframe","time":1700000000,"state":{"big":9007199254740993,"counter":40,"list":[1,2,3],"name":"a","nested":{"a":{"b":{"c":1}}},"\u202ekey":"value \u202egnp.exe\nline"}}
        {"seq":1,"kind":"delta","label":"increment","time":1700000001,"action":{"increment":{"by":12345678901234567890}},"patch":[{"op":"replace","path":"/counter","value":41}]}
        {"seq":2,"kind":"delta","label":"invoice\u202egnp.exe","time":1700000002,"action":{"rename":{}},"patch":[{"op":"remove","path":"/name"}]}
        {"seq":3,"kind":"delta","label":"load","time":1700000003,"action":{"load":{}},"patch":[{"op":"add","path":"/catalog","value":CATALOG}]}
        {"seq":4,"kind":"delta","label":"reset","time":1700000004,"action":{"reset":{}},"patch":[{"op":"replace","path":"/catalog","value":{"small":1}}]}

        """#.replacingOccurrences(of: "CATALOG", with: catalog)
}()

/// JavaScript: the text of every line of the comparison, without whitespace.
let compareLines = "[...document.querySelectorAll('#compare-list li')].map(e => e.textContent.replace(/\\s/g, ''))"
/// JavaScript: the diff's lines, without whitespace.
let squeezedDiff = "[...document.querySelectorAll('#diff li')].map(e => e.textContent.replace(/\\s/g, ''))"

/// Reads the system clipboard from the page, after granting it the permission to.
func clipboardText(_ browser: Browser, _ page: Page) async throws -> String? {
    let origin = try await page.evaluate("location.origin")?.string ?? ""
    var params: [String: JSONValue] = ["permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]]
    if origin.hasPrefix("http") { params["origin"] = .string(origin) }
    _ = try await browser.pipe.send("Browser.grantPermissions", .object(params))
    _ = try await page.send("Emulation.setFocusEmulationEnabled", ["enabled": true])
    return try await page.evaluate("navigator.clipboard.readText()")?.string
}

extension BrowserTests {
    @Suite("The viewer's features in Chromium: old and new values, comparing, searching, copying, exact numbers, escapes, keys, session details")
    struct ViewerFeatureTests {
        let directory: TemporaryDirectory

        init() throws { directory = try TemporaryDirectory() }


        /// The checks on the change list, the same from the server and from a report.
        func checkChanges(_ page: Page) async throws {
            try await page.waitFor(selected(1))
            #expect(try await page.evaluate(squeezedDiff) == ["replace/counter−40+41"])
            try await page.click("#timeline [data-seq=\"2\"]")
            try await page.waitFor(selected(2))
            #expect(try await page.evaluate(squeezedDiff) == [#"remove/name−"a""#])
            // A large value added: folded, pretty-printed on a click.
            try await page.click("#timeline [data-seq=\"3\"]")
            try await page.waitFor(selected(3))
            #expect(try await page.evaluate("document.querySelectorAll('#diff .value.folded').length") == 1)
            #expect(try await page.evaluate("document.querySelector('#diff button.fold').textContent.includes('{30 keys}')") == true)
            #expect(try await page.evaluate("document.querySelectorAll('#diff pre').length") == 0)
            try await page.click("#diff button.fold")
            try await page.waitFor("document.querySelector('#diff pre.json')?.getClientRects().length > 0")
            let printed = try #require(try await page.evaluate("document.querySelector('#diff pre.json').textContent")?.string)
            #expect(printed.hasPrefix("{\n  \"k01\": \"item number 1\",\n  \"k02\": \"item number 2\",\n"), "\(printed)")
            #expect(printed.split(separator: "\n").count == 32)
            try await page.click("#diff button.fold")
            try await page.waitFor("document.querySelector('#diff pre.json').getClientRects().length === 0")
            // Replaced: the large old value folded, the small new one on its line.
            try await page.click("#timeline [data-seq=\"4\"]")
            try await page.waitFor(selected(4))
            let lines = try #require(try await page.evaluate(squeezedDiff)?.array?.compactMap(\.string))
            #expect(lines.count == 1 && lines[0].hasPrefix("replace/catalog−▸{30keys}") && lines[0].hasSuffix(#"+{"small":1}"#), "\(lines)")
        }

        /// Compares 0 with 4 through the form, and 1 with 3 by Shift+click; the fields are those the library finds.
        func checkCompare(_ page: Page, journal path: String) async throws {
            try await page.type("0", into: "#compare-from")
            try await page.type("4", into: "#compare-to")
            try await page.click("#compare-go")
            try await page.waitFor("document.querySelector('#compare-title').textContent === 'Entry 0 → entry 4: 3 differences'")
            #expect(try await page.evaluate(compareLines) == [#"/catalog−(absent)+{"small":1}"#, "/counter−40+41", #"/name−"a"+(absent)"#])
            let journal = try Journal(path: path)
            let expected = try journal.state(at: 0, in: 1).differences(to: try journal.state(at: 4, in: 1)).map { JSONValue.string($0.path.jsonPointer) }
            #expect(try await page.evaluate("[...document.querySelectorAll('#compare-list .path')].map(e => e.textContent)") == .array(expected))

            try await page.click("#timeline [data-seq=\"1\"]")
            try await page.waitFor(selected(1))
            _ = try await page.send("Input.dispatchMouseEvent", ["type": "mouseMoved", "x": 0, "y": 0])
            let box = try #require(try await page.evaluate("(() => { const r = document.querySelector('#timeline [data-seq=\"3\"]').getBoundingClientRect(); return {x: r.left + 20, y: r.top + r.height / 2}; })()"))
            for type in ["mousePressed", "mouseReleased"] {
                _ = try await page.send("Input.dispatchMouseEvent", [
                    "type": .string(type), "x": box["x"] ?? 0, "y": box["y"] ?? 0, "button": "left", "clickCount": 1, "modifiers": 8,
                ])
            }
            try await page.waitFor("document.querySelector('#compare-title').textContent === 'Entry 1 → entry 3: 2 differences'")
            let lines = try #require(try await page.evaluate(compareLines)?.array?.compactMap(\.string))
            #expect(lines.count == 2 && lines[0].hasPrefix("/catalog−(absent)+▸{30keys}") && lines[1] == #"/name−"a"+(absent)"#, "\(lines)")
            #expect(try await page.evaluate("document.querySelector('#state').dataset.seq") == "1", "Shift+click compares; it does not select")
            try await page.click("#compare-close")
            try await page.waitFor("document.querySelector('#compare-result').hidden")
        }

        @Test("a change lists each operation with the value before (−) and after (+); a large value is folded and pretty-printed on a click; two entries compare, by the form or Shift+click")
        func changesAndCompare() async throws {
            let path = try importJournal(featuresJSONL, named: "features", in: directory)
            try await withServer(path) { server in
                try await Browser.with { browser in
                    let page = try await browser.openViewer("\(server.url.absoluteString)#session=1&seq=1")
                    try await checkChanges(page)
                    try await checkCompare(page, journal: path)
                    #expect(problems(page).isEmpty)
                }
            }
        }

        @Test("a report shows the same old values and compares the same way, without a server")
        func reportChangesAndCompare() async throws {
            let path = try importJournal(featuresJSONL, named: "features", in: directory)
            let reportPath = directory.path("features.html")
            try ViewerReport.write(journalPath: path, session: 1, to: reportPath)
            let url = URL(fileURLWithPath: reportPath).absoluteString
            try await Browser.with { browser in
                let page = try await browser.openViewer("\(url)#session=1&seq=1", network: true)
                try await checkChanges(page)
                try await checkCompare(page, journal: path)
                #expect(try await page.evaluate("document.querySelector('#state [data-path=\"/big\"]').textContent") == "\"big\": 9007199254740993")
                #expect(page.requests.filter { !$0.hasPrefix("data:") } == [url])
                #expect(problems(page).isEmpty)
            }
        }

        @Test("the state tree: search by path or value, go from match to match, expand and collapse all, copy a path or a value by button or key")
        func searchExpandCopy() async throws {
            let path = try importJournal(featuresJSONL, named: "features", in: directory)
            try await withServer(path) { server in
                try await Browser.with { browser in
                    let page = try await browser.openViewer("\(server.url.absoluteString)#session=1&seq=3")
                    try await page.waitFor(selected(3))
                    try await page.type("NUMBER 12", into: "#tree-search")
                    try await page.waitFor("document.querySelector('#tree-search-info').textContent === '1 of 1 match'")
                    #expect(try await page.evaluate("document.querySelector('#state .match-current').dataset.path") == "/catalog/k12")
                    #expect(try await page.evaluate("document.querySelector('#node-path').textContent") == "/catalog/k12")
                    try await page.type("/nested/a", into: "#tree-search")
                    try await page.waitFor("document.querySelector('#tree-search-info').textContent === '1 of 3 matches'")
                    try await page.press("Enter")
                    try await page.waitFor("document.querySelector('#tree-search-info').textContent === '2 of 3 matches'")
                    #expect(try await page.evaluate("document.querySelector('#state .match-current').dataset.path") == "/nested/a/b")
                    try await page.type("zzz", into: "#tree-search")
                    try await page.waitFor("document.querySelector('#tree-search-info').textContent === 'no match'")
                    try await page.press("Escape")
                    try await page.waitFor("document.querySelector('#tree-search-info').textContent === ''")

                    // Collapse all leaves the root open; expand all opens every node.
                    let visible = "document.querySelector('#state [data-path=\"/nested/a/b/c\"]')?.getClientRects().length > 0"
                    try await page.click("#collapse-all")
                    try await page.waitFor("!(\(visible))")
                    #expect(try await page.evaluate("[...document.querySelectorAll('#state .node.container:not(.collapsed)')].map(e => e.dataset.path)") == [""])
                    try await page.click("#expand-all")
                    try await page.waitFor(visible)
                    #expect(try await page.evaluate("document.querySelectorAll('#state .node.collapsed').length") == 0)

                    // Copy: the selected node's path by button, its value by key (exact, as the journal holds it).
                    try await page.click("#state [data-path=\"/big\"] > .line")
                    try await page.waitFor("document.querySelector('#node-path').textContent === '/big'")
                    try await page.click("#copy-path")
                    try await page.waitFor("document.querySelector('#copied').textContent === 'Copied the path /big.'")
                    #expect(try await clipboardText(browser, page) == "/big")
                    try await page.evaluate("document.activeElement?.blur()")
                    try await page.press("C")
                    try await page.waitFor("document.querySelector('#copied').textContent === 'Copied the value at /big.'")
                    #expect(try await clipboardText(browser, page) == "9007199254740993")
                    try await page.click("#state [data-path=\"/list\"] > .line")
                    try await page.evaluate("document.activeElement?.blur()")
                    try await page.press("C")
                    try await page.waitFor("document.querySelector('#copied').textContent === 'Copied the value at /list.'")
                    #expect(try await clipboardText(browser, page) == "[1,2,3]")
                    try await page.press("c")
                    try await page.waitFor("document.querySelector('#copied').textContent === 'Copied the path /list.'")
                    #expect(problems(page).isEmpty)
                }
            }
        }

        @Test("integers past 2^53 show as the journal holds them, in the state, the action and a copy")
        func exactIntegers() async throws {
            let path = try importJournal(featuresJSONL, named: "features", in: directory)
            try await withServer(path) { server in
                try await Browser.with { browser in
                    let page = try await browser.openViewer("\(server.url.absoluteString)#session=1&seq=1")
                    try await page.waitFor(selected(1))
                    #expect(try await page.evaluate("document.querySelector('#state [data-path=\"/big\"]').textContent") == "\"big\": 9007199254740993")
                    #expect(try await page.evaluate("document.querySelector('#action').textContent") == "{\n  \"increment\": {\n    \"by\": 12345678901234567890\n  }\n}")
                    #expect(problems(page).isEmpty)
                }
            }
        }

        @Test("right-to-left overrides and controls in names, labels, metadata, keys and values show as escapes, in isolated text")
        func bidiAndControls() async throws {
            let path = try importJournal(featuresJSONL, named: "features", in: directory)
            try await withServer(path) { server in
                try await Browser.with { browser in
                    let page = try await browser.openViewer("\(server.url.absoluteString)#session=1&seq=2")
                    try await page.waitFor(selected(2))
                    let label = "document.querySelector('#timeline [data-seq=\"2\"] .label bdi')"
                    #expect(try await page.evaluate("\(label).textContent") == #"invoice\u{202E}gnp.exe"#)
                    #expect(try await page.evaluate("getComputedStyle(\(label)).unicodeBidi") == "isolate")
                    #expect(try await page.evaluate("document.querySelector('#entry-head bdi').textContent") == #"invoice\u{202E}gnp.exe"#)
                    let session = try #require(try await page.evaluate("document.querySelector('#sessions [data-session=\"1\"]').textContent")?.string)
                    #expect(session.contains(#"features \u{202E}gnp.exe"#) && session.contains(#"build: \u{202E}gnp.exe"#) && session.contains("device: phone <b>"), "\(session)")
                    // In the state, a key and a value are JSON strings, escaped as `replay-cli state` escapes them.
                    let node = try #require(try await page.evaluate("document.querySelector('#state [data-path=\"/\\u202ekey\"]').textContent")?.string)
                    #expect(node == #""\u202ekey": "value \u202egnp.exe\nline""#)
                    // No character of the journal's that reorders or breaks text is left in the page.
                    #expect(try await page.evaluate("/[\\u202a-\\u202e\\u2066-\\u2069\\u200e\\u200f\\n]/.test([...document.querySelectorAll('#sessions bdi, #timeline bdi, #state bdi, #entry-head bdi')].map(e => e.textContent).join(''))") == false)
                    #expect(problems(page).isEmpty)
                }
            }
        }

        @Test("the sessions list shows each session's start time, app version and metadata")
        func sessionDetails() async throws {
            let path = try importJournal(featuresJSONL, named: "features", in: directory)
            // ISO 8601 in UTC with microseconds, as the CLI and the text form write times.
            let started = "2023-11-14T22:13:20.000000Z"
            try await withServer(path) { server in
                try await Browser.with { browser in
                    let page = try await browser.openViewer(server.url.absoluteString)
                    let lines = try await page.evaluate("[...document.querySelectorAll('#sessions [data-session=\"1\"] .meta')].map(e => e.textContent)")
                    #expect(lines == ["closed · 5 entries · 5.0s · #1", .string("started \(started) · app 3.4 (77)"), #"build: \u{202E}gnp.exe · device: phone <b>"#])
                    #expect(problems(page).isEmpty)
                }
            }
        }

        @Test("keys: ← → and ↑ ↓ step, PageUp and PageDown move ten, Home and End go to the ends, the same on the slider; the page shows them")
        func keys() async throws {
            let path = directory.path("keys.actionlog")
            let recorder = try ShopRecorder(path: path, sessionName: "keys", initialState: Shop(), configuration: quietConfiguration())
            let reduce = recorder.recording(reduceShop)
            var state = Shop()
            for index in 1..<30 { _ = reduce(&state, .setNote("n\(index)")) }
            recorder.close()
            try await withServer(path) { server in
                try await Browser.with { browser in
                    let page = try await browser.openViewer("\(server.url.absoluteString)#session=\(recorder.sessionID)&seq=0")
                    try await page.waitFor(selected(0))
                    let hint = try #require(try await page.evaluate("document.querySelector('#keys-hint').textContent")?.string)
                    #expect(["←", "→", "PgUp", "PgDn", "Home", "End"].allSatisfy(hint.contains), "\(hint)")
                    #expect(try await page.evaluate("document.querySelector('#keys-hint').getClientRects().length > 0") == true)
                    try await page.evaluate("document.querySelector('#timeline').focus()")
                    for (key, seq) in [("ArrowRight", 1), ("ArrowRight", 2), ("ArrowLeft", 1), ("PageDown", 11), ("PageDown", 21), ("PageDown", 29),
                                       ("PageUp", 19), ("Home", 0), ("End", 29), ("ArrowUp", 28), ("ArrowDown", 29), ("Home", 0)] {
                        try await page.press(key)
                        try await page.waitFor(selected(seq))
                    }
                    // On the slider, the same keys go the same way.
                    try await page.evaluate("document.querySelector('#slider').focus()")
                    for (key, seq) in [("ArrowDown", 1), ("ArrowRight", 2), ("ArrowUp", 1), ("ArrowLeft", 0), ("PageDown", 10), ("End", 29), ("PageUp", 19), ("Home", 0)] {
                        try await page.press(key)
                        try await page.waitFor(selected(seq))
                        #expect(try await page.evaluate("document.querySelector('#slider').value") == .string(String(seq)))
                    }
                    #expect(problems(page).isEmpty)
                }
            }
        }
    }
}
