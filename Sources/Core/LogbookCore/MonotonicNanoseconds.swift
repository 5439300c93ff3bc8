// SPDX-License-Identifier: MIT
private let processOrigin = ContinuousClock.now

/// Nanoseconds on the process's monotonic clock (never the wall clock).
///
/// Heartbeats and timers compare these values; they are meaningful only within one process.
public func monotonicNanoseconds() -> Int64 {
    let d = processOrigin.duration(to: .now).components
    return d.seconds * 1_000_000_000 + d.attoseconds / 1_000_000_000
}
