// SPDX-License-Identifier: MIT
#if canImport(Glibc)
    internal import Glibc
#endif

/// Names the calling OS thread as `ps -L` and `top -H` show it (at most 15 bytes), through
/// `/proc/thread-self/comm`: prctl is variadic and pthread_setname_np not visible from Swift.
/// The daemon's own threads carry `logbook-…` names, so a wake-up count per thread tells them
/// apart from the Swift runtime's pool.
public func nameCurrentThread(_ name: String) {
    let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
    guard fd >= 0 else { return }
    defer { close(fd) }
    let bytes = Array(name.utf8.prefix(15))
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
}
