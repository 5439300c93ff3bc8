// SPDX-License-Identifier: MIT
public import LogbookCore

/// Remembers the last few fix times so a repeated epoch is delivered once.
///
/// gpsd 3.22 sends some epochs twice, and recorded logs jump back in time; a window of
/// recent times (not only the last one) keeps a re-played epoch from being counted twice.
public struct FixDeduplicator: Sendable {
    private var recent: [Int64]
    private var members: Set<Int64> = []
    private var next = 0

    /// - Parameter capacity: how many recent fix times to remember.
    public init(capacity: Int = 256) {
        recent = []
        recent.reserveCapacity(capacity)
        self.capacity = capacity
    }

    private let capacity: Int

    /// Records `time`; returns false if it was seen within the window.
    public mutating func insert(_ time: GPSTime) -> Bool {
        let t = time.nanoseconds
        guard !members.contains(t) else { return false }
        if recent.count < capacity {
            recent.append(t)
        } else {
            members.remove(recent[next])
            recent[next] = t
            next = (next + 1) % capacity
        }
        members.insert(t)
        return true
    }
}
