import Foundation

/// A request as the viewer's server reads it: the method, the path, the query and the headers it
/// needs. Anything else of HTTP (bodies, chunking, keep-alive) the viewer does not use.
struct HTTPRequest: Sendable, Equatable {
    var method: String
    /// The path, percent-decoded, without the query.
    var path: String
    /// The query's parameters, percent-decoded (`+` is a space); the first of a repeated name wins.
    var query: [String: String]
    /// The `Host` header, if any.
    var host: String?

    /// The most bytes of request line and headers the server reads: larger requests are answered 431.
    static let maximumHeaderBytes = 16 * 1024

    /// Why a request could not be read: the status to answer and a sentence.
    struct Problem: Error, Equatable {
        let status: Int
        let reason: String
    }

    /// Parses the request line and headers (everything before the blank line).
    ///
    /// - Throws: ``Problem`` with status 400 for what is not an HTTP/1.x request.
    init(head: [UInt8]) throws(Problem) {
        guard let text = Self.utf8Text(head) else {
            throw Problem(status: 400, reason: "The request is not UTF-8 text.")
        }
        // Lines end with CRLF; a bare LF is taken as a line's end too, as RFC 9112 allows.
        // (In a Swift string, `\r\n` is one character.)
        var lines = text.split(omittingEmptySubsequences: false) { $0 == "\r\n" || $0 == "\n" }
        guard !lines.isEmpty else { throw Problem(status: 400, reason: "The request is empty.") }
        let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: false)
        guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/1."), !requestLine[0].isEmpty else {
            throw Problem(status: 400, reason: "The request line is not \"METHOD /path HTTP/1.1\".")
        }
        method = String(requestLine[0])
        let target = requestLine[1]
        guard target.hasPrefix("/") else {
            throw Problem(status: 400, reason: "The request target is not a path.")
        }
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        // Decoded a segment at a time: an encoded slash is part of no route, and must not make one.
        var segments: [String] = []
        for segment in parts[0].split(separator: "/", omittingEmptySubsequences: false) {
            guard let decoded = Self.percentDecoded(segment, plusIsSpace: false) else {
                throw Problem(status: 400, reason: "The path is not valid percent-encoded UTF-8.")
            }
            guard !decoded.contains("/") else { throw Problem(status: 400, reason: "The path holds an encoded slash (%2F).") }
            segments.append(decoded)
        }
        self.path = segments.joined(separator: "/")
        query = [:]
        if parts.count == 2 {
            for pair in parts[1].split(separator: "&") {
                let nameAndValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard let name = Self.percentDecoded(nameAndValue[0], plusIsSpace: true),
                    let value = Self.percentDecoded(nameAndValue.count == 2 ? nameAndValue[1] : "", plusIsSpace: true)
                else {
                    throw Problem(status: 400, reason: "The query is not valid percent-encoded UTF-8.")
                }
                if query[name] == nil { query[name] = value }
            }
        }
        host = nil
        var hosts = 0
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else {
                throw Problem(status: 400, reason: "A header line has no colon.")
            }
            let name = line[..<colon].lowercased()
            if name == "host" {
                hosts += 1
                host = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        guard hosts <= 1 else { throw Problem(status: 400, reason: "The request has more than one Host header.") }
        if host?.isEmpty == true { throw Problem(status: 400, reason: "The request's Host header is empty.") }
    }

    /// `text` with `%XX` sequences decoded; `nil` when a sequence is malformed or the bytes are not UTF-8.
    static func percentDecoded(_ text: Substring, plusIsSpace: Bool) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
                bytes.append(high << 4 | low)
            case UInt8(ascii: "+") where plusIsSpace:
                bytes.append(UInt8(ascii: " "))
            default:
                bytes.append(byte)
            }
        }
        return utf8Text(bytes)
    }

    /// `bytes` as text, or `nil` when they are not UTF-8: what `String(validating:as:)` does from macOS 15
    /// and iOS 18 on. Valid UTF-8 decodes to the same bytes; anything else has replacement characters instead.
    private static func utf8Text(_ bytes: [UInt8]) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.utf8.elementsEqual(bytes) ? text : nil
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// A response of the viewer's server: a status, a content type and a body; the safety headers are
/// the same on every response.
struct HTTPResponse: Sendable, Equatable {
    var status: Int
    var contentType: String
    var body: [UInt8]
    /// Extra headers (`Allow` on a 405).
    var headers: [(String, String)] = []

    static func == (lhs: HTTPResponse, rhs: HTTPResponse) -> Bool {
        lhs.status == rhs.status && lhs.contentType == rhs.contentType && lhs.body == rhs.body
            && lhs.headers.map { "\($0.0): \($0.1)" } == rhs.headers.map { "\($0.0): \($0.1)" }
    }

    /// The headers every response carries: the page may run only its own inline script and style and
    /// talk only to this server; nothing is sniffed, framed or cached.
    static let safetyHeaders: [(String, String)] = [
        (
            "Content-Security-Policy",
            "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
        ),
        ("X-Content-Type-Options", "nosniff"),
        ("Cache-Control", "no-store"),
        ("Referrer-Policy", "no-referrer"),
        ("X-Frame-Options", "DENY"),
    ]

    /// A plain-text answer, for refusals.
    static func text(_ status: Int, _ text: String) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "text/plain; charset=utf-8", body: Array((text + "\n").utf8))
    }

    /// A JSON answer.
    static func json(_ status: Int, _ bytes: [UInt8]) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json; charset=utf-8", body: bytes)
    }

    /// The bytes on the wire: status line, headers, and the body unless the request was `HEAD`.
    func serialized(includingBody: Bool) -> [UInt8] {
        var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
        head += "Content-Type: \(contentType)\r\n"
        head += "Content-Length: \(body.count)\r\n"
        head += "Connection: close\r\n"
        for (name, value) in Self.safetyHeaders + headers { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        var bytes = Array(head.utf8)
        if includingBody { bytes += body }
        return bytes
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 421: "Misdirected Request"
        case 422: "Unprocessable Content"
        case 431: "Request Header Fields Too Large"
        case 503: "Service Unavailable"
        default: "Internal Server Error"
        }
    }
}
