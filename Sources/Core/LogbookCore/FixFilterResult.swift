// SPDX-License-Identifier: MIT
/// Why the fix filter refused a fix.
public enum FixRejectReason: String, Sendable, Hashable, CaseIterable, Codable {
    /// The same fix time as the last accepted fix (gpsd sends several TPVs per epoch).
    case duplicate
    /// Older than the last accepted fix.
    case timeWentBackwards
    /// Mode below 2D (no fix, or not seen).
    case noFix
    /// A time at or before the Unix epoch (receivers report 0 before they know the time).
    case invalidTime
    /// Latitude or longitude not finite or out of range.
    case invalidCoordinate
    /// Exactly 0°/0°: a receiver reporting "no position" as zeros.
    case nullIsland
    /// Horizontal error estimate above the configured maximum.
    case poorAccuracy
    /// Implied (or reported) speed above the configured maximum: a position jump.
    case speedOutlier
}

/// What the fix filter decided about one fix.
public enum FixFilterResult: Sendable, Hashable {
    /// The fix is good. `moved` is false when the vehicle is parked and the fix lies within
    /// the jitter radius of the last moving position: it counts for status, not for distance.
    case accepted(Fix, moved: Bool)
    /// The fix was refused.
    case rejected(FixRejectReason)

    /// The accepted fix, if any.
    public var fix: Fix? {
        if case .accepted(let fix, _) = self { return fix }
        return nil
    }

    /// Whether the fix was accepted and counts as movement.
    public var moved: Bool {
        if case .accepted(_, let moved) = self { return moved }
        return false
    }
}

/// Running counts of what the fix filter has seen since it was created.
public struct FixFilterCounters: Sendable, Hashable {
    /// Fixes accepted (moving or jitter): the live state's `gps.fixes`.
    public var accepted = 0
    /// Accepted fixes flagged as parked jitter (`moved: false`), included in ``accepted``.
    public var jitter = 0
    /// Refusals per reason.
    public var rejectedByReason: [FixRejectReason: Int] = [:]
    /// Times the filter gave up its reference after a run of refusals and started afresh.
    public var resyncs = 0

    /// All refused fixes: the live state's `gps.rejected`.
    public var rejected: Int { rejectedByReason.values.reduce(0, +) }

    /// Refusals for one reason.
    public subscript(reason: FixRejectReason) -> Int { rejectedByReason[reason] ?? 0 }

    /// Creates empty counters.
    public init() {}
}
