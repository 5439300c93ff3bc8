// SPDX-License-Identifier: MIT
#if canImport(Glibc)
    internal import Glibc
#endif

/// How many connections the app accepts at once: `[web] max_connections`, but never so many
/// that accepting would run out of file descriptors (then every request would fail).
enum ConnectionCap {
    /// Descriptors kept for everything but connections: the index, journal segments, the
    /// control socket, the event-loop and Dispatch machinery.
    static let reserve = 128

    /// The process's soft `RLIMIT_NOFILE` (nil when unlimited or unknown).
    static var fileLimit: Int? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }
        return Int(clamping: limit.rlim_cur)
    }

    /// `configured`, lowered to fit under the file limit.
    static func effective(_ configured: Int) -> Int {
        guard let fileLimit else { return configured }
        return max(16, min(configured, fileLimit - reserve))
    }
}
