import ActionLog
import Foundation

/// One tab of a ``Browser``: evaluate script, wait for a condition, press keys, type, click, take a screenshot,
/// and read what the page printed to its console, threw, or requested.
///
/// ```swift
/// let page = try await browser.newPage(server.url.absoluteString)
/// try await page.waitFor("document.body.dataset.loaded === 'true'")
/// try await page.click("#sessions [data-session='1']")
/// try await page.press("ArrowDown")
/// #expect(page.exceptions.isEmpty && page.consoleMessages.isEmpty)
/// ```
///
/// Every wait ends after its timeout (20 s unless told) with an error naming what it waited for; no method
/// measures time for an assertion.
struct Page: Sendable {
    let pipe: DevToolsPipe
    let targetID: String
    let sessionID: String

    /// Sends a DevTools command to this page's session and returns its result.
    ///
    /// - Throws: `BrowserError` when Chromium refuses it or does not answer.
    func send(_ method: String, _ params: JSONValue = [:], timeout: Duration = .seconds(20)) async throws -> JSONValue {
        try await pipe.send(method, params, sessionID: sessionID, timeout: timeout)
    }

    /// Navigates to `url` and waits for its load event.
    ///
    /// - Throws: `BrowserError` when the navigation fails or the page does not load within `timeout`.
    func goto(_ url: String, timeout: Duration = .seconds(20)) async throws {
        let before = pipe.eventCount
        let result = try await send("Page.navigate", ["url": .string(url)], timeout: timeout)
        if let error = result["errorText"]?.string, !error.isEmpty {
            throw BrowserError(description: "navigating to \(url) failed: \(error)")
        }
        _ = try await pipe.event("Page.loadEventFired", sessionID: sessionID, after: before, timeout: timeout)
    }

    /// Evaluates a JavaScript expression (awaiting it when it is a promise) and returns its value as JSON,
    /// or `nil` when it is `undefined`.
    ///
    /// - Throws: `BrowserError` with the exception's text when the expression throws.
    @discardableResult
    func evaluate(_ expression: String) async throws -> JSONValue? {
        let answer = try await send("Runtime.evaluate", [
            "expression": .string(expression), "returnByValue": true, "awaitPromise": true,
        ])
        if let details = answer["exceptionDetails"] {
            let text = details["exception"]?["description"]?.string ?? details["text"]?.string ?? details.canonicalText
            throw BrowserError(description: "evaluating `\(expression)` threw: \(text)")
        }
        let result = answer["result"] ?? [:]
        if result["type"]?.string == "undefined" { return nil }
        return result["value"] ?? .null
    }

    /// Polls a JavaScript boolean expression every 50 ms until it is `true`.
    ///
    /// - Throws: `BrowserError` naming the expression, its last value, and the page's exceptions, when it is
    ///   not `true` within `timeout`.
    func waitFor(_ expression: String, timeout: Duration = .seconds(20)) async throws {
        let deadline = ContinuousClock.now + timeout
        var last: String = "nothing yet"
        while true {
            do {
                let value = try await evaluate(expression)
                if value == .bool(true) { return }
                last = value?.canonicalText ?? "undefined"
            } catch let error as BrowserError {
                // A browser that is gone will not make it true: no use waiting out the timeout.
                if pipe.closedReason != nil { throw error }
                last = error.description
            }
            if ContinuousClock.now >= deadline {
                var message = "waited \(timeout) for `\(expression)`; its last value: \(last)"
                let url = (try? await evaluate("location.href"))?.string ?? "?"
                message += "; page: \(url)"
                if !exceptions.isEmpty { message += "; exceptions: \(exceptions.joined(separator: " | "))" }
                if !consoleMessages.isEmpty { message += "; console: \(consoleMessages.joined(separator: " | "))" }
                throw BrowserError(description: message)
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Presses and releases a key, as a user would: `"ArrowDown"`, `"Enter"`, `"j"`, `"5"`.
    ///
    /// The key goes to the focused element (the body when nothing has focus).
    ///
    /// - Throws: `BrowserError` for a key the harness does not know, or when Chromium refuses the events.
    func press(_ key: String) async throws {
        guard let definition = KeyDefinition(key) else {
            throw BrowserError(description: "press: unknown key \"\(key)\"; known: single letters and digits, \(KeyDefinition.named.keys.sorted().joined(separator: ", "))")
        }
        var down: [String: JSONValue] = [
            "type": definition.text == nil ? "rawKeyDown" : "keyDown", "key": .string(definition.key), "code": .string(definition.code),
            "windowsVirtualKeyCode": .number(String(definition.keyCode)), "nativeVirtualKeyCode": .number(String(definition.keyCode)),
        ]
        if let text = definition.text {
            down["text"] = .string(text)
            down["unmodifiedText"] = .string(text)
        }
        _ = try await send("Input.dispatchKeyEvent", .object(down))
        var up = down
        up["type"] = "keyUp"
        up["text"] = nil
        up["unmodifiedText"] = nil
        _ = try await send("Input.dispatchKeyEvent", .object(up))
    }

    /// Focuses the element `selector` names, selects what it holds, and types `text` over it (input events
    /// fire as for a user's typing).
    ///
    /// - Throws: `BrowserError` when no element matches.
    func type(_ text: String, into selector: String) async throws {
        let found = try await evaluate("""
            (() => { const e = document.querySelector(\(Page.literal(selector))); if (!e) return false;
              e.focus(); try { e.select(); } catch (_) {} return true; })()
            """)
        guard found == .bool(true) else { throw BrowserError(description: "type: no element matches \(selector)") }
        if text.isEmpty {
            try await press("Backspace")
        } else {
            _ = try await send("Input.insertText", ["text": .string(text)])
        }
    }

    /// Scrolls the element `selector` names into view and clicks its centre with the mouse.
    ///
    /// - Throws: `BrowserError` when no element matches or it has no size on screen.
    func click(_ selector: String) async throws {
        let box = try await evaluate("""
            (() => { const e = document.querySelector(\(Page.literal(selector))); if (!e) return null;
              e.scrollIntoView({block: "center", inline: "center"}); const r = e.getBoundingClientRect();
              return {x: r.left + r.width / 2, y: r.top + r.height / 2, w: r.width, h: r.height}; })()
            """)
        guard let box, box != .null else { throw BrowserError(description: "click: no element matches \(selector)") }
        guard let x = box["x"], let y = box["y"], box["w"] != 0, box["h"] != 0 else {
            throw BrowserError(description: "click: \(selector) has no size on screen (\(box.canonicalText))")
        }
        for type in ["mouseMoved", "mousePressed", "mouseReleased"] {
            var event: [String: JSONValue] = ["type": .string(type), "x": x, "y": y]
            if type != "mouseMoved" {
                event["button"] = "left"
                event["clickCount"] = 1
            }
            _ = try await send("Input.dispatchMouseEvent", .object(event))
        }
    }

    /// Moves the mouse to a point of the viewport (to hover, or to move it off what it hovers).
    ///
    /// - Throws: `BrowserError` when Chromium refuses the event.
    func moveMouse(x: Int, y: Int) async throws {
        _ = try await send("Input.dispatchMouseEvent", ["type": "mouseMoved", "x": .number(String(x)), "y": .number(String(y))])
    }

    /// Sets the page's viewport (CSS pixels, scale 1).
    ///
    /// - Throws: `BrowserError` when Chromium refuses it.
    func setViewport(width: Int, height: Int) async throws {
        _ = try await send("Emulation.setDeviceMetricsOverride", [
            "width": .number(String(width)), "height": .number(String(height)), "deviceScaleFactor": 1, "mobile": false,
        ])
    }

    /// Captures the viewport as a PNG file at `path`.
    ///
    /// - Throws: `BrowserError` when Chromium sends no image; what writing the file throws.
    func screenshot(to path: String) async throws {
        let result = try await send("Page.captureScreenshot", ["format": "png"])
        guard let base64 = result["data"]?.string, let data = Data(base64Encoded: base64) else {
            throw BrowserError(description: "Page.captureScreenshot answered without an image")
        }
        try data.write(to: URL(fileURLWithPath: path))
    }

    // MARK: - What the page did

    private var myEvents: [DevToolsEvent] { pipe.events.filter { $0.sessionID == sessionID } }

    /// Every `console.*` call of the page, as `"type: arguments"`, plus every error the browser logged
    /// for it (a failed request, a blocked resource).
    var consoleMessages: [String] {
        myEvents.compactMap { event in
            switch event.method {
            case "Runtime.consoleAPICalled":
                let arguments = event.params["args"]?.array ?? []
                let texts = arguments.map { $0["value"].map { $0.string ?? $0.canonicalText } ?? $0["description"]?.string ?? "?" }
                return "\(event.params["type"]?.string ?? "log"): \(texts.joined(separator: " "))"
            case "Log.entryAdded":
                let entry = event.params["entry"] ?? [:]
                guard entry["level"]?.string == "error" else { return nil }
                return "\(entry["source"]?.string ?? "browser") error: \(entry["text"]?.string ?? "") \(entry["url"]?.string ?? "")"
            default:
                return nil
            }
        }
    }

    /// Every uncaught exception of the page, as its description.
    var exceptions: [String] {
        myEvents.filter { $0.method == "Runtime.exceptionThrown" }.map { event in
            let details = event.params["exceptionDetails"] ?? [:]
            return details["exception"]?["description"]?.string ?? details["text"]?.string ?? details.canonicalText
        }
    }

    /// The URL of every request the page sent (only recorded when the page was opened with `network: true`).
    var requests: [String] {
        myEvents.filter { $0.method == "Network.requestWillBeSent" }.compactMap { $0.params["request"]?["url"]?.string }
    }

    /// The URL and HTTP status of every response the page received (only recorded with `network: true`).
    var responses: [(url: String, status: Int)] {
        myEvents.filter { $0.method == "Network.responseReceived" }.compactMap { event in
            guard let url = event.params["response"]?["url"]?.string, let status = event.params["response"]?["status"]?.int else { return nil }
            return (url, status)
        }
    }

    /// `text` as a JavaScript string literal (JSON's string syntax is JavaScript's).
    static func literal(_ text: String) -> String {
        JSONValue.string(text).canonicalText
    }
}

/// What `Input.dispatchKeyEvent` needs to know about a key.
struct KeyDefinition {
    let key: String
    let code: String
    let keyCode: Int
    /// The text the key types, for printable keys.
    let text: String?

    static let named: [String: (code: String, keyCode: Int, text: String?)] = [
        "Enter": ("Enter", 13, "\r"), "Tab": ("Tab", 9, nil), "Escape": ("Escape", 27, nil),
        "Backspace": ("Backspace", 8, nil), "Delete": ("Delete", 46, nil), " ": ("Space", 32, " "),
        "ArrowLeft": ("ArrowLeft", 37, nil), "ArrowUp": ("ArrowUp", 38, nil),
        "ArrowRight": ("ArrowRight", 39, nil), "ArrowDown": ("ArrowDown", 40, nil),
        "Home": ("Home", 36, nil), "End": ("End", 35, nil), "PageUp": ("PageUp", 33, nil), "PageDown": ("PageDown", 34, nil),
    ]

    init?(_ key: String) {
        if let named = KeyDefinition.named[key] {
            self.key = key
            code = named.code
            keyCode = named.keyCode
            text = named.text
            return
        }
        guard key.count == 1, let scalar = key.unicodeScalars.first, scalar.isASCII else { return nil }
        let character = Character(scalar)
        if character.isLetter {
            let upper = key.uppercased()
            self.key = key
            code = "Key\(upper)"
            keyCode = Int(upper.unicodeScalars.first?.value ?? 0)
            text = key
        } else if character.isNumber {
            self.key = key
            code = "Digit\(key)"
            keyCode = Int(scalar.value)
            text = key
        } else {
            return nil
        }
    }
}
