import ActionLog
import ActionLogViewer
import Foundation
import Testing

/// JavaScript: records in `window.__seen` the seq of every timeline row the page has drawn, from now on.
let recordSeenRows = """
    window.__seen = new Set([...document.querySelectorAll('#timeline [data-seq]')].map(e => Number(e.dataset.seq)));
    new MutationObserver((changes) => {
      for (const change of changes) for (const node of change.addedNodes) {
        if (node.dataset && node.dataset.seq !== undefined) window.__seen.add(Number(node.dataset.seq));
      }
    }).observe(document.querySelector('#timeline'), { childList: true });
    """
/// JavaScript: the entry whose state is shown.
let shownSeq = "Number(document.querySelector('#state').dataset.seq)"

extension BrowserTests {
    @Suite("The viewer following a session while it records")
    struct ViewerLiveTests {
        let directory: TemporaryDirectory

        init() throws { directory = try TemporaryDirectory() }

        @Test("a recording session opens at its newest entry and follows it for 30 s at 10 entries a second: every entry appears, none is missed; Pause holds the entry, Jump to latest follows again")
        func followsForThirtySeconds() async throws {
            let path = directory.path("live.actionlog")
            let recorder = try ShopRecorder(path: path, sessionName: "live", initialState: Shop(), configuration: quietConfiguration())
            let reduce = recorder.recording(reduceShop)
            var state = Shop()
            for index in 1...5 { _ = reduce(&state, .setNote("n\(index)")) }
            recorder.flush()
            let total = 300
            let written = Locked(5)
            let done = Locked(false)
            try await withServer(path) { server in
                try await Browser.with { browser in
                    // No entry named: the newest session, at its newest entry.
                    let page = try await browser.newPage(server.url.absoluteString)
                    try await page.waitFor("document.body.dataset.loaded === 'true'")
                    try await page.waitFor(selected(5))
                    #expect(try await page.evaluate("document.querySelector('#live').textContent") == "● live, following")
                    try await page.evaluate(recordSeenRows)

                    // The page is watched while the recorder writes: each check waits (generously) for
                    // the entry written last to appear; none asserts how soon. From entry 100 to 250 the
                    // view is paused: the rows keep coming (read by polling alone, across the sessions
                    // list's refreshes) while the entry shown stays; then it follows again.
                    let watcher = Task {
                        var checks = 0
                        var held: Int?
                        var resumed = false
                        while !done.withLock({ $0 }) {
                            let newest = written.withLock { $0 }
                            if let seq = held {
                                try await page.waitFor("window.__seen.has(\(newest)) && \(shownSeq) === \(seq)", timeout: .seconds(60))
                            } else {
                                try await page.waitFor("window.__seen.has(\(newest)) && \(shownSeq) >= \(newest)", timeout: .seconds(60))
                            }
                            checks += 1
                            if held == nil, !resumed, newest >= 100 {
                                try await page.click("#pause")
                                try await page.waitFor("document.querySelector('#live').textContent === '● live, paused'")
                                held = try #require(try await page.evaluate(shownSeq)?.int)
                            } else if held != nil, newest >= 250 {
                                try await page.click("#latest")
                                try await page.waitFor("document.querySelector('#live').textContent === '● live, following'")
                                held = nil
                                resumed = true
                            }
                            try await Task.sleep(for: .seconds(1))
                        }
                        return (checks, resumed)
                    }
                    let clock = ContinuousClock()
                    let start = clock.now
                    for index in 6...total {
                        _ = reduce(&state, index % 3 == 0 ? .addItem("i\(index)") : .setNote("n\(index)"))
                        written.withLock { $0 = index }
                        try await Task.sleep(for: .milliseconds(100))
                    }
                    let watched = clock.now - start
                    recorder.close()
                    done.withLock { $0 = true }
                    let (checks, resumed) = try await watcher.value
                    #expect(watched >= .seconds(29), "the recorder wrote for \(watched)")
                    #expect(checks >= 10 && resumed, "\(checks) checks while the recorder wrote; paused and resumed: \(resumed)")
                    // Every entry appeared, and the newest is shown.
                    try await page.waitFor("window.__seen.size === \(total + 1) && \(shownSeq) === \(total)", timeout: .seconds(60))
                    #expect(try await page.evaluate("[...window.__seen].every(n => n >= 0 && n <= \(total))") == true)
                    try await page.waitFor("document.querySelector('#live').hidden")
                    #expect(problems(page).isEmpty)
                }
            }
        }

        @Test("a timeline read that fails while the sessions list learns of newer entries does not stop the paused timeline reading: once reads succeed, every entry appears, the message goes, and Jump to latest follows again")
        func followsAfterFailedReadsWhileTheCountGrows() async throws {
            let path = directory.path("blip.actionlog")
            let recorder = try ShopRecorder(path: path, sessionName: "blip", initialState: Shop(), configuration: quietConfiguration())
            let reduce = recorder.recording(reduceShop)
            var state = Shop()
            for index in 1...5 { _ = reduce(&state, .setNote("n\(index)")) }
            recorder.flush()
            try await withServer(path) { server in
                try await Browser.with { browser in
                    let page = try await browser.newPage(server.url.absoluteString)
                    try await page.waitFor("document.body.dataset.loaded === 'true'")
                    try await page.waitFor(selected(5))
                    try await page.evaluate(recordSeenRows)
                    // Paused, so that only polling reads the new rows (following reloads around the newest).
                    try await page.click("#pause")
                    try await page.waitFor("document.querySelector('#live').textContent === '● live, paused'")
                    // The network drops every timeline read (the sessions list still loads) until the
                    // test lets them through: the order of a poll and a sessions refresh is set by
                    // the test, not by timers. The page must not take the list's larger count to
                    // mean it has read those rows.
                    try await page.evaluate("""
                        window.__realFetch = window.fetch;
                        window.__dropTimeline = true;
                        window.__dropped = 0;
                        window.fetch = (path, options) => {
                          if (window.__dropTimeline && String(path).includes('/timeline')) {
                            window.__dropped += 1;
                            return Promise.reject(new TypeError('network connection lost'));
                          }
                          return window.__realFetch(path, options);
                        };
                        """)
                    for index in 6...20 { _ = reduce(&state, .setNote("n\(index)")) }
                    recorder.flush()
                    // The sessions list says 21 entries and a timeline read has failed since.
                    try await page.waitFor("document.querySelector('#sessions').textContent.includes('21 entries')", timeout: .seconds(60))
                    let droppedThen = try #require(try await page.evaluate("window.__dropped")?.int)
                    try await page.waitFor("window.__dropped > \(droppedThen)", timeout: .seconds(60))
                    #expect(try await page.evaluate("document.querySelector('#message').textContent") == "network connection lost")
                    #expect(try await page.evaluate("window.__seen.has(6)") == false)

                    try await page.evaluate("window.__dropTimeline = false")
                    try await page.waitFor("window.__seen.has(20)", timeout: .seconds(60))
                    #expect(try await page.evaluate("[...window.__seen].sort((a, b) => a - b).join(',')") == .string((0...20).map(String.init).joined(separator: ",")))
                    #expect(try await page.evaluate(shownSeq) == 5)
                    try await page.waitFor("document.querySelector('#message').hidden")
                    try await page.click("#latest")
                    try await page.waitFor(selected(20))
                    #expect(try await page.evaluate("document.querySelector('#live').textContent") == "● live, following")
                    recorder.close()
                    #expect(page.exceptions.isEmpty)
                }
            }
        }
    }
}
