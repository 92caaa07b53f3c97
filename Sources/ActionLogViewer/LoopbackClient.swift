import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A response read whole from a ``ViewerServer`` on this machine: what the tests and the benchmark
/// read the server with (a connection per request, as the server closes each one).
package struct LoopbackResponse: Sendable {
    /// The status line's code; 0 when it is not a number.
    package let status: Int
    /// The headers, by lowercased name.
    package let headers: [String: String]
    /// The body's bytes.
    package let bytes: [UInt8]

    /// The body as UTF-8 text.
    package var body: String { String(decoding: bytes, as: UTF8.self) }
}

/// Sends raw requests to a port of 127.0.0.1 and reads the answer until the server closes.
package enum LoopbackClient {
    /// `GET path` (or another `method`) with the `Host` a browser at the server's address sends, or `host`.
    ///
    /// - Throws: ``ViewerServerError`` when the connection fails or no HTTP answer comes.
    package static func get(port: Int, _ path: String, host: String? = nil, method: String = "GET") throws(ViewerServerError) -> LoopbackResponse {
        try exchange(port: port, Array("\(method) \(path) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nUser-Agent: actionlog\r\n\r\n".utf8))
    }

    /// Sends `request` as it is and reads the whole response; gives up reading after `timeoutSeconds`.
    ///
    /// - Throws: ``ViewerServerError`` when the connection fails or no HTTP answer comes.
    package static func exchange(port: Int, _ request: [UInt8], timeoutSeconds: Int = 10) throws(ViewerServerError) -> LoopbackResponse {
        let descriptor = socket(AF_INET, Socket.stream, 0)
        guard descriptor >= 0 else { throw ViewerServerError("cannot open a socket: \(Socket.lastError())") }
        defer { close(descriptor) }
        // A literal IPv4 address always parses.
        var address = Socket.address("127.0.0.1", port: UInt16(clamping: port)) ?? sockaddr_in()
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw ViewerServerError("cannot connect to 127.0.0.1:\(port): \(Socket.lastError())") }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        // The server may answer and close before reading everything (a refused request): what it said counts.
        Socket.writeAll(descriptor, request, deadline: .seconds(timeoutSeconds))
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            received += chunk[0..<count]
        }
        guard let end = Socket.headEnd(received, from: 0) else {
            throw ViewerServerError("no HTTP answer from 127.0.0.1:\(port) (\(received.count) bytes)")
        }
        let head = String(decoding: received[0..<end.head], as: UTF8.self).components(separatedBy: "\r\n")
        let status = head.first.flatMap { $0.split(separator: " ").dropFirst().first }.flatMap { Int($0) } ?? 0
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return LoopbackResponse(status: status, headers: headers, bytes: Array(received[end.body...]))
    }
}
