// SPDX-License-Identifier: MIT
import Dispatch
import Foundation
import LogbookCore

#if canImport(Glibc)
    import Glibc
#endif

/// A small HTTP/1.1 client over a plain socket, so the tests see exactly the bytes the
/// server sends (cookies, headers, the event stream). Blocking calls run on Dispatch threads,
/// never on the Swift concurrency pool the server in the same process uses.
struct HTTPTestClient: Sendable {
    let port: Int
    var host = "127.0.0.1"
    /// The local address to send from (another 127.0.0.x stands for another client).
    var source: String?

    struct Reply: Sendable, CustomStringConvertible {
        var status: Int
        var headers: [(String, String)]
        var body: [UInt8]

        func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
        func headers(_ name: String) -> [String] { headers.filter { $0.0.lowercased() == name.lowercased() }.map(\.1) }
        var text: String { String(decoding: body, as: UTF8.self) }
        var json: JSONValue? { try? JSONValue.parse(body) }
        /// The `logbook_session` cookie's value from `Set-Cookie`.
        var sessionCookie: String? {
            for value in headers("Set-Cookie") where value.hasPrefix("logbook_session=") {
                return String(value.dropFirst("logbook_session=".count).prefix { $0 != ";" })
            }
            return nil
        }
        var description: String { "\(status) \(text.prefix(300))" }
    }

    /// Sends one request (`Connection: close`) and reads the whole reply; with `timeout`, gives
    /// up (throws) when connecting, sending or any read waits longer.
    func request(
        _ method: String, _ path: String, headers: [String: String] = [:], body: String? = nil, hostHeader: String? = nil,
        timeout: Double? = nil
    ) async throws -> Reply {
        let client = self
        return try await Self.blocking {
            try client.requestBlocking(method, path, headers: headers, body: body, hostHeader: hostHeader, timeout: timeout)
        }
    }

    /// ``request(_:_:headers:body:hostHeader:timeout:)`` on the calling thread (for tests that
    /// run many clients on threads of their own, so none waits for a Dispatch worker).
    func requestBlocking(
        _ method: String, _ path: String, headers: [String: String] = [:], body: String? = nil, hostHeader: String? = nil,
        timeout: Double? = nil
    ) throws -> Reply {
        let raw = Self.requestBytes(method, path, host: hostHeader ?? "\(host):\(port)", headers: headers, body: body)
        let fd = try Self.connect(host, port, from: source, timeout: timeout)
        defer { close(fd) }
        try Self.send(fd, raw)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = recv(fd, &chunk, chunk.count, 0)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            bytes += chunk[0..<n]
        }
        return try Self.parse(bytes)
    }

    /// Opens `path` as an event stream and returns the `data:` lines of the first `count`
    /// events, or what arrived before `timeout` seconds.
    func events(_ path: String, count: Int, headers: [String: String] = [:], timeout: Double = 10) async throws -> [String] {
        let raw = Self.requestBytes("GET", path, host: "\(host):\(port)", headers: headers.merging(["Accept": "text/event-stream"]) { a, _ in a }, body: nil)
        let (host, port) = (self.host, self.port)
        return try await Self.blocking {
            let fd = try Self.connect(host, port)
            defer { close(fd) }
            var limit = timeval(tv_sec: 1, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            try Self.send(fd, raw)
            let deadline = Date().addingTimeInterval(timeout)
            var text = ""
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while Date() < deadline {
                let n = recv(fd, &chunk, chunk.count, 0)
                if n == 0 { break }
                if n > 0 { text += String(decoding: chunk[0..<n], as: UTF8.self) }
                let data = text.components(separatedBy: "\n").filter { $0.hasPrefix("data: ") }.map { String($0.dropFirst(6)) }
                if data.count >= count { return Array(data.prefix(count)) }
            }
            return text.components(separatedBy: "\n").filter { $0.hasPrefix("data: ") }.map { String($0.dropFirst(6)) }
        }
    }

    /// Opens `n` event streams and keeps them open until the returned closer is called.
    func holdEventStreams(_ n: Int, headers: [String: String] = [:]) async throws -> [Int32] {
        let raw = Self.requestBytes("GET", "/api/live/events", host: "\(host):\(port)", headers: headers, body: nil)
        let (host, port) = (self.host, self.port)
        return try await Self.blocking {
            var fds: [Int32] = []
            for _ in 0..<n {
                let fd = try Self.connect(host, port)
                try Self.send(fd, raw)
                fds.append(fd)
            }
            return fds
        }
    }

    static func requestBytes(_ method: String, _ path: String, host: String, headers: [String: String], body: String?) -> [UInt8] {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n"
        for (k, v) in headers { head += "\(k): \(v)\r\n" }
        if let body { head += "Content-Length: \(body.utf8.count)\r\n" }
        head += "\r\n"
        return Array((head + (body ?? "")).utf8)
    }

    static func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { done in
            DispatchQueue.global().async { done.resume(with: Result { try body() }) }
        }
    }

    static func connect(_ host: String, _ port: Int, from source: String? = nil, timeout: Double? = nil) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if let timeout {
            var tv = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1e6))
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            inet_pton(AF_INET, source, &local.sin_addr)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                close(fd)
                throw POSIXError(.EADDRNOTAVAIL)
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, host, &address.sin_addr)
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard rc == 0 else {
            close(fd)
            throw POSIXError(.ECONNREFUSED)
        }
        return fd
    }

    static func send(_ fd: Int32, _ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw POSIXError(.EPIPE) }
            offset += n
        }
    }

    static func parse(_ bytes: [UInt8]) throws -> Reply {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = (0..<max(0, bytes.count - 3)).first(where: { Array(bytes[$0..<$0 + 4]) == separator }) else {
            throw POSIXError(.EBADMSG)
        }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(lines[0].split(separator: " ")[1]) ?? 0
        var headers: [(String, String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        var body = Array(bytes[(end + 4)...])
        if headers.contains(where: { $0.0.lowercased() == "transfer-encoding" && $0.1.lowercased().contains("chunked") }) {
            body = dechunk(body)
        }
        return Reply(status: status, headers: headers, body: body)
    }

    static func dechunk(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            guard let lineEnd = (i..<bytes.count - 1).first(where: { bytes[$0] == 13 && bytes[$0 + 1] == 10 }) else { break }
            let sizeText = String(decoding: bytes[i..<lineEnd], as: UTF8.self).split(separator: ";")[0]
            guard let size = Int(sizeText, radix: 16), size > 0 else { break }
            let start = lineEnd + 2
            out += bytes[start..<min(bytes.count, start + size)]
            i = start + size + 2
        }
        return out
    }
}
