// SPDX-License-Identifier: MIT
// Fixes: filtering, points, gaps, figures, motion start and stop.
extension TripEngine {
    mutating func handleFix(_ raw: Fix, _ now: MonotonicInstant, _ out: inout [TripDecision]) {
        guard case .accepted(let fix, let moved) = filter.filter(raw, at: now) else { return }
        let step = filter.lastStep
        let previousInstant = lastFixInstant
        lastFix = fix
        lastFixInstant = now

        if trip != nil {
            recordTripFix(fix, moved: moved, step: step, now, &out)
            trackMotionStop(fix, moved: moved, now, &out)
            // A held stop resumed too far away ended the trip: this fix may begin the next.
            if trip != nil || !configuration.motionEnabled || manualHold { return }
        }
        if let pending = restartPending {
            startTrip(pending.reason, vehicle: pending.vehicle, at: now, gpsTime: fix.time, manual: false, held: true, &out)
            recordTripFix(fix, moved: moved, step: 0, now, &out)
            return
        }
        guard configuration.motionEnabled else { return }
        if manualHold {
            trackHoldRelease(fix, now)
            return
        }
        trackMotionStart(PendingFix(fix: fix, moved: moved, step: step, instant: now), previousInstant, &out)
    }

    /// Adds an accepted fix to the open trip: gap, figures, point.
    mutating func recordTripFix(
        _ fix: Fix, moved: Bool, step: Double, _ now: MonotonicInstant, _ out: inout [TripDecision]
    ) {
        resolvePendingStart(fix, now, &out)
        guard var open = trip else { return }
        let c = configuration
        var countedStep = open.lastFixInstant == nil || !moved ? 0 : step
        if let previous = open.lastFixInstant, let from = open.stats.lastFixTime {
            let seconds = now.seconds(since: previous)
            if seconds >= c.minReportedGap {
                let bridged = seconds <= c.maxBridgedGap
                if !bridged { countedStep = 0 }
                out.append(.gap(TripGap(from: from, to: fix.time, seconds: seconds, bridged: bridged)))
            }
        }
        let point = TripPoint(fix)
        var edge: TripPoint?
        let zone = c.privacyZones.isEmpty ? nil : PrivacyZone.first(containingLatitude: fix.latitude, longitude: fix.longitude, in: c.privacyZones)
        if zone != nil || open.privacyZone != nil {
            (countedStep, edge) = crossPrivacyZone(&open, zone, point, countedStep, &out)
        }
        open.lastTripFix = point
        open.privacyZone = zone
        open.stats.add(fix, step: countedStep)
        open.lastFixInstant = now
        open.lastData = max(open.lastData, now)
        open.lastFixSlow = !moved || (fix.speed.map { $0 < c.motionStartSpeed } ?? false)
        if let edge {
            open.lastPoint = edge
            open.stats.points += 1
            out.append(.point(edge))
        }
        if zone == nil, shouldRecord(point, after: open.lastPoint) {
            open.lastPoint = point
            open.stats.points += 1
            out.append(.point(point))
        }
        trip = open
    }

    /// Privacy zones: inside one nothing is recorded and no distance counts; where the trip
    /// crosses the edge it records a point just outside it (``PrivacyZone/edgePoint(inside:outside:)``)
    /// and counts only the part of the step outside. Returns the step to count and the edge
    /// point to record (before the fix's own point when leaving, instead of it when entering).
    func crossPrivacyZone(
        _ open: inout OpenTrip, _ zone: PrivacyZone?, _ point: TripPoint, _ step: Double, _ out: inout [TripDecision]
    ) -> (Double, TripPoint?) {
        switch (open.privacyZone, zone) {
        case (nil, let entered?):
            guard let previous = open.lastTripFix else { return (0, nil) }  // the trip began inside
            let edge = entered.edgePoint(inside: point, outside: previous)
            out.append(.privacyZone(PrivacyZoneCrossing(zone: entered.name, entered: true, time: edge.time)))
            return (step > 0 ? Geodesy.distance(previous, edge) : 0, edge)
        case (let left?, nil):
            guard let previous = open.lastTripFix else { return (step, nil) }
            let edge = left.edgePoint(inside: previous, outside: point)
            out.append(.privacyZone(PrivacyZoneCrossing(zone: left.name, entered: false, time: edge.time)))
            return (step > 0 ? Geodesy.distance(edge, point) : 0, edge)
        default:
            return (0, nil)  // inside (or from one zone straight into another)
        }
    }

    /// Decimation: at most one point per `minPointInterval` of GPS time (5 % slack for
    /// receivers whose epochs wobble) and, if set, only after `minPointDistance`.
    func shouldRecord(_ point: TripPoint, after last: TripPoint?) -> Bool {
        guard let last else { return true }
        let dt = point.time.seconds(since: last.time)
        // A negative dt means the filter resynced after a clock jump: record.
        if dt >= 0, dt < configuration.minPointInterval * 0.95 { return false }
        if configuration.minPointDistance > 0, Geodesy.distance(last, point) < configuration.minPointDistance {
            return false
        }
        return true
    }

    // MARK: - Motion stop

    /// Keeps the stop anchor of a motion-ended trip, and resumes or ends a held stop.
    mutating func trackMotionStop(_ fix: Fix, moved: Bool, _ now: MonotonicInstant, _ out: inout [TripDecision]) {
        guard var open = trip, motionCanStop(open) else { return }
        let c = configuration
        if case .parked(let anchor, _)? = open.closing {
            let d = Geodesy.distance(anchor.fix, fix)
            guard d > c.motionStopRadius else { return }
            if d <= c.shortStopMergeRadius {
                // Drove on within the merge window: the same trip continues.
                open.closing = nil
                open.stopAnchor = StopAnchor(fix: fix, instant: now)
                trip = open
            } else {
                endTrip(.motion, effectiveEnd: anchor.instant, endTime: anchor.fix.time, &out)
            }
            return
        }
        if let anchor = open.stopAnchor, Geodesy.distance(anchor.fix, fix) <= c.motionStopRadius {
            return
        }
        open.stopAnchor = StopAnchor(fix: fix, instant: now)
        trip = open
    }

    /// Ends (or, for the merge window, parks) a motion trip that has stood still long enough.
    /// The stop counts only if the vehicle was slow (or jitter) at its last fix, so losing
    /// the fix at speed (a tunnel) is a gap, not a stop.
    mutating func checkMotionStop(_ now: MonotonicInstant, _ out: inout [TripDecision]) {
        guard var open = trip, open.closing == nil, motionCanStop(open), let anchor = open.stopAnchor,
            now.seconds(since: anchor.instant) >= configuration.motionStopDuration
        else { return }
        guard open.lastFixSlow else { return }
        let hold = max(configuration.motionStopDuration, configuration.shortStopMergeDuration)
        let deadline = anchor.instant.advanced(bySeconds: hold)
        if now >= deadline {
            endTrip(.motion, effectiveEnd: anchor.instant, endTime: anchor.fix.time, &out)
        } else {
            open.closing = .parked(anchor: anchor, deadline: deadline)
            trip = open
        }
    }

    // MARK: - Motion start

    /// Builds a candidate from fast fixes; starts a trip, back-dated to the candidate's first
    /// fix, once the speed was held for `motionStartDuration` and the displacement is reached.
    mutating func trackMotionStart(
        _ pending: PendingFix, _ previousInstant: MonotonicInstant?, _ out: inout [TripDecision]
    ) {
        let c = configuration
        let now = pending.instant
        var speed = pending.fix.speed.flatMap { $0.isFinite ? $0 : nil }
        if speed == nil, let previousInstant, now > previousInstant {
            speed = pending.step / now.seconds(since: previousInstant)
        }
        let fast = (speed ?? 0) >= c.motionStartSpeed
        if var cand = candidate {
            // A long gap or a long slow spell without confirmation: forget it.
            let stale = now.seconds(since: cand.lastFast) >= c.motionStopDuration
            let gapped = previousInstant.map { now.seconds(since: $0) > c.maxBridgedGap } ?? true
            if stale || gapped || cand.fixes.count >= 20_000 {
                candidate = nil
            } else {
                cand.fixes.append(pending)
                candidate = cand
            }
        }
        guard var cand = candidate ?? (fast ? MotionCandidate(fixes: [pending], lastFast: now) : nil) else {
            return
        }
        if fast {
            cand.lastFast = now
            let since = cand.fastSince ?? now
            cand.fastSince = since
            if now.seconds(since: since) >= c.motionStartDuration { cand.sustained = true }
        } else {
            cand.fastSince = nil
        }
        candidate = cand
        guard cand.sustained, let first = cand.first,
            Geodesy.distance(first.fix, pending.fix) >= c.motionStartDisplacement
        else { return }
        let fixes = cand.fixes
        startTrip(
            .motion, vehicle: c.motionVehicle ?? c.defaultVehicle, at: first.instant, gpsTime: first.fix.time, manual: false,
            held: false, &out)
        for p in fixes {
            recordTripFix(p.fix, moved: p.moved, step: p.step, p.instant, &out)
            trackMotionStop(p.fix, moved: p.moved, p.instant, &out)
        }
    }

    /// While a manual stop holds automatic starts off: lift the hold once the vehicle has
    /// stood within the stop radius for the stop duration (it was parked).
    mutating func trackHoldRelease(_ fix: Fix, _ now: MonotonicInstant) {
        guard let anchor = holdAnchor, Geodesy.distance(anchor.fix, fix) <= configuration.motionStopRadius else {
            holdAnchor = StopAnchor(fix: fix, instant: now)
            return
        }
        if now.seconds(since: anchor.instant) >= configuration.motionStopDuration {
            manualHold = false
            holdAnchor = nil
        }
    }
}
