import ActionLog
import ActionLogExamples
import ActionLogViewer
import Foundation
import Testing

extension BrowserTests {
    /// Also the way to regenerate the README's picture:
    ///
    /// ```
    /// ACTIONLOG_VIEWER_SCREENSHOT=Sources/ActionLog/Documentation.docc/Resources/viewer.png swift test --filter ViewerScreenshotTests
    /// ```
    @Suite("The viewer on the demo journal, and the README's screenshot")
    struct ViewerScreenshotTests {
        let directory: TemporaryDirectory

        init() throws { directory = try TemporaryDirectory() }

        /// The entry the screenshot shows: the checkout's second `addItem` (the kettle joins the cart).
        static let checkoutEntry = 2

        @Test("the demo's four sessions open in the viewer; a 1280×800 screenshot of the checkout session")
        func demoScreenshot() async throws {
            // The sessions `actionlog-demo` records, with its configuration.
            let journal = directory.path("demo.actionlog")
            var configuration = RecorderConfiguration()
            configuration.appVersion = "actionlog-demo"
            configuration.onError = { error in Issue.record("recording the demo: \(error)") }
            let (citySearch, _) = try await ExampleScripts.recordCitySearch(path: journal, configuration: configuration)
            let (checkout, _) = try await ExampleScripts.recordCheckout(path: journal, configuration: configuration)
            let (productCard, _) = try await ExampleScripts.recordProductCard(path: journal, configuration: configuration)
            let (signIn, _) = try await ExampleScripts.recordSignIn(path: journal, configuration: configuration)

            let output = ProcessInfo.processInfo.environment["ACTIONLOG_VIEWER_SCREENSHOT"].map {
                URL(fileURLWithPath: $0, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)).path
            } ?? directory.path("viewer.png")
            let entry = Self.checkoutEntry
            try await withServer(journal) { server in
                try await Browser.with { browser in
                    let page = try await browser.newPage("\(server.url.absoluteString)#session=\(checkout)&seq=\(entry)")
                    try await page.setViewport(width: 1280, height: 800)
                    try await page.waitFor("document.body.dataset.loaded === 'true'")
                    try await page.waitFor(selected(entry))
                    let sessions = try await page.evaluate("[...document.querySelectorAll('#sessions [data-session]')].map(e => Number(e.dataset.session))")
                    #expect(sessions == .array([citySearch, checkout, productCard, signIn].map { .number("\($0)") }))
                    #expect(try await page.evaluate("document.querySelectorAll('#state [data-path].changed').length > 0") == true)
                    #expect(try await page.evaluate("document.querySelectorAll('#diff li').length > 0") == true)
                    // Each session opens and shows its last entry's state.
                    for session in [citySearch, productCard, signIn] {
                        let count = try Journal(path: journal).session(session).entryCount
                        try await page.click("#sessions [data-session=\"\(session)\"]")
                        try await page.waitFor(opened(session))
                        try await page.waitFor("document.querySelectorAll('#timeline [data-seq]').length === \(count)")
                        try await page.click("#timeline [data-seq=\"\(count - 1)\"]")
                        try await page.waitFor(selected(count - 1))
                    }
                    #expect(problems(page).isEmpty)
                    // Back to the checkout entry for the picture, through its URL.
                    try await page.evaluate("location.hash = '#session=\(checkout)&seq=\(entry)'")
                    try await page.waitFor("location.hash === '#session=\(checkout)&seq=\(entry)' && (\(selected(entry)))")
                    try await page.evaluate("document.activeElement?.blur()")
                    try await page.moveMouse(x: 1279, y: 799)
                    try await page.screenshot(to: output)
                }
            }
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
            #expect(bytes.count > 24 && bytes[16..<20].reduce(0) { $0 << 8 | Int($1) } == 1280 && bytes[20..<24].reduce(0) { $0 << 8 | Int($1) } == 800)
            print("viewer screenshot: \(output)")
        }
    }
}
