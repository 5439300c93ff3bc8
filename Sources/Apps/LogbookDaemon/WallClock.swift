// SPDX-License-Identifier: MIT
internal import LogbookCore
#if canImport(Glibc)
    internal import Glibc
#endif

/// The system's wall clock (may be wrong on a Pi until GPS or NTP sets it).
func wallClockNow() -> GPSTime {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    return GPSTime(seconds: Int64(ts.tv_sec), nanoseconds: Int64(ts.tv_nsec))
}

/// The kernel's boot id, recorded with each trip start (which boot a trip belongs to).
func readBootID() -> String {
    let fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return "unknown" }
    defer { close(fd) }
    var buf = [UInt8](repeating: 0, count: 64)
    let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    guard n > 0 else { return "unknown" }
    return String(decoding: buf[0..<n], as: UTF8.self).filter { $0 != "\n" }
}
