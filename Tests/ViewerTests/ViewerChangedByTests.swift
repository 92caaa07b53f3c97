import ActionLog
import ActionLogViewer
import Foundation
import Testing

/// A cart whose total changes through its parent (entry 1), is left alone by a change of a child
/// of the cart (entry 2) and by the cart put back as it was (entry 3), and changes across a gap
/// of 3 dropped actions (entry 6, action 8).
let changedByJSONL = #"""
    {"actionlog":"session","format":1,"name":"cart","status":"closed","startedAt":1700000000,"endedAt":1700000006,"libraryVersion":"0.1.0","stateType":"Cart","actionType":"CartAction","dropped":3,"metadata":{}}
    {"seq":0,"kind":"keyframe","time":1700000000,"state":{"cart":{"items":[],"total":1}}}
    {"seq":1,"kind":"delta","label":"reprice","time":1700000001,"action":{"reprice":{}},"patch":[{"op":"replace","path":"/cart","value":{"items":[],"total":2}}]}
    {"seq":2,"kind":"delta","label":"add","time":1700000002,"action":{"add":{"p":1}},"patch":[{"op":"add","path":"/cart/items/0","value":{"p":1}}]}
    {"seq":3,"kind":"delta","label":"touch","time":1700000003,"action":{"touch":{}},"patch":[{"op":"replace","path":"/cart","value":{"items":[{"p":1}],"total":2}}]}
    {"seq":4,"kind":"delta","label":"addFirst","time":1700000004,"action":{"addFirst":{"p":0}},"patch":[{"op":"add","path":"/cart/items/0","value":{"p":0}}]}
    {"seq":5,"kind":"gap","time":1700000005,"dropped":3,"note":"3 actions dropped: the writer fell behind"}
    {"seq":6,"kind":"keyframe","label":"checkout","time":1700000006,"action":{"checkout":{}},"state":{"cart":{"items":[{"p":0},{"p":1}],"total":9}}}

    """#

extension BrowserTests {
    @Suite("The viewer's \"Changed by\": the entries that changed a node, each a link to its entry, and action numbers past a gap")
    struct ViewerChangedByTests {
        let directory: TemporaryDirectory

        init() throws { directory = try TemporaryDirectory() }

        /// JavaScript: the lines of the list, without whitespace.
        static let listed = "[...document.querySelectorAll('#changed-by-list li')].map(e => e.textContent.replace(/\\s/g, ''))"

        func check(_ page: Page) async throws {
            try await page.waitFor(selected(6))
            #expect(try await page.evaluate("document.querySelector('#entry-head .action-number')?.textContent") == "(action 8) ")
            try await page.click("#state [data-path=\"/cart/total\"] > .line")
            try await page.waitFor("document.querySelector('#node-path').textContent === '/cart/total'")
            try await page.click("#changed-by")
            try await page.waitFor("document.querySelectorAll('#changed-by-list li').length === 2")
            #expect(try await page.evaluate(Self.listed) == [
                "#6(action8)checkout:2→9(after3droppedactions)",
                "#1reprice:1→2(parent/cart)",
            ])
            // A link goes to its entry; the key w asks again, up to the entry shown.
            try await page.click("#changed-by-list a[data-seq=\"1\"]")
            try await page.waitFor(selected(1))
            try await page.click("#state [data-path=\"/cart/total\"] > .line")
            try await page.evaluate("document.activeElement?.blur()")
            try await page.press("w")
            try await page.waitFor("document.querySelectorAll('#changed-by-list li').length === 1")
            #expect(try await page.evaluate(Self.listed) == ["#1reprice:1→2(parent/cart)"])
            // An element moved by an insertion before it, found through its parent.
            try await page.click("#timeline [data-seq=\"4\"]")
            try await page.waitFor(selected(4))
            try await page.click("#state [data-path=\"/cart/items/1\"] > .line")
            try await page.click("#changed-by")
            try await page.waitFor("document.querySelectorAll('#changed-by-list li').length === 1")
            #expect(try await page.evaluate(Self.listed) == [#"#4addFirst:(absent)→{"p":1}(parent/cart/items)"#])
            #expect(problems(page).isEmpty)
        }

        @Test("served: the list comes from the journal's change index")
        func served() async throws {
            let path = try importJournal(changedByJSONL, named: "cart", in: directory)
            try await withServer(path) { server in
                try await Browser.with { browser in
                    try await check(try await browser.openViewer("\(server.url.absoluteString)#session=1&seq=6"))
                }
            }
        }

        @Test("in a report: the same list, from the entries the report holds")
        func report() async throws {
            let path = try importJournal(changedByJSONL, named: "cart", in: directory)
            let reportPath = directory.path("cart.html")
            try ViewerReport.write(journalPath: path, session: 1, to: reportPath)
            let url = URL(fileURLWithPath: reportPath).absoluteString
            try await Browser.with { browser in
                try await check(try await browser.openViewer("\(url)#session=1&seq=6", network: true))
            }
        }
    }
}
