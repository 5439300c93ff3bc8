// SPDX-License-Identifier: MIT
package import LogbookCore
#if canImport(Glibc)
    internal import Glibc
#endif

/// A blocking connection to logbookd's control socket, `<runtime-dir>/control.sock`
/// (NDJSON; the protocol is documented on ``ControlHandler``).
///
/// Used by the CLI and, from a thread of their own, by the other processes (web, uplink).
/// Never call it on the Swift concurrency pool: it blocks in `poll(2)`.
package final class ControlClient {
    /// Why a request did not get an `ok` reply.
    package enum Failure: Error, CustomStringConvertible {
        /// No daemon to talk to (exit 69).
        case unreachable(String)
        /// The daemon answered `{"error":{"code":…,"message":…}}` (exit 1).
        case refused(code: String, message: String)

        package var description: String {
            switch self {
            case .unreachable(let why): why
            case .refused(let code, let message): "\(message) (\(code))"
            }
        }
    }

    package let path: String
    private let fd: Int32
    private var buffer: [UInt8] = []

    /// The socket's default path in `runtimeDirectory`.
    package static func socketPath(runtimeDirectory: String) -> String { runtimeDirectory + "/control.sock" }

    /// Connects to the socket in `runtimeDirectory` within `timeout` seconds.
    package convenience init(runtimeDirectory: String, timeout: Double = 2) throws(Failure) {
        try self.init(socketPath: Self.socketPath(runtimeDirectory: runtimeDirectory), timeout: timeout)
    }

    /// Connects to the socket at `socketPath` within `timeout` seconds.
    package convenience init(socketPath path: String, timeout: Double = 2) throws(Failure) {
        // The object exists only once connected: its deinit must not close a failed fd again.
        self.init(fd: try Self.connect(path, timeout: timeout), path: path)
    }

    private init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
    }

    private static func connect(_ path: String, timeout: Double) throws(Failure) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .unreachable("cannot create a socket: \(String(cString: strerror(errno)))") }
        // For Unix sockets the send timeout also bounds connect() (a full backlog).
        var limit = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let fits = withUnsafeMutableBytes(of: &address.sun_path) { raw in
            guard bytes.count < raw.count else { return false }
            raw.copyBytes(from: bytes)
            return true
        }
        let rc =
            fits
            ? withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            } : -1
        guard rc == 0 else {
            let code = fits ? errno : ENAMETOOLONG
            close(fd)
            throw .unreachable(explain(code, path: path))
        }
        return fd
    }

    deinit { close(fd) }

    /// Sends one request line.
    package func send(_ request: JSONValue) throws(Failure) {
        let bytes = Array((request.serialized + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { raw in
                Glibc.send(fd, raw.baseAddress.map { $0 + offset }, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            if n > 0 {
                offset += n
            } else if n < 0, errno == EINTR {
                continue
            } else {
                throw .unreachable("logbookd closed the control socket (\(String(cString: strerror(errno))))")
            }
        }
    }

    /// Reads the next reply: the parsed object and its text.
    ///
    /// - Throws: ``Failure/refused(code:message:)`` for an error reply;
    ///   ``Failure/unreachable(_:)`` when the daemon hangs up, is silent for `timeout`
    ///   seconds or sends something unreadable.
    package func readReply(timeout: Double) throws(Failure) -> (JSONValue, String) {
        let line = try readLine(timeout: timeout)
        let text = String(decoding: line, as: UTF8.self)
        let reply: JSONValue
        do {
            reply = try JSONValue.parse(line)
        } catch {
            throw .unreachable("logbookd sent an unreadable reply: \(error)")
        }
        if let error = reply["error"] {
            throw .refused(
                code: error["code"]?.stringValue ?? "error", message: error["message"]?.stringValue ?? "the daemon refused the request")
        }
        return (reply, text)
    }

    /// Sends `request` and reads its reply.
    package func call(_ request: JSONValue, timeout: Double = 10) throws(Failure) -> (JSONValue, String) {
        try send(request)
        return try readReply(timeout: timeout)
    }

    private func readLine(timeout: Double) throws(Failure) -> [UInt8] {
        let deadline = Self.now() + timeout
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            if let newline = buffer.firstIndex(of: 10) {
                defer { buffer.removeFirst(newline + 1) }
                return Array(buffer[..<newline])
            }
            let left = deadline - Self.now()
            guard left > 0 else { throw .unreachable("logbookd did not answer within \(Int(timeout)) s") }
            var waiter = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&waiter, 1, Int32(min(left * 1000, 60_000)) + 1)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { continue }
            let n = recv(fd, &chunk, chunk.count, 0)
            if n > 0 {
                buffer += chunk[0..<n]
            } else if n < 0, errno == EINTR {
                continue
            } else {
                throw .unreachable("logbookd closed the connection")
            }
        }
    }

    /// `CLOCK_MONOTONIC` in seconds.
    private static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    private static func explain(_ code: Int32, path: String) -> String {
        switch code {
        case ENOENT: "logbookd is not running: no control socket at \(path)"
        case ECONNREFUSED: "logbookd is not running: nobody listens on \(path)"
        case EACCES, EPERM: "no permission to use \(path) (is this user in the logbook group?)"
        case ENAMETOOLONG: "the control socket path is too long: \(path)"
        default: "cannot reach logbookd at \(path): \(String(cString: strerror(code)))"
        }
    }
}
