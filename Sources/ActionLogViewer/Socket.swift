import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The few POSIX socket calls the server makes, each checked where it is made.
enum Socket {
    #if canImport(Darwin)
    static let stream = SOCK_STREAM
    #else
    static let stream = Int32(SOCK_STREAM.rawValue)
    #endif

    /// The system's message for the current `errno`.
    static func lastError() -> String {
        String(cString: strerror(errno))
    }

    /// A listening TCP socket on `host` (an IPv4 address) and `port` (0: a free port); returns it and
    /// the port it got.
    static func listen(host: String, port: Int) throws(ViewerServerError) -> (descriptor: Int32, port: Int) {
        guard (0...65535).contains(port) else {
            throw ViewerServerError("cannot listen on port \(port): a port is a number from 0 to 65535")
        }
        guard var address = Self.address(host, port: UInt16(port)) else {
            throw ViewerServerError("cannot listen on \(host): it is not an IPv4 address (such as 127.0.0.1)")
        }
        let descriptor = socket(AF_INET, stream, 0)
        guard descriptor >= 0 else { throw ViewerServerError("cannot open a socket: \(lastError())") }
        var yes: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, systemListen(descriptor, 64) == 0 else {
            let reason = lastError()
            close(descriptor)
            throw ViewerServerError("cannot listen on \(host):\(port): \(reason)")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &actual) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else {
            let reason = lastError()
            close(descriptor)
            throw ViewerServerError("cannot learn the port of the socket: \(reason)")
        }
        return (descriptor, Int(UInt16(bigEndian: actual.sin_port)))
    }

    /// The socket address of `host` (an IPv4 address such as 127.0.0.1) and `port`; `nil` when
    /// `host` is not one.
    static func address(_ host: String, port: UInt16) -> sockaddr_in? {
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(port).bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { return nil }
        return address
    }

    /// Waits up to `milliseconds` for `descriptor` to be readable (or to have a connection to accept).
    static func waitReadable(_ descriptor: Int32, milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, milliseconds) > 0
    }

    /// Accepts a connection, with read and write timeouts set; `nil` when none is waiting.
    static func accept(_ descriptor: Int32, timeoutSeconds: Int) -> Int32? {
        #if canImport(Darwin)
        let connection = Darwin.accept(descriptor, nil, nil)
        #elseif canImport(Glibc)
        let connection = Glibc.accept(descriptor, nil, nil)
        #else
        let connection = Musl.accept(descriptor, nil, nil)
        #endif
        guard connection >= 0 else { return nil }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        _ = setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        #if canImport(Darwin)
        var yes: Int32 = 1
        _ = setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
        #endif
        return connection
    }

    /// Reads the request's head (up to the blank line), at most `limit` bytes. `nil` when the peer
    /// closed, timed out or sent more than `limit` bytes without ending the head (`tooLarge`).
    ///
    /// A peer that trickles its request in gets `deadline` in all, not a timeout per byte.
    static func readHead(_ descriptor: Int32, limit: Int, deadline: Duration) -> (head: [UInt8]?, tooLarge: Bool) {
        let clock = ContinuousClock()
        let end = clock.now.advanced(by: deadline)
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while buffer.count < limit {
            guard clock.now < end else { return (nil, false) }
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, min($0.count, limit - buffer.count), 0) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return (nil, false) }
            let start = max(0, buffer.count - 3)
            buffer += chunk[0..<count]
            if let end = headEnd(buffer, from: start) { return (Array(buffer[0..<end.head]), false) }
        }
        return (nil, true)
    }

    /// Where the head of a message ends (its last line's end left out) and its body begins, looking
    /// from `start`: the blank line is `\r\n\r\n`, or has a bare `\n` for either line end (RFC 9112
    /// lets a recipient take one as a line's end).
    static func headEnd(_ buffer: [UInt8], from start: Int) -> (head: Int, body: Int)? {
        var index = max(0, start)
        while index + 1 < buffer.count {
            if buffer[index] == 10 {
                let head = index > 0 && buffer[index - 1] == 13 ? index - 1 : index
                if buffer[index + 1] == 10 { return (head, index + 2) }
                if buffer[index + 1] == 13, index + 2 < buffer.count, buffer[index + 2] == 10 { return (head, index + 3) }
            }
            index += 1
        }
        return nil
    }

    /// Writes all of `bytes`; gives up when the peer is gone, a write times out, or `deadline` has
    /// passed. Never raises `SIGPIPE`.
    ///
    /// The deadline bounds the whole answer: a peer that reads a little before each write's timeout
    /// would otherwise hold the connection's thread for as long as it likes.
    @discardableResult
    static func writeAll(_ descriptor: Int32, _ bytes: [UInt8], deadline: Duration) -> Bool {
        #if canImport(Darwin)
        let flags: Int32 = 0
        #else
        let flags = Int32(MSG_NOSIGNAL)
        #endif
        let clock = ContinuousClock()
        let end = clock.now.advanced(by: deadline)
        var offset = 0
        while offset < bytes.count, clock.now < end {
            let written = bytes.withUnsafeBytes { buffer in
                send(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset, flags)
            }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return offset == bytes.count
    }

    /// Makes the coming `close` reset the connection: what is still queued to send is dropped, rather
    /// than delivered for as long as the peer takes to read it.
    static func resetOnClose(_ descriptor: Int32) {
        var option = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    }

    /// Ends both directions of a connection, waking a thread blocked reading it.
    static func shutdownBoth(_ descriptor: Int32) {
        #if canImport(Darwin)
        _ = Darwin.shutdown(descriptor, SHUT_RDWR)
        #else
        _ = shutdown(descriptor, Int32(SHUT_RDWR))
        #endif
    }
}

/// `listen(2)`, named apart from ``Socket/listen(host:port:)``.
private func systemListen(_ descriptor: Int32, _ backlog: Int32) -> Int32 {
    #if canImport(Darwin)
    Darwin.listen(descriptor, backlog)
    #elseif canImport(Glibc)
    Glibc.listen(descriptor, backlog)
    #else
    Musl.listen(descriptor, backlog)
    #endif
}
