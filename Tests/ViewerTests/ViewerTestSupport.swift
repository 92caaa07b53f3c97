import ActionLog
import ActionLogViewer
import Foundation
import Testing
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A fresh directory per test, removed when the value goes away.
final class TemporaryDirectory: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("ViewerTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

/// The id ``cartJSONL``'s session derives from its header (it carries none).
let derivedCartUUID = "9a9de3df-8508-8caf-b710-1c7d65867d96"

/// A session with keyframes, deltas and a gap, at fixed times: entry 3 is a delta, entry 4 a gap,
/// entry 5 a keyframe after the gap, entry 6 a keyframe after a keyframe.
let cartJSONL = #"""
    {"actionlog":"session","format":1,"name":"cart <b>","status":"closed","startedAt":1000,"endedAt":1002,"libraryVersion":"0.1.0","appVersion":"2.1","stateType":"Cart","actionType":"Cart.Action","dropped":2,"metadata":{}}
    {"seq":0,"kind":"keyframe","time":1000,"state":{"items":[],"total":0}}
    {"seq":1,"kind":"keyframe","label":"addItem","time":1000.5,"durationNs":1500,"action":{"addItem":{"sku":"tea"}},"state":{"items":["tea"],"total":2}}
    {"seq":2,"kind":"delta","label":"addItem","time":1001,"durationNs":900,"action":{"addItem":{"sku":"</script><script>alert(1)</script>"}},"effect":{"save":{"total":5}},"patch":[{"op":"add","path":"/items/-","value":"</script><script>alert(1)</script>"},{"op":"replace","path":"/total","value":5}]}
    {"seq":3,"kind":"delta","label":"removeItem","time":1001.25,"action":{"removeItem":{"index":0}},"patch":[{"op":"remove","path":"/items/0"},{"op":"replace","path":"/total","value":3}]}
    {"seq":4,"kind":"gap","time":1001.5,"dropped":2,"note":"queue full"}
    {"seq":5,"kind":"keyframe","label":"checkout","time":1001.75,"action":{"checkout":{}},"state":{"items":[],"paid":true,"total":0}}
    {"seq":6,"kind":"keyframe","label":"reset","time":1002,"action":{"reset":{}},"state":{"items":[],"total":0}}

    """#

/// Imports `text` into `name.actionlog` in `directory`; returns the journal's path.
@discardableResult
func importJournal(_ text: String, named name: String, in directory: TemporaryDirectory) throws -> String {
    let url = directory.url.appendingPathComponent("\(name).jsonl")
    try text.write(to: url, atomically: true, encoding: .utf8)
    let path = directory.path("\(name).actionlog")
    try Journal.importJSONL(at: url, into: path)
    return path
}

/// Adds `count` closed sessions without entries after the journal's last one, named `extra N` by
/// their id, with the sqlite3 command-line tool, as another program would.
func addEmptySessions(_ count: Int, to path: String) throws {
    let candidates = ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3", "/opt/homebrew/bin/sqlite3"]
    guard let tool = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
        throw TestFailure("the sqlite3 command-line tool is needed to add sessions; looked in \(candidates)")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = [path, """
        WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < \(count))
        INSERT INTO sessions (id, name, started_at, ended_at, status, library_version, state_type, action_type)
        SELECT (SELECT max(id) FROM sessions) + k, 'extra ' || ((SELECT max(id) FROM sessions) + k), 1000, 1001, 'closed', '0.1.0', 'S', 'A' FROM n
        """]
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw TestFailure("sqlite3 could not add sessions to \(path)") }
}

/// A response read off the socket: the status, the headers (names lowercased) and the body.
typealias RawResponse = LoopbackResponse

/// Sends `request` (raw bytes) to 127.0.0.1:`port` and reads the whole response.
func exchange(port: Int, _ request: [UInt8]) throws -> RawResponse {
    try LoopbackClient.exchange(port: port, request)
}

/// `GET path` with the `Host` header a browser at the printed address sends (or `host`).
func get(port: Int, _ path: String, host: String? = nil, method: String = "GET") throws -> RawResponse {
    try LoopbackClient.get(port: port, path, host: host, method: method)
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension Browser {
    /// Opens the viewer at `url` (a server's, or a report's file) and waits until the page says it
    /// has loaded.
    func openViewer(_ url: String, network: Bool = false) async throws -> Page {
        let page = try await newPage(url, network: network)
        try await page.waitFor("document.body.dataset.loaded === 'true'")
        return page
    }
}
