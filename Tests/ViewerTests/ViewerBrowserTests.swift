import ActionLog
import ActionLogViewer
import Foundation
import Testing

/// JavaScript: the `data-seq` of every timeline row the user can see, in order.
let visibleRows = "[...document.querySelectorAll('#timeline [data-seq]')].filter(e => e.getClientRects().length > 0).map(e => Number(e.dataset.seq))"
/// JavaScript: the `data-kind` of every timeline row, in order.
let rowKinds = "[...document.querySelectorAll('#timeline [data-seq]')].map(e => e.dataset.kind)"
/// JavaScript: the text of every line of the diff.
let diffLines = "[...document.querySelectorAll('#diff li')].map(e => e.textContent)"
/// JavaScript: the paths the state tree marks as changed.
let changedPaths = "[...document.querySelectorAll('#state [data-path].changed')].map(e => e.dataset.path)"

/// JavaScript: true once the state at `seq` is rendered and its timeline row is selected.
func selected(_ seq: Int) -> String {
    "document.querySelector('#state[data-seq=\"\(seq)\"]') !== null && document.querySelector('#timeline .selected')?.dataset.seq === '\(seq)'"
}

/// The kinds of a session's entries, as the journal has them.
func recordedKinds(_ path: String, _ session: JournalSession.ID) throws -> [JSONValue] {
    try Journal(path: path).entries(in: session).map { .string($0.kind.rawValue) }
}

/// `text` without its whitespace: the diff's operation, path and value are separate elements.
func squeezed(_ text: String) -> String {
    text.filter { !$0.isWhitespace }
}

/// What the page printed or threw, less the 404 of `/favicon.ico`: the browser asks for it on its own,
/// and the viewer has none.
func problems(_ page: Page) -> [String] {
    page.exceptions + page.consoleMessages.filter { !$0.hasSuffix("/favicon.ico") }
}

/// JavaScript: true once session `id` is open: the URL names it and the selected row's state is shown.
///
/// A test waits for this before it clicks a row: until then the timeline may still show the rows of
/// the session shown before, and a click there is undone when the new session selects its entry.
func opened(_ id: some CustomStringConvertible) -> String {
    """
    location.hash.startsWith('#session=\(id)&') && document.querySelector('#timeline .selected') !== null \
    && document.querySelector('#state').dataset.seq === document.querySelector('#timeline .selected').dataset.seq
    """
}

/// A viewer server over `path` for the length of `body`.
func withServer<T>(_ path: String, _ body: (ViewerServer) async throws -> T) async throws -> T {
    let server = try ViewerServer(journalPath: path, host: "127.0.0.1", port: 0)
    defer { server.stop() }
    return try await body(server)
}

extension BrowserTests {
    @Suite("The viewer in Chromium: sessions, timeline, state, diff, filter, live sessions, escaping, reports")
    struct ViewerInBrowserTests {
        let directory: TemporaryDirectory

        init() throws { directory = try TemporaryDirectory() }


        @Test("the page lists the sessions; opening one lists its entries with their kinds and the gap")
        func sessionsAndTimeline() async throws {
            let path = directory.path("shop.actionlog")
            let (cart, other) = try recordShopJournal(at: path)
            try await withServer(path) { server in
                try await Browser.with { browser in
                    let page = try await browser.openViewer(server.url.absoluteString)
                    #expect(try await page.evaluate("[...document.querySelectorAll('#sessions [data-session]')].map(e => Number(e.dataset.session))") == [.number("\(cart)"), .number("\(other)")])
                    let cartText = try #require(try await page.evaluate("document.querySelector('#sessions [data-session=\"\(cart)\"]').textContent")?.string)
                    #expect(cartText.contains("cart") && cartText.contains("closed") && cartText.contains("7 entries") && cartText.contains("2.1 (40)"), "\(cartText)")

                    try await page.click("#sessions [data-session=\"\(cart)\"]")
                    try await page.waitFor(opened(cart))
                    try await page.waitFor("document.querySelectorAll('#timeline [data-seq]').length === 7")
                    let kinds = try await page.evaluate(rowKinds)
                    #expect(kinds == .array(try recordedKinds(path, cart)))
                    #expect(kinds?[5] == "gap" && kinds?[1] == "delta")
                    #expect(try await page.evaluate("[...document.querySelectorAll('#timeline [data-seq]')].map(e => Number(e.dataset.seq))") == [0, 1, 2, 3, 4, 5, 6])
                    let labels = try await page.evaluate("[1, 3, 6].map(n => document.querySelector(`#timeline [data-seq='${n}']`).textContent)")
                    let texts = labels?.array?.compactMap(\.string) ?? []
                    #expect(texts.count == 3 && texts[0].contains("addItem") && texts[1].contains("setNote") && texts[2].contains("checkout"), "\(texts)")
                    // Each row shows its time offset and its reducer's duration.
                    #expect(try await page.evaluate("/\\+\\d+\\.\\d+s/.test(document.querySelector(`#timeline [data-seq='1']`).textContent)") == true)
                    #expect(try await page.evaluate("/\\d(\\.\\d+)?(ns|µs|ms|s)$/.test(document.querySelector(`#timeline [data-seq='1']`).textContent.trim())") == true)

                    try await page.click("#sessions [data-session=\"\(other)\"]")
                    try await page.waitFor(opened(other))
                    try await page.waitFor("document.querySelectorAll('#timeline [data-seq]').length === 3")
                    #expect(problems(page).isEmpty)
                }
            }
        }

        @Test("a journal of more sessions than one answer lists shows the newest, and the button above them adds the older ones")
        func olderSessions() async throws {
            let path = directory.path("many.actionlog")
            _ = try recordShopJournal(at: path)
            try addEmptySessions(1_003, to: path)
            let listed = "[...document.querySelectorAll('#sessions [data-session]')].map(e => Number(e.dataset.session))"
            try await withServer(path) { server in
                try await Browser.with { browser in
                    let page = try await browser.openViewer(server.url.absoluteString)
                    #expect(try await page.evaluate("\(listed).length") == 1000)
                    #expect(try await page.evaluate("\(listed)[0]") == 6)
                    #expect(try await page.evaluate("document.querySelector('#older').hidden") == false)
                    try await page.click("#older")
                    try await page.waitFor("\(listed).length === 1005")
                    #expect(try await page.evaluate("\(listed).slice(0, 6)") == [1, 2, 3, 4, 5, 6])
                    #expect(try await page.evaluate("document.querySelector('#older').hidden") == true)
                    #expect(problems(page).isEmpty)
                }
            }
        }

        @Test("an entry selected by URL, click, keys, #jump or the slider shows its state, marks the changed path and lists the diff; a click folds a node")
        func selectingEntries() async throws {
            let path = directory.path("shop.actionlog")
            let (cart, _) = try recordShopJournal(at: path)
            try await withServer(path) { server in
                try await Browser.with { browser in
                    // Entry 2 adds "cup" at /items/1.
                    let page = try await browser.openViewer("\(server.url.absoluteString)#session=\(cart)&seq=2")
                    try await page.waitFor(selected(2))
                    #expect(try await page.evaluate("document.querySelector('#state [data-path=\"/items/1\"]').classList.contains('changed')") == true)
                    #expect(try await page.evaluate("document.querySelector('#state [data-path=\"/items/0\"]').classList.contains('changed')") == false)
                    #expect(try await page.evaluate("document.querySelector('#state [data-path=\"/items/1\"]').textContent.includes('cup')") == true)
                    let diff = try #require(try await page.evaluate(diffLines)?.array?.compactMap(\.string))
                    #expect(diff.count == 1 && squeezed(diff[0]).hasPrefix("add/items/1") && diff[0].contains("cup"), "\(diff)")
                    #expect(try await page.evaluate("document.querySelector('#action').textContent.includes('cup')") == true)

                    // A click on entry 3 (adds /note).
                    try await page.click("#timeline [data-seq=\"3\"]")
                    try await page.waitFor(selected(3))
                    #expect(try await page.evaluate(changedPaths)?.array?.contains("/note") == true)
                    #expect(try await page.evaluate("location.hash") == .string("#session=\(cart)&seq=3"))
                    let noteDiff = try #require(try await page.evaluate(diffLines)?.array?.compactMap(\.string))
                    #expect(noteDiff.count == 1 && squeezed(noteDiff[0]).hasPrefix("add/note") && noteDiff[0].contains("gift"), "\(noteDiff)")

                    // Keys, with the focus out of any input.
                    try await page.evaluate("document.activeElement?.blur()")
                    try await page.press("ArrowDown")
                    try await page.waitFor(selected(4))
                    try await page.press("k")
                    try await page.waitFor(selected(3))
                    try await page.press("j")
                    try await page.waitFor(selected(4))
                    try await page.press("ArrowUp")
                    try await page.waitFor(selected(3))

                    // The number box.
                    try await page.type("6", into: "input#jump")
                    try await page.press("Enter")
                    try await page.waitFor(selected(6))
                    #expect(try await page.evaluate("location.hash") == .string("#session=\(cart)&seq=6"))
                    #expect(try await page.evaluate("document.querySelector('#effect').textContent.includes('charge')") == true)

                    // The slider, with the keys a user would press on it.
                    try await page.evaluate("document.querySelector('input#slider').focus()")
                    try await page.press("Home")
                    try await page.waitFor(selected(0))
                    try await page.press("ArrowRight")
                    try await page.waitFor(selected(1))

                    // A click on an object's line folds it, another unfolds it.
                    try await page.click("#state [data-path=\"/items\"] > .line")
                    try await page.waitFor("document.querySelector('#state [data-path=\"/items\"]').classList.contains('collapsed')")
                    #expect(try await page.evaluate("document.querySelector('#state [data-path=\"/items/0\"]')?.getClientRects().length ?? 0") == 0)
                    try await page.click("#state [data-path=\"/items\"] > .line")
                    try await page.waitFor("document.querySelector('#state [data-path=\"/items/0\"]')?.getClientRects().length > 0")
                    #expect(problems(page).isEmpty)
                }
            }
        }

        @Test("a long session is paged: the page holds a window of its rows, and a jump far away shows the entry there")
        func pagedTimeline() async throws {
            let path = directory.path("long.actionlog")
            let count = 5_000
            let recorder = try ShopRecorder(path: path, sessionName: "long", initialState: Shop(), configuration: quietConfiguration())
            let reduce = recorder.recording(reduceShop)
            var state = Shop()
            for index in 1..<count { _ = reduce(&state, index % 2 == 0 ? .setNote("n\(index)") : .addItem("i\(index)")) }
            recorder.close()
            try await withServer(path) { server in
                try await Browser.with { browser in
                    let page = try await browser.openViewer("\(server.url.absoluteString)#session=\(recorder.sessionID)&seq=0")
                    try await page.waitFor(selected(0))
                    let rows = try #require(try await page.evaluate("document.querySelectorAll('#timeline [data-seq]').length")?.int)
                    #expect(rows > 0 && rows < count, "\(rows) rows of \(count) in the page")
                    try await page.type("4321", into: "input#jump")
                    try await page.press("Enter")
                    try await page.waitFor(selected(4321))
                    #expect(try await page.evaluate("document.querySelector('#state [data-path=\"/note\"]').textContent.includes('n4320')") == true)
                    #expect(try await page.evaluate("document.querySelectorAll('#timeline [data-seq]').length < \(count)") == true)
                    try await page.evaluate("document.activeElement?.blur()")
                    try await page.press("ArrowDown")
                    try await page.waitFor(selected(4322))
                    #expect(problems(page).isEmpty)
                }
            }
        }

        @Test("the label filter keeps the rows whose label matches: a substring, or a glob with * and ?; the keys step through them")
        func labelFilter() async throws {
            let path = directory.path("shop.actionlog")
            let (cart, _) = try recordShopJournal(at: path)
            try await withServer(path) { server in
                try await Browser.with { browser in
                    let page = try await browser.openViewer("\(server.url.absoluteString)#session=\(cart)&seq=0")
                    try await page.waitFor(selected(0))
                    try await page.type("Item", into: "input#filter")
                    try await page.waitFor("JSON.stringify(\(visibleRows)) === '[1,2,4]'")
                    // The keys step through the rows that match.
                    try await page.click("#timeline [data-seq=\"2\"]")
                    try await page.waitFor(selected(2))
                    try await page.evaluate("document.activeElement?.blur()")
                    try await page.press("ArrowDown")
                    try await page.waitFor(selected(4))
                    try await page.press("ArrowUp")
                    try await page.waitFor(selected(2))
                    try await page.type("add*", into: "input#filter")
                    try await page.waitFor("JSON.stringify(\(visibleRows)) === '[1,2]'")
                    try await page.type("?etNote", into: "input#filter")
                    try await page.waitFor("JSON.stringify(\(visibleRows)) === '[3]'")
                    try await page.type("", into: "input#filter")
                    try await page.waitFor("JSON.stringify(\(visibleRows)) === '[0,1,2,3,4,5,6]'")
                    #expect(problems(page).isEmpty)
                }
            }
        }

        @Test("a filtered window cut short with few rows (no scroll to ask for more): the page reads on by itself until the end")
        func filterReadsOn() async throws {
            let path = directory.path("shop.actionlog")
            let (cart, _) = try recordShopJournal(at: path)
            // No time for filtering at all: each window reads one entry and answers `next`.
            let server = try ViewerServer(journalPath: path, port: 0, timeoutSeconds: 10, filterTimeBudget: .zero)
            defer { server.stop() }
            try await Browser.with { browser in
                let page = try await browser.openViewer("\(server.url.absoluteString)#session=\(cart)&seq=0")
                try await page.waitFor(selected(0))
                try await page.type("Item", into: "input#filter")
                try await page.waitFor("JSON.stringify(\(visibleRows)) === '[1,2,4]'")
                try await page.waitFor("document.getElementById('timeline-info').textContent === '3 matching entries loaded'")
                #expect(problems(page).isEmpty)
            }
        }

        @Test("a session still recording grows in the page while the recorder writes, without a reload")
        func liveSession() async throws {
            let path = directory.path("live.actionlog")
            let recorder = try ShopRecorder(path: path, sessionName: "live", initialState: Shop(), configuration: quietConfiguration())
            let reduce = recorder.recording(reduceShop)
            var state = Shop()
            for name in ["a", "b", "c"] { _ = reduce(&state, .addItem(name)) }
            recorder.flush()
            try await withServer(path) { server in
                try await Browser.with { browser in
                    let page = try await browser.openViewer("\(server.url.absoluteString)#session=\(recorder.sessionID)")
                    try await page.waitFor("document.querySelectorAll('#timeline [data-seq]').length === 4")
                    #expect(try await page.evaluate("document.querySelector('#sessions [data-session=\"\(recorder.sessionID)\"]').textContent.includes('recording')") == true)
                    try await page.evaluate("window.__sameDocument = true")
                    for name in ["d", "e", "f"] { _ = reduce(&state, .addItem(name)) }
                    recorder.flush()
                    try await page.waitFor("document.querySelectorAll('#timeline [data-seq]').length === 7")
                    _ = reduce(&state, .checkout)
                    recorder.close()
                    try await page.waitFor("document.querySelector('#timeline [data-seq=\"7\"]') !== null")
                    #expect(try await page.evaluate("window.__sameDocument") == true, "the rows came without a reload")
                    #expect(problems(page).isEmpty)
                }
            }
        }

        @Test("a filtered view of a session still recording gains the new rows that match, and only those")
        func liveFilteredSession() async throws {
            let path = directory.path("live.actionlog")
            let recorder = try ShopRecorder(path: path, sessionName: "live", initialState: Shop(), configuration: quietConfiguration())
            let reduce = recorder.recording(reduceShop)
            var state = Shop()
            _ = reduce(&state, .addItem("a")); _ = reduce(&state, .setNote("x")); _ = reduce(&state, .addItem("b"))
            recorder.flush()
            try await withServer(path) { server in
                try await Browser.with { browser in
                    let page = try await browser.openViewer("\(server.url.absoluteString)#session=\(recorder.sessionID)&seq=0")
                    try await page.waitFor(selected(0))
                    try await page.type("addItem", into: "input#filter")
                    try await page.waitFor("JSON.stringify(\(visibleRows)) === '[1,3]'")
                    _ = reduce(&state, .setNote("y")); _ = reduce(&state, .addItem("c")); _ = reduce(&state, .addItem("d"))
                    recorder.flush()
                    try await page.waitFor("JSON.stringify(\(visibleRows)) === '[1,3,5,6]'")
                    _ = reduce(&state, .checkout)
                    recorder.close()
                    try await page.type("", into: "input#filter")
                    try await page.waitFor("JSON.stringify(\(visibleRows)) === '[0,1,2,3,4,5,6,7]'")
                    #expect(problems(page).isEmpty)
                }
            }
        }

        @Test("names, labels, keys and values holding HTML and script are shown as text; no script of theirs runs")
        func escapesEverything() async throws {
            let path = directory.path("hostile.actionlog")
            let session = try recordHostileJournal(at: path)
            try await withServer(path) { server in
                try await Browser.with { browser in
                    let page = try await browser.openViewer("\(server.url.absoluteString)#session=\(session)&seq=\(Hostile.all.count)", network: true)
                    try await page.waitFor(selected(Hostile.all.count))
                    try await assertShownAsText(page, session: session)
                    // Not one request for the image `src=x` of a payload.
                    #expect(page.requests.filter { $0.hasSuffix("/x") } == [])
                }
            }
        }

        @Test("a URL naming a session the journal does not have says so as text, even when it holds HTML")
        func unknownSessionInURL() async throws {
            let path = directory.path("shop.actionlog")
            _ = try recordShopJournal(at: path)
            try await withServer(path) { server in
                try await Browser.with { browser in
                    let page = try await browser.openViewer("\(server.url.absoluteString)#session=99&seq=1")
                    try await page.waitFor("document.querySelector('#message')?.textContent.includes('99')")
                    // Without quotes, so that the message shows it as it is.
                    let name = Hostile.unquotedImage
                    let hostile = try await browser.newPage("\(server.url.absoluteString)#session=\(name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")")
                    try await hostile.waitFor("document.body.dataset.loaded === 'true'")
                    try await hostile.waitFor("document.querySelector('#message')?.textContent.includes(\(Page.literal(name)))")
                    try await hostile.evaluate("new Promise(r => setTimeout(r, 300))")
                    #expect(try await hostile.evaluate("typeof window.__pwned") == "undefined")
                    #expect(try await hostile.evaluate("document.querySelectorAll('#message img, [onerror]').length") == 0)
                    #expect(problems(page).isEmpty)
                    #expect(problems(hostile).isEmpty)
                }
            }
        }

        @Test("the written report opens from disk with the same timeline and state, and requests nothing")
        func report() async throws {
            let path = directory.path("shop.actionlog")
            let (cart, _) = try recordShopJournal(at: path)
            let reportPath = directory.path("report.html")
            try ViewerReport.write(journalPath: path, session: cart, to: reportPath)
            let url = URL(fileURLWithPath: reportPath).absoluteString
            try await Browser.with { browser in
                let page = try await browser.openViewer(url, network: true)
                try await page.waitFor("document.querySelectorAll('#timeline [data-seq]').length === 7")
                let kinds = try await page.evaluate(rowKinds)
                #expect(kinds == .array(try recordedKinds(path, cart)))
                #expect(kinds?[5] == "gap")
                try await page.click("#timeline [data-seq=\"2\"]")
                try await page.waitFor(selected(2))
                #expect(try await page.evaluate(changedPaths)?.array?.contains("/items/1") == true)
                #expect(try await page.evaluate("document.querySelector('#state [data-path=\"/items/1\"]').textContent.includes('cup')") == true)
                try await page.evaluate("document.activeElement?.blur()")
                try await page.press("ArrowDown")
                try await page.waitFor(selected(3))
                #expect(try await page.evaluate(changedPaths)?.array?.contains("/note") == true)
                // After the gap: a delta from entry 4's state, which holds what the dropped addItem("pot") changed too.
                #expect(kinds?[6] == "delta")
                try await page.click("#timeline [data-seq=\"6\"]")
                try await page.waitFor(selected(6))
                #expect(try await page.evaluate("document.querySelector('#state [data-path=\"/items/1\"]').textContent.includes('pot')") == true)
                #expect(try await page.evaluate("document.querySelector('#state [data-path=\"/paid\"]').textContent.includes('true')") == true)
                #expect(page.requests.filter { !$0.hasPrefix("data:") } == [url], "the file itself and nothing else")
                #expect(problems(page).isEmpty)
            }
        }

        @Test("a report of a journal full of HTML shows it as text and runs none of it")
        func reportEscapes() async throws {
            let path = directory.path("hostile.actionlog")
            let session = try recordHostileJournal(at: path)
            let reportPath = directory.path("hostile.html")
            try ViewerReport.write(journalPath: path, session: session, to: reportPath)
            let url = URL(fileURLWithPath: reportPath).absoluteString
            try await Browser.with { browser in
                let page = try await browser.openViewer("\(url)#session=\(session)&seq=\(Hostile.all.count)", network: true)
                try await page.waitFor(selected(Hostile.all.count))
                try await assertShownAsText(page, session: session)
                #expect(page.requests.filter { !$0.hasPrefix("data:") } == [url])
            }
        }

        @Test("a golden failure's report lists the recorded and the replayed session, shows the message, and opens at the diverging entry")
        func failureReport() async throws {
            // The same actions through the feature's reducer, and through one that forgets the note.
            let path = directory.path("golden.actionlog")
            let actions: [ShopAction] = [.addItem("tea"), .addItem("cup"), .setNote("gift"), .checkout]
            func record(_ reducer: @escaping (inout Shop, ShopAction) -> ShopEffect?) throws -> JournalSession.ID {
                let recorder = try ShopRecorder(path: path, sessionName: "cart", initialState: Shop(), configuration: quietConfiguration())
                let reduce = recorder.recording(reducer)
                var state = Shop()
                for action in actions { _ = reduce(&state, action) }
                recorder.close()
                return recorder.sessionID
            }
            let recorded = try record(reduceShop)
            let replayed = try record { state, action in
                if case .setNote = action { return nil }
                return reduceShop(&state, action)
            }
            let journal = try Journal(path: path)
            let reportPath = directory.path("failure.html")
            let message = "golden.actionlog, session 1, entry 3: the replayed state differs at /note"
            try ViewerReport.write(
                sessions: [("recorded", try journal.recordedSession(recorded)), ("replayed", try journal.recordedSession(replayed))],
                open: ("recorded", 3), message: message, file: "golden.actionlog", to: reportPath)
            let url = URL(fileURLWithPath: reportPath).absoluteString
            try await Browser.with { browser in
                let page = try await browser.openViewer(url, network: true)
                try await page.waitFor(selected(3))
                #expect(try await page.evaluate("location.hash") == "#session=recorded&seq=3")
                #expect(try await page.evaluate("[...document.querySelectorAll('#sessions [data-session]')].map(e => e.dataset.session)") == ["recorded", "replayed"])
                #expect(try await page.evaluate("document.querySelector('#report-message').textContent.includes(\(Page.literal(message)))") == true)
                #expect(try await page.evaluate(changedPaths)?.array?.contains("/note") == true)

                // The other session opens at the same entry, to compare the two states.
                try await page.click("#sessions [data-session=\"replayed\"]")
                try await page.waitFor(opened("replayed"))
                try await page.waitFor(selected(3))
                #expect(try await page.evaluate("location.hash") == "#session=replayed&seq=3")
                #expect(try await page.evaluate("document.querySelector('#state [data-path=\"/note\"]') === null") == true)
                #expect(try await page.evaluate("document.querySelector('#state [data-path=\"/items/1\"]')?.textContent.includes('cup')") == true)
                #expect(page.requests.filter { !$0.hasPrefix("data:") } == [url])
                #expect(problems(page).isEmpty)
            }
        }

        @Test("a page reached through another host name that resolves to 127.0.0.1 (DNS rebinding) gets a refusal, not the journal")
        func reboundHostName() async throws {
            let path = directory.path("shop.actionlog")
            _ = try recordShopJournal(at: path)
            try await withServer(path) { server in
                let port = try #require(server.url.port)
                // Chromium resolves rebound.test to the server's address, as a rebinding DNS server would.
                try await Browser.with(arguments: ["--host-resolver-rules=MAP rebound.test 127.0.0.1"]) { browser in
                    let page = try await browser.newPage("http://rebound.test:\(port)/", network: true)
                    let status = page.responses.first { $0.url == "http://rebound.test:\(port)/" }?.status
                    #expect(status == 421)
                    let text = try await page.evaluate("document.body.textContent")?.string ?? ""
                    #expect(text.hasPrefix("Refused: this viewer answers requests for http://127.0.0.1:\(port)/ only"), "\(text)")
                    #expect(try await page.evaluate("document.querySelector('#sessions') === null && document.body.dataset.loaded === undefined") == true)
                    // What a script of that origin would try next: the API.
                    let api = try await page.evaluate("fetch('/api/sessions').then(r => r.status + ' ' + r.headers.get('content-type'))")
                    #expect(api?.string?.hasPrefix("421 ") == true, "\(api?.canonicalText ?? "undefined")")

                    // The same browser at the printed address gets the viewer.
                    let viewer = try await browser.openViewer(server.url.absoluteString)
                    #expect(try await viewer.evaluate("document.querySelectorAll('#sessions [data-session]').length") == 2)
                }
            }
        }

        /// Checks that every hostile string is in the page as text, that none of their markup became an
        /// element, and that none of their script ran.
        func assertShownAsText(_ page: Page, session: JournalSession.ID) async throws {
            // Time for an injected handler (an image's onerror, a details' ontoggle) to have run.
            try await page.evaluate("new Promise(r => setTimeout(r, 300))")
            #expect(try await page.evaluate("typeof window.__pwned") == "undefined")
            let sessionText = try await page.evaluate("document.querySelector('#sessions [data-session=\"\(session)\"]')?.textContent ?? ''")?.string ?? ""
            #expect(sessionText.contains(Hostile.script + Hostile.image), "the session's name, as text: \(sessionText)")
            #expect(sessionText.contains(Hostile.toggle), "the app version, as text: \(sessionText)")
            let timeline = try await page.evaluate("document.querySelector('#timeline').textContent")?.string ?? ""
            let state = try await page.evaluate("document.querySelector('#state').textContent")?.string ?? ""
            for text in Hostile.all {
                #expect(timeline.contains(text), "label \(text) in the timeline, as text")
                // A value may be shown as its JSON literal, quotes escaped.
                #expect(state.contains(text) || state.contains(Page.literal(text)), "value \(text) in the state, as text")
            }
            let paths = try await page.evaluate("[...document.querySelectorAll('#state [data-path]')].map(e => e.dataset.path)")?.array?.compactMap(\.string) ?? []
            for text in Hostile.all {
                let pointer = "/fields/" + text.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
                #expect(paths.contains(pointer), "key \(text) in the state tree")
            }
            let injected = try await page.evaluate("document.querySelectorAll('#sessions img, #sessions svg, #sessions script, #timeline img, #timeline svg, #timeline script, #state img, #state svg, #state script, #diff img, #diff script, #action img, #action script, #effect img, #effect script, [onerror], [onload], [ontoggle], [onmouseover]').length")
            #expect(injected == 0, "no element made from the journal's strings")
            #expect(problems(page).isEmpty)
        }
    }
}
