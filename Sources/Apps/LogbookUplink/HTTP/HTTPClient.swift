// SPDX-License-Identifier: MIT
#if canImport(Glibc)
    import Glibc
#endif

/// A small blocking HTTP/1.1 client for the uplink's HTTP sinks (OwnTracks Recorder,
/// Overland, OsmAnd/Traccar): one keep-alive connection over a plain TCP socket, requests
/// with a `Content-Length` body, replies read by `Content-Length` or chunked encoding (at
/// most 64 KiB kept). No TLS (see docs/uplink.md): these receivers listen on plain HTTP by
/// default (Traccar's 5055, the Recorder's 8083). Runs on the sink's own thread only.
public final class HTTPClient {
    /// A reply.
    public struct Response: Sendable {
        public var status: Int
        public var body: [UInt8]
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    public let url: HTTPURL
    let timeout: Double
    private var fd: Int32 = -1
    private var buffer: [UInt8] = []

    /// A client for `url`'s host; `timeout` bounds connecting and each reply.
    public init(url: HTTPURL, timeout: Double = 10) {
        self.url = url
        self.timeout = timeout
    }

    deinit { disconnect() }

    /// Sends one request (reconnecting once when a kept-alive connection turned out closed)
    /// and reads the reply. Throws ``UplinkError/connection(_:)`` when the receiver cannot be
    /// reached or does not answer in time.
    public func send(method: String, target: String, headers: [(String, String)] = [], body: [UInt8] = []) throws(UplinkError) -> Response {
        var request = "\(method) \(target) HTTP/1.1\r\nHost: \(url.hostHeader)\r\nUser-Agent: logbook-uplink\r\nContent-Length: \(body.count)\r\n"
        for (k, v) in headers { request += "\(k): \(v)\r\n" }
        request += "\r\n"
        let bytes = Array(request.utf8) + body
        let reused = fd >= 0
        do {
            if fd < 0 { try connect() }
            try write(bytes)
            return try readResponse()
        } catch {
            disconnect()
            // A kept-alive connection the server had closed: try once on a fresh one.
            guard reused else { throw error }
            try connect()
            do {
                try write(bytes)
                return try readResponse()
            } catch {
                disconnect()
                throw error
            }
        }
    }

    /// Closes the connection (the next request opens a new one).
    public func disconnect() {
        if fd >= 0 { close(fd) }
        fd = -1
        buffer.removeAll()
    }

    private func connect() throws(UplinkError) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(url.host, String(url.port), &hints, &list)
        guard rc == 0, let first = list else {
            throw .connection("\(url.host): cannot resolve (\(String(cString: gai_strerror(rc))))")
        }
        defer { freeaddrinfo(list) }
        var lastError = "no address"
        var node: UnsafeMutablePointer<addrinfo>? = first
        while let a = node {
            node = a.pointee.ai_next
            let s = socket(a.pointee.ai_family, a.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), a.pointee.ai_protocol)
            guard s >= 0 else { continue }
            var limit = timeval(tv_sec: Int(timeout), tv_usec: 0)
            setsockopt(s, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            var one: Int32 = 1
            setsockopt(s, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            if Glibc.connect(s, a.pointee.ai_addr, a.pointee.ai_addrlen) == 0 {
                fd = s
                return
            }
            lastError = String(cString: strerror(errno))
            close(s)
        }
        throw .connection("\(url.host):\(url.port): \(lastError)")
    }

    private func write(_ bytes: [UInt8]) throws(UplinkError) {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw .connection("\(url.host):\(url.port): send failed: \(String(cString: strerror(errno)))") }
            sent += n
        }
    }

    /// More bytes into `buffer`; false at the end of the stream.
    private func fill() throws(UplinkError) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                buffer += chunk[0..<n]
                return true
            }
            if n == 0 { return false }
            if errno == EINTR { continue }
            let why = errno == EAGAIN || errno == EWOULDBLOCK ? "no answer within \(Int(timeout)) s" : String(cString: strerror(errno))
            throw .connection("\(url.host):\(url.port): \(why)")
        }
    }

    private func line() throws(UplinkError) -> String {
        while true {
            if let nl = buffer.firstIndex(of: 10) {
                var l = Array(buffer[..<nl])
                buffer.removeFirst(nl + 1)
                if l.last == 13 { l.removeLast() }
                return String(decoding: l, as: UTF8.self)
            }
            guard buffer.count < 65_536 else { throw .connection("\(url.host): reply header too long") }
            guard try fill() else { throw .connection("\(url.host):\(url.port): connection closed before a reply") }
        }
    }

    private func take(_ n: Int, keep: inout [UInt8]) throws(UplinkError) {
        var left = n
        while left > 0 {
            if buffer.isEmpty, try !fill() { throw .connection("\(url.host): reply cut short") }
            let k = min(left, buffer.count)
            if keep.count < 65_536 { keep += buffer[0..<min(k, 65_536 - keep.count)] }
            buffer.removeFirst(k)
            left -= k
        }
    }

    private func readResponse() throws(UplinkError) -> Response {
        let statusLine = try line()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw .connection("\(url.host): not an HTTP reply: \(statusLine.prefix(80))")
        }
        var length: Int?
        var chunked = false
        var closeAfter = parts[0] == "HTTP/1.0"
        while true {
            let h = try line()
            if h.isEmpty { break }
            guard let colon = h.firstIndex(of: ":") else { continue }
            let name = h[..<colon].lowercased()
            let value = h[h.index(after: colon)...].trimmingCharacters(in: " \t").lowercased()
            if name == "content-length" { length = Int(value) }
            if name == "transfer-encoding", value.contains("chunked") { chunked = true }
            if name == "connection" { closeAfter = value == "close" ? true : value == "keep-alive" ? false : closeAfter }
        }
        var body: [UInt8] = []
        if chunked {
            while true {
                let size = Int(try line().split(separator: ";").first.map(String.init) ?? "", radix: 16) ?? 0
                if size == 0 {
                    while try !line().isEmpty {}
                    break
                }
                try take(size, keep: &body)
                _ = try line()
            }
        } else if let length {
            try take(length, keep: &body)
        } else if status >= 200, status != 204, status != 304 {
            // No length: the body runs to the end of the connection.
            while try fill() {}
            body = Array(buffer.prefix(65_536))
            buffer.removeAll()
            closeAfter = true
        }
        if closeAfter { disconnect() }
        return Response(status: status, body: body)
    }
}

extension Substring {
    func trimmingCharacters(in set: String) -> String {
        let drop = Set(set)
        return String(self.drop(while: { drop.contains($0) }).reversed().drop(while: { drop.contains($0) }).reversed())
    }
}
