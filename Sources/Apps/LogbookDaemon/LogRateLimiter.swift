// SPDX-License-Identifier: MIT
internal import LogbookCore

/// At most one log line per interval for a warning a client can provoke at will (a flood of
/// connections refused for `too_many_clients` once wrote 936 lines a second); the lines held
/// back are counted and reported with the next one, or by ``flush(at:)`` once the interval
/// has passed, so the log still says how many there were.
struct LogRateLimiter {
    let interval: Int64
    private var lastLine: Int64?
    /// Occurrences not logged since the last line.
    private(set) var suppressed = 0

    /// - Parameter interval: the least time between two lines (default 1 s).
    init(interval: Duration = .seconds(1)) {
        let (s, a) = interval.components
        self.interval = s * 1_000_000_000 + a / 1_000_000_000
    }

    /// Records one occurrence at `now` (monotonic ns). Returns nil when it must not be logged,
    /// else how many were held back before it (0 for the first).
    mutating func admit(at now: Int64 = monotonicNanoseconds()) -> Int? {
        if let last = lastLine, now - last < interval {
            suppressed += 1
            return nil
        }
        lastLine = now
        defer { suppressed = 0 }
        return suppressed
    }

    /// The held-back count once the interval since the last line has passed (then logged as a
    /// summary line), else nil.
    mutating func flush(at now: Int64 = monotonicNanoseconds()) -> Int? {
        guard suppressed > 0, let last = lastLine, now - last >= interval else { return nil }
        lastLine = now
        defer { suppressed = 0 }
        return suppressed
    }

    /// Milliseconds until ``flush(at:)`` has something to say, or nil when nothing is held back.
    func millisecondsUntilFlush(at now: Int64 = monotonicNanoseconds()) -> Int32? {
        guard suppressed > 0, let last = lastLine else { return nil }
        return Int32(clamping: max(0, (last + interval - now + 999_999) / 1_000_000))
    }
}
