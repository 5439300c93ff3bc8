// SPDX-License-Identifier: MIT
import Foundation
public import LogbookCore
import LogbookPOSIX

/// What `logbook doctor` (and the web app's Setup check) learns from gpsd itself, as a second client beside logbookd: its
/// `VERSION` banner, then with `?WATCH` the first TPV report with a fix.
public struct GPSDProbe: Sendable {
    /// gpsd answered; its release.
    public var release: String?
    /// The best fix mode seen (0-3), nil without any TPV report.
    public var mode: Int?
    /// The fix's time as gpsd reported it, and the wall clock when it arrived.
    public var fixTime: GPSTime?
    public var receivedAt: GPSTime?
    /// Why gpsd could not be reached, nil when it answered.
    public var failure: String?

    /// Connects to `address` and waits up to `wait` seconds for a 2D/3D fix.
    public init() {}

    public static func run(_ address: HostPort, wait: Double) -> GPSDProbe {
        var probe = GPSDProbe()
        let fd: Int32
        do { fd = try connect(address, timeout: min(wait, 3)) } catch {
            probe.failure = "\(error)"
            return probe
        }
        defer { close(fd) }
        let watch = Array("?WATCH={\"enable\":true,\"json\":true};\n".utf8)
        _ = watch.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        let deadline = Date().addingTimeInterval(wait)
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 8192)
        while Date() < deadline {
            let n = recv(fd, &chunk, chunk.count, 0)
            if n == 0 { break }
            if n < 0 {
                if errno == EAGAIN || errno == EINTR { continue }
                break
            }
            pending += chunk[0..<n]
            while let newline = pending.firstIndex(of: 10) {
                let line = Array(pending[..<newline])
                pending.removeSubrange(...newline)
                guard let report = try? JSONValue.parse(line) else { continue }
                switch report["class"]?.stringValue {
                case "VERSION": probe.release = report["release"]?.stringValue ?? "?"
                case "TPV":
                    let mode = Int(report["mode"]?.doubleValue ?? 0)
                    probe.mode = max(probe.mode ?? 0, mode)
                    if mode >= 2, let time = report["time"]?.stringValue.flatMap(ISO8601.parse) {
                        probe.fixTime = time
                        probe.receivedAt = GPSTime(nanoseconds: WallClock.nanoseconds())
                        return probe
                    }
                default: break
                }
            }
        }
        if probe.release == nil { probe.failure = "no answer from gpsd within \(Int(wait)) s" }
        return probe
    }

    private struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private static func connect(_ address: HostPort, timeout: Double) throws -> Int32 {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(address.host, address.port, &hints, &list)
        guard rc == 0, let first = list else {
            throw Failure(description: "cannot resolve \(address): \(String(cString: gai_strerror(rc)))")
        }
        defer { freeaddrinfo(list) }
        var lastError = ECONNREFUSED
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let a = entry {
            entry = a.pointee.ai_next
            let fd = socket(a.pointee.ai_family, a.pointee.ai_socktype, a.pointee.ai_protocol)
            guard fd >= 0 else { continue }
            // Linux applies SO_SNDTIMEO to connect(2), SO_RCVTIMEO to each recv(2).
            var limit = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1e6))
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            var read = timeval(tv_sec: 0, tv_usec: 250_000)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &read, socklen_t(MemoryLayout<timeval>.size))
            if Glibc.connect(fd, a.pointee.ai_addr, a.pointee.ai_addrlen) == 0 { return fd }
            lastError = errno
            close(fd)
        }
        throw Failure(description: String(cString: strerror(lastError)).lowercased())
    }
}
