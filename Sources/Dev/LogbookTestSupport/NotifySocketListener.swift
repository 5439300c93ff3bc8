// SPDX-License-Identifier: MIT
import Foundation

/// A `NOTIFY_SOCKET` datagram socket like systemd's: a thread drains it at once, as the
/// service manager does, and keeps every message.
public final class NotifySocketListener: @unchecked Sendable {
    // @unchecked: `received` and `open` are only touched under `lock`.
    public let path: String
    private let fd: Int32
    private let lock = NSLock()
    private var received: [String] = []
    private var open = true

    public init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in bytes.enumerated() where i < raw.count - 1 { raw[i] = b }
        }
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard rc == 0 else { Glibc.close(fd); throw POSIXError(.EADDRINUSE) }
        var tv = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        let thread = Thread { [self] in drain() }
        thread.start()
    }

    private func drain() {
        var buf = [UInt8](repeating: 0, count: 4096)
        while lock.withLock({ open }) {
            let n = recv(fd, &buf, buf.count, 0)
            if n > 0 {
                let text = String(decoding: buf[0..<n], as: UTF8.self)
                lock.withLock { received.append(text) }
            }
        }
        Glibc.close(fd)
    }

    deinit { unlink(path) }


    /// Stops the drain thread (it closes the socket).
    public func stop() { lock.withLock { open = false } }

    /// Every message received so far, one per datagram.
    public func messages() -> [String] { lock.withLock { received } }

    /// Waits until a message containing `text` arrives; returns whether it did. The default
    /// bound is wide: a debug daemon starting on 2 cores under a load of 9 (the suites beside
    /// it, builds) took over 10 s to READY=1; it takes 0.3 s on its own.
    public func waitFor(_ text: String, timeout: Duration = .seconds(30)) async -> Bool {
        var deadline = TestDeadline(timeout)
        while !deadline.passed {
            if messages().contains(where: { $0.contains(text) }) { return true }
            await deadline.sleep(for: .milliseconds(20))
        }
        return false
    }
}
