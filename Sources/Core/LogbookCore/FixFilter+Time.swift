// SPDX-License-Identifier: MIT
/// A GPS time known to hold at a monotonic instant: what a new fix's time is judged by.
struct TimeReference: Sendable, Hashable {
    var time: GPSTime
    var instant: MonotonicInstant

    /// The time now, carried forward from the reference by the monotonic clock.
    func projected(to now: MonotonicInstant) -> GPSTime {
        let elapsed = now >= instant ? Int64(clamping: now.nanoseconds - instant.nanoseconds) : 0
        return GPSTime(nanoseconds: time.nanoseconds &+ elapsed)
    }
}

// Fixes dated in the future, and values no receiver reports.
extension FixFilter {
    /// The synchronised system clock read at `instant` (the daemon calls this while the kernel
    /// reports the clock synchronised): from then on it, not the last fix, is the trusted time,
    /// so even the first fix after a start is judged.
    public mutating func trustSystemClock(_ time: GPSTime, at instant: MonotonicInstant) {
        clockReference = TimeReference(time: time, instant: instant)
    }

    /// Forgets the system clock (it is no longer synchronised, or trust in it was turned off).
    public mutating func forgetSystemClock() { clockReference = nil }

    /// The time fixes are judged by at `now`, if there is one.
    public func trustedTime(at now: MonotonicInstant) -> GPSTime? {
        (clockReference ?? fixReference)?.projected(to: now)
    }

    /// An accepted fix becomes the reference (when the caller gave the instant).
    mutating func trust(_ fix: Fix) {
        futureRun = nil
        if let instant { fixReference = TimeReference(time: fix.time, instant: instant) }
    }

    /// Refuses a fix more than ``FixFilterConfiguration/maxTimeAhead`` ahead of the trusted
    /// time (nil: not ahead). Without a synchronised clock, a run of future fixes that agree
    /// with each other resyncs instead: then the reference was the outlier.
    mutating func checkTimeAhead(_ fix: Fix, _ now: MonotonicInstant) -> FixFilterResult? {
        let margin = configuration.maxTimeAhead
        guard margin > 0, let trusted = trustedTime(at: now), fix.time.seconds(since: trusted) > margin else {
            futureRun = nil
            return nil
        }
        let offset = fix.time.nanoseconds &- Int64(clamping: now.nanoseconds)
        if let run = futureRun, abs(Double(offset &- run.offset)) / 1e9 <= margin {
            futureRun = (offset, run.count + 1)
        } else {
            futureRun = (offset, 1)
        }
        let needed = configuration.resyncAfterAgreeingFutureFixes
        if clockReference == nil, needed > 0, let run = futureRun, run.count >= needed {
            counters.resyncs += 1
            return acceptFirst(fix)
        }
        return reject(.futureTime)
    }

    /// Course within 0…360° and speed not negative, when reported (gpsd reports NaN, read as
    /// nil, for a value it does not have; anything else out of range is a broken or hostile
    /// source, and its position is not trusted either).
    static func hasValidMotion(_ fix: Fix) -> Bool {
        if let track = fix.track, !(track >= 0 && track <= 360) { return false }
        if let speed = fix.speed, !(speed >= 0 && speed.isFinite) { return false }
        return true
    }
}
