// SPDX-License-Identifier: MIT
// Cranking brown-out: a restart mid-drive continues the previous trip instead of splitting it.
extension TripEngine {
    /// Offers the journal's last trip, once, when the daemon starts. The next automatic start
    /// (a source, motion; not a manual start, not another vehicle) is then withheld until its
    /// first fix: if that fix is at most ``TripEngineConfiguration/reopenWithin`` of GPS time
    /// after `previous`'s last point and within ``TripEngineConfiguration/reopenRadius`` of it,
    /// the engine decides ``TripDecision/reopened(_:)`` (and a bridged `gap`) instead of
    /// ``TripDecision/start(_:)``, and the trip's figures continue from `previous`'s. By GPS
    /// time, because a Pi has no RTC: its clock is wrong until the first fix.
    ///
    /// The offer lapses `reopenWithin` after `now` on the monotonic clock (a later first fix
    /// is later by GPS time too), or at the first start that does not qualify; a withheld start
    /// is then made, dated when it was decided. Only `recovered` and `shutdown` ends qualify:
    /// a trip ended by its source, a person, motion or a gap was really over.
    public mutating func offerReopen(_ previous: PreviousTrip, at now: MonotonicInstant) {
        guard configuration.reopenWithin > 0, previous.endReason == .recovered || previous.endReason == .shutdown else {
            return
        }
        reopenCandidate = ReopenCandidate(trip: previous, expires: now.advanced(bySeconds: configuration.reopenWithin))
    }

    /// True while a start waits for its first fix to learn whether it continues the previous trip.
    public var isDecidingReopen: Bool { pendingStart != nil }

    /// Makes the withheld start (if any) and drops the offer.
    mutating func flushPendingStart(_ out: inout [TripDecision]) {
        if let info = pendingStart { out.append(.start(info)) }
        pendingStart = nil
        reopenCandidate = nil
    }

    /// The withheld start's first fix decides: continue the previous trip, or start a new one.
    mutating func resolvePendingStart(_ fix: Fix, _ now: MonotonicInstant, _ out: inout [TripDecision]) {
        guard pendingStart != nil else { return }
        guard let previous = reopenCandidate?.trip, var open = trip else { return flushPendingStart(&out) }
        let last = previous.lastPoint
        let gap = fix.time.seconds(since: last.time)
        let distance = Geodesy.distance(last, TripPoint(fix))
        guard gap >= 0, gap <= configuration.reopenWithin, distance <= configuration.reopenRadius else {
            return flushPendingStart(&out)
        }
        pendingStart = nil
        reopenCandidate = nil
        open.startReason = previous.startReason
        open.vehicle = previous.vehicle ?? open.vehicle
        var stats = TripStats(startInstant: now, startTime: previous.startTime ?? last.time)
        // The step across the gap counts, as across any bridged gap.
        stats.distance = previous.distance + distance
        stats.maxSpeed = previous.maxSpeed
        stats.points = previous.points
        stats.lastFixTime = last.time
        stats.priorDuration = previous.duration + gap
        open.stats = stats
        open.lastPoint = last
        open.lastTripFix = last
        open.lastFixInstant = nil
        open.lastData = now
        trip = open
        let bridge = TripGap(from: last.time, to: fix.time, seconds: gap, bridged: true)
        out.append(.reopened(TripReopenInfo(previous: previous, gap: bridge, resumedAt: now)))
        out.append(.gap(bridge))
    }
}

/// The previous trip while it may still be continued.
struct ReopenCandidate: Sendable, Hashable {
    var trip: PreviousTrip
    /// When the offer lapses (monotonic).
    var expires: MonotonicInstant
}
