// SPDX-License-Identifier: MIT
#if canImport(Glibc)
    package import Glibc
#endif

/// `poll(2)` over `fds`, retrying on EINTR; returns the number of ready descriptors or -errno.
package func pollRetrying(_ fds: inout [pollfd], timeoutMs: Int32) -> Int32 {
    while true {
        let n = fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), timeoutMs) }
        if n >= 0 { return n }
        if errno != EINTR { return -errno }
    }
}

/// Milliseconds in `duration`, at least 1 and at most a day (a `poll` timeout).
package func pollMilliseconds(_ duration: Duration) -> Int32 {
    let ms = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    return Int32(clamping: max(1, min(ms, 86_400_000)))
}
