// SPDX-License-Identifier: MIT
// Signals and commands: the precedence rules documented on TripEngine.
extension TripEngine {
    mutating func handleSignal(_ signal: VehicleSignal, _ now: MonotonicInstant, _ out: inout [TripDecision]) {
        let vehicle = signal.vehicle ?? configuration.defaultVehicle
        switch signal.kind {
        case .manual:
            handleCommand(signal.isOn ? .start(vehicle: signal.vehicle) : .stop, now, &out)
        case .motion:
            // An IMU's "moving" starts a trip like a source; its "still" is only a hint.
            guard configuration.motionEnabled, signal.isOn, trip == nil, !manualHold else { return }
            startNow(.motion, vehicle: vehicle, manual: false, held: false, now, &out)
        case .power, .gpio, .bluetooth, .device, .service, .obd:
            if signal.isOn {
                sourceOn(SourceKey(kind: signal.kind, name: signal.name), vehicle: vehicle, now, &out)
            } else {
                sourceOff(SourceKey(kind: signal.kind, name: signal.name), now, &out)
            }
        }
    }

    mutating func handleCommand(_ command: TripCommand, _ now: MonotonicInstant, _ out: inout [TripDecision]) {
        switch command {
        case .start(let requested):
            let vehicle = requested ?? configuration.defaultVehicle
            manualHold = false
            holdAnchor = nil
            if var open = trip {
                // A person starting a trip wants it recorded now, not a restart's continuation.
                flushPendingStart(&out)
                if compatible(vehicle, open.vehicle) {
                    // Take the open trip over: from now on only a manual stop ends it.
                    open.manual = true
                    open.closing = nil
                    open.lastData = now
                    let adopt = open.vehicle == nil && vehicle != nil
                    if adopt { open.vehicle = vehicle }
                    trip = open
                    if adopt { out.append(.adopted(vehicle: vehicle, reason: .manual)) }
                    return
                }
                endTrip(.manual, effectiveEnd: now, endTime: lastFix?.time, &out)
            }
            startNow(.manual, vehicle: vehicle, manual: true, held: false, now, &out)
        case .stop:
            if trip != nil { endTrip(.manual, effectiveEnd: now, endTime: lastFix?.time, &out) }
            manualHold = true
            holdAnchor = nil
            candidate = nil
            restartPending = nil
        case .shutdown:
            if trip != nil { endTripOrPending(.shutdown, now, &out) }
            activeSources = [:]
            candidate = nil
            restartPending = nil
        }
    }

    private mutating func sourceOn(
        _ key: SourceKey, vehicle: String?, _ now: MonotonicInstant, _ out: inout [TripDecision]
    ) {
        let wasOn = activeSources[key] != nil
        activeSources[key] = .some(vehicle)
        if !wasOn {
            // A fresh off→on edge is a new decision to drive: it lifts a manual stop's hold.
            manualHold = false
            holdAnchor = nil
        }
        guard var open = trip else {
            if !manualHold { startNow(key.reason, vehicle: vehicle, manual: false, held: true, now, &out) }
            return
        }
        if open.manual {
            trip?.lastData = now
            return
        }
        guard compatible(vehicle, open.vehicle) else {
            // Another vehicle is being used: close this one's trip, open one for it.
            endTripOrPending(key.reason, now, &out)
            startNow(key.reason, vehicle: vehicle, manual: false, held: true, now, &out)
            return
        }
        open.lastData = now
        open.closing = nil
        let adopt = !open.heldBySources || (open.vehicle == nil && vehicle != nil)
        open.heldBySources = true
        if open.vehicle == nil, let vehicle { open.vehicle = vehicle }
        trip = open
        if adopt {
            flushPendingStart(&out)
            out.append(.adopted(vehicle: open.vehicle, reason: key.reason))
        }
    }

    private mutating func sourceOff(_ key: SourceKey, _ now: MonotonicInstant, _ out: inout [TripDecision]) {
        guard activeSources.removeValue(forKey: key) != nil else { return }
        guard var open = trip else { return }
        open.lastData = now
        trip = open
        guard !open.manual, open.heldBySources, open.closing == nil,
            !activeSources.values.contains(where: { compatible($0, open.vehicle) })
        else { return }
        open.closing = .powerOff(
            reason: key.reason, since: now, deadline: now.advanced(bySeconds: configuration.powerOffGrace),
            endTime: lastFix?.time)
        trip = open
        fireTimers(now, &out)  // a zero grace ends at once
    }

    /// Ends the open trip now with `reason` — or, if it was already closing, with the pending
    /// end's reason and instant (the power went off / the vehicle stopped before this).
    private mutating func endTripOrPending(_ reason: TripReason, _ now: MonotonicInstant, _ out: inout [TripDecision]) {
        switch trip?.closing {
        case .powerOff(let pending, let since, _, let endTime)?:
            endTrip(pending, effectiveEnd: since, endTime: endTime, &out)
        case .parked(let anchor, _)?:
            endTrip(.motion, effectiveEnd: anchor.instant, endTime: anchor.fix.time, &out)
        case nil:
            endTrip(reason, effectiveEnd: now, endTime: lastFix?.time, &out)
        }
    }
}
