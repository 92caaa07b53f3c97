import ActionLog
import ActionLogViewer
import Foundation
import Testing

extension BrowserTests {
    /// How long the page takes to open a long session and to jump in it, in Chromium, on a journal
    /// of your own: a measurement to run by hand, skipped unless the variable names the journal.
    ///
    /// ```
    /// ACTIONLOG_BENCH_KEEP=1 swift run -c release actionlog-bench --viewer   # keeps /tmp/actionlog-bench-PID/viewer/counter.actionlog
    /// ACTIONLOG_VIEWER_SCALE_JOURNAL=/tmp/actionlog-bench-PID/viewer/counter.actionlog swift test --filter ViewerScaleTests
    /// ```
    @Suite(
        "The viewer on a long session (ACTIONLOG_VIEWER_SCALE_JOURNAL)",
        .enabled(if: ProcessInfo.processInfo.environment["ACTIONLOG_VIEWER_SCALE_JOURNAL"] != nil, "set ACTIONLOG_VIEWER_SCALE_JOURNAL to a journal to measure"))
    struct ViewerScaleTests {
        @Test("the newest session of the journal opens at its first entry, then jumps to 90% of it; the times are printed")
        func openAndJump() async throws {
            let path = try #require(ProcessInfo.processInfo.environment["ACTIONLOG_VIEWER_SCALE_JOURNAL"])
            let session = try #require(try Journal(path: path).sessions().last)
            let target = session.entryCount * 9 / 10
            try await withServer(path) { server in
                try await Browser.with { browser in
                    let clock = ContinuousClock()
                    let start = clock.now
                    let page = try await browser.newPage("\(server.url.absoluteString)#session=\(session.id)&seq=0")
                    try await page.waitFor(selected(0), timeout: .seconds(60))
                    let opened = clock.now - start
                    let rows = try #require(try await page.evaluate("document.querySelectorAll('#timeline [data-seq]').length")?.int)
                    #expect(rows > 0 && rows < 5_000, "\(rows) rows of \(session.entryCount) in the page")
                    let jumpStart = clock.now
                    try await page.type(String(target), into: "input#jump")
                    try await page.press("Enter")
                    try await page.waitFor(selected(target), timeout: .seconds(60))
                    let jumped = clock.now - jumpStart
                    let stepStart = clock.now
                    try await page.evaluate("document.activeElement?.blur()")
                    try await page.press("ArrowDown")
                    try await page.waitFor(selected(target + 1), timeout: .seconds(60))
                    let stepped = clock.now - stepStart
                    #expect(problems(page).isEmpty)
                    print("""
                        viewer at scale: \(path), session \(session.id), \(session.entryCount) entries: \
                        opened at entry 0 in \(opened), jumped to entry \(target) in \(jumped), stepped once in \(stepped) \
                        (navigation included in the first; Chromium already running)
                        """)
                }
            }
        }
    }
}
