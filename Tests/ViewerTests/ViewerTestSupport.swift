import ActionLog
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

/// A response read off the socket: the status, the headers (names lowercased) and the body.
struct RawResponse {
    let status: Int
    let headers: [String: String]
    let body: String
}

/// Sends `request` (raw bytes) to 127.0.0.1:`port` and reads the whole response.
func exchange(port: Int, _ request: [UInt8]) throws -> RawResponse {
    #if canImport(Darwin)
    let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #else
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #endif
    guard descriptor >= 0 else { throw TestFailure("socket: \(errno)") }
    defer { close(descriptor) }
    var address = sockaddr_in()
    #if canImport(Darwin)
    address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
    #endif
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port)).bigEndian
    inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else { throw TestFailure("connect: \(String(cString: strerror(errno)))") }
    var timeout = timeval(tv_sec: 10, tv_usec: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var offset = 0
    while offset < request.count {
        let sent = request.withUnsafeBytes { send(descriptor, $0.baseAddress! + offset, request.count - offset, 0) }
        guard sent > 0 else { break }  // The server may answer and close before reading everything.
        offset += sent
    }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { break }
        bytes += chunk[0..<count]
    }
    let text = String(decoding: bytes, as: UTF8.self)
    guard let split = text.range(of: "\r\n\r\n") else { throw TestFailure("no response head in \(text.debugDescription)") }
    let headLines = text[..<split.lowerBound].components(separatedBy: "\r\n")
    let status = Int(headLines[0].split(separator: " ")[1]) ?? 0
    var headers: [String: String] = [:]
    for line in headLines.dropFirst() {
        guard let colon = line.firstIndex(of: ":") else { continue }
        headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    return RawResponse(status: status, headers: headers, body: String(text[split.upperBound...]))
}

/// `GET path` with the `Host` header a browser at the printed address sends (or `host`).
func get(port: Int, _ path: String, host: String? = nil, method: String = "GET") throws -> RawResponse {
    try exchange(port: port, Array("\(method) \(path) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nUser-Agent: test\r\n\r\n".utf8))
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
