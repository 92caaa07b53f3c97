/// The viewer's page: one HTML document with its style and script inline, hand-written, with no
/// framework and no request beyond its own server's API (none at all in a report).
///
/// The same page serves both uses: without embedded data it reads the API of ``ViewerServer``;
/// with a `<script type="application/json" id="actionlog-data">` element (a report, see
/// ``ViewerReport``) it reads that and never touches the network. Every string from a journal is
/// put into the page as text (`textContent`), never as HTML.
package enum ViewerPage {
    /// The page, with `data` (already escaped by ``escapedForScript(_:)``) embedded when given.
    package static func html(embedding data: [UInt8]? = nil, title: String = "ActionLog viewer") -> String {
        String(decoding: bytes(embedding: data, title: title), as: UTF8.self)
    }

    /// The page as bytes; the data goes in without being copied into a `String` first.
    package static func bytes(embedding data: [UInt8]?, title: String) -> [UInt8] {
        var bytes = Array(head(title: title, report: data != nil).utf8)
        bytes += Array(body.utf8)
        if let data {
            bytes += Array(#"<script type="application/json" id="actionlog-data">"#.utf8)
            bytes += data
            bytes += Array("</script>\n".utf8)
        }
        bytes += Array("<script>\n\(script)</script>\n</body>\n</html>\n".utf8)
        return bytes
    }

    /// JSON made safe to sit inside a `<script>` element: `<`, `>`, `&`, U+2028 and U+2029 become
    /// `\uXXXX` escapes. They can only occur inside JSON strings, where the escapes mean the same.
    package static func escapedForScript(_ json: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(json.count + json.count / 16)
        var index = 0
        while index < json.count {
            let byte = json[index]
            switch byte {
            case UInt8(ascii: "<"): output += Array(#"\u003c"#.utf8)
            case UInt8(ascii: ">"): output += Array(#"\u003e"#.utf8)
            case UInt8(ascii: "&"): output += Array(#"\u0026"#.utf8)
            case 0xE2 where index + 2 < json.count && json[index + 1] == 0x80 && (json[index + 2] == 0xA8 || json[index + 2] == 0xA9):
                output += Array((json[index + 2] == 0xA8 ? #"\u2028"# : #"\u2029"#).utf8)
                index += 2
            default: output.append(byte)
            }
            index += 1
        }
        return output
    }

    /// Escapes text for an HTML text node (the title).
    package static func escapedHTML(_ text: String) -> String {
        var output = ""
        for character in text.unicodeScalars {
            switch character {
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "&": output += "&amp;"
            case "\"": output += "&quot;"
            case "'": output += "&#39;"
            default: output.unicodeScalars.append(character)
            }
        }
        return output
    }

    private static func head(title: String, report: Bool) -> String {
        // A report opened from disk has no server to send headers: the policy travels in the page,
        // and allows no connection at all.
        let policy =
            report
            ? #"<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'">"# + "\n"
            : ""
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            \(policy)<meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="referrer" content="no-referrer">
            <title>\(escapedHTML(title))</title>
            <style>
            \(style)</style>
            </head>

            """
    }

    private static let body = """
        <body>
        <header>
          <strong>ActionLog</strong> <span id="file"></span>
          <span id="live" hidden>● live</span>
          <span id="live-controls" hidden>
            <button id="pause" type="button" aria-pressed="false">Pause</button>
            <button id="latest" type="button">Jump to latest</button>
          </span>
          <span id="copied" role="status"></span>
        </header>
        <pre id="report-message" hidden></pre>
        <div id="message" role="alert" hidden></div>
        <main>
          <nav id="sessions-pane" aria-label="Sessions">
            <h2>Sessions</h2>
            <button id="older" type="button" hidden>Older sessions</button>
            <ul id="sessions"></ul>
          </nav>
          <section id="timeline-pane" aria-label="Timeline">
            <div class="controls">
              <input id="filter" type="search" placeholder="Filter labels: add, add*, ?" autocomplete="off" spellcheck="false">
              <input id="jump" type="number" min="0" placeholder="Entry #" title="Entry number, then Enter">
            </div>
            <input id="slider" type="range" min="0" max="0" value="0" step="1" aria-label="Entry">
            <div id="keys-hint" class="hint">Keys: <kbd>←</kbd><kbd>→</kbd> or <kbd>↑</kbd><kbd>↓</kbd> step · <kbd>PgUp</kbd><kbd>PgDn</kbd> 10 · <kbd>Home</kbd><kbd>End</kbd> first, newest · <kbd>/</kbd> search state · <kbd>c</kbd> copy path · <kbd>C</kbd> copy value · <kbd>w</kbd> which entries changed it · Shift+click a row: compare</div>
            <div id="timeline-info"></div>
            <div id="timeline" role="listbox" tabindex="0"></div>
          </section>
          <section id="detail-pane" aria-label="Entry">
            <div id="entry-head"></div>
            <form id="compare-form" class="controls" autocomplete="off">
              <label>Compare entry <input id="compare-from" type="number" min="0" placeholder="selected" title="An entry number; empty: the selected entry"></label>
              <label>with <input id="compare-to" type="number" min="0" placeholder="selected" title="An entry number; empty: the selected entry"></label>
              <button id="compare-go" type="submit">Compare</button>
            </form>
            <section id="compare-result" hidden aria-label="Comparison">
              <h3><span id="compare-title"></span> <button id="compare-close" type="button" class="link">Close</button></h3>
              <ul id="compare-list" class="changes"></ul>
            </section>
            <div class="columns">
              <div class="column">
                <h3>State <span class="hint">(click a node to select and fold it)</span></h3>
                <div class="controls tree-controls">
                  <input id="tree-search" type="search" placeholder="Search paths and values" autocomplete="off" spellcheck="false">
                  <button id="search-previous" type="button" title="Previous match (Shift+Enter)">↑</button>
                  <button id="search-next" type="button" title="Next match (Enter)">↓</button>
                  <span id="tree-search-info" class="hint"></span>
                  <button id="expand-all" type="button">Expand all</button>
                  <button id="collapse-all" type="button">Collapse all</button>
                </div>
                <div id="node-context" hidden>
                  <code id="node-path"></code>
                  <button id="copy-path" type="button" title="Copy the JSON Pointer (c)">Copy path</button>
                  <button id="copy-value" type="button" title="Copy the value as JSON (C)">Copy value</button>
                  <div id="node-extra"></div>
                </div>
                <div id="tree-note" class="hint"></div>
                <div id="state"></div>
              </div>
              <div class="column">
                <h3>Change from the previous entry</h3>
                <ul id="diff" class="changes"></ul>
                <h3>Action</h3>
                <div id="action"></div>
                <h3>Effect</h3>
                <div id="effect"></div>
                <h3>Service calls and output</h3>
                <div id="handler"></div>
              </div>
            </div>
          </section>
        </main>

        """
}
