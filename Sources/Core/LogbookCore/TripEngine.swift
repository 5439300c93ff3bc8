// SPDX-License-Identifier: MIT
/// Where the ``TripEngine`` is.
public enum TripPhase: String, Sendable, Hashable, Codable {
    /// No trip open.
    case idle
    /// A trip is open and nothing is about to end it.
    case recording
    /// A trip is open but ending: a power-off grace or a motion stop is running out. Points
    /// are still recorded; the trip continues if the source returns or the vehicle drives on.
    case closing
}

/// The pure trip state machine: events in, decisions out. No I/O, no clock of its own.
///
/// Feed it every event with the monotonic instant it happened (``handle(_:at:)``); timers
/// fire on whichever event comes next, so the daemon also sends ``TripEvent/tick`` (e.g.
/// every second, or at ``nextDeadline``). Fixes are raw: the engine runs its own
/// ``FixFilter`` (so filtering and trip logic can never disagree about which fixes count),
/// whose ``filterCounters`` give the live state's `gps.fixes`/`gps.rejected`. The engine
/// assigns no trip ids (the journal does) and never drops an ended trip: a too-short one is
/// ended with `discarded: true`.
///
/// ## Precedence of sources
/// 1. **Manual** (``TripCommand``, or a `manual` signal) beats everything. A manual start opens
///    a trip (or takes over the open one) that only a manual stop, shutdown or a data gap
///    ends — no power-off, motion stop or other vehicle's source. A manual stop ends the trip
///    at once and holds off automatic starts until a manual start, a connection source
///    switching on anew (an off→on edge; a source that stayed on does not count), or — in
///    motion mode — the vehicle having been parked (motion-stop rule) while held.
/// 2. **Connection sources** (power, gpio, bluetooth, device, service) beat motion. An on
///    edge starts a trip at once with the source's vehicle and reason. While any source
///    compatible with the trip's vehicle is on, motion never ends the trip. When the last one
///    goes off, the trip is ``TripPhase/closing`` for ``TripEngineConfiguration/powerOffGrace``
///    and then ends with that source's reason, effective at the off instant; any compatible
///    source coming back on cancels the grace (flapping does not split). A trip started by
///    motion is adopted by a source switching on (``TripDecision/adopted(vehicle:reason:)``,
///    vehicle set if it had none); from then on it ends like a source-started trip.
/// 3. **Another vehicle**: a source of a different vehicle (both ids known and unequal)
///    switching on while a non-manual trip is open ends that trip (with the pending reason and
///    instant if it was closing, else the new source's reason, now) and starts one for the
///    new vehicle. The other vehicle's sources stay on record but no longer hold anything.
/// 4. **Motion** (only with ``TripEngineConfiguration/motionEnabled``) starts trips only when
///    idle and not held, and ends only trips no source holds. A `motion` signal switching on
///    starts a trip at once like a source; switching off is ignored (fixes decide the stop).
///    Short-stop merge applies to motion stops only: a power source going off is an explicit
///    "parked", so such trips end after the grace (raise the grace to bridge longer
///    ignition-off stops).
/// 5. **Shutdown** ends any trip at once: with the pending reason and instant if it was
///    closing, else reason `shutdown`. **Gap**: an open trip with no accepted fix and no
///    signal for ``TripEngineConfiguration/maxNoDataDuration`` ends with reason `gap`,
///    effective at its last data; if a compatible source is still on, the next accepted fix
///    starts a new trip with that source's reason.
///
/// ## Figures
/// Distance is the sum of geodesic steps between the trip's moving fixes (parked jitter and
/// the step onto its first fix excluded; steps across gaps longer than
/// ``TripEngineConfiguration/maxBridgedGap`` excluded). Duration is monotonic, from the start
/// to now, or to the effective end; average speed is distance over that total duration.
/// A trip ending with < 50 m and < 60 s (configurable) is ended with `discarded: true`.
public struct TripEngine: Sendable {
    /// The thresholds in force (changed live by ``reconfigure(_:)``).
    public private(set) var configuration: TripEngineConfiguration
    /// The engine's fix filter (its counters feed the live state).
    public internal(set) var filter: FixFilter
    /// The figures of the last ended trip (`last_trip`), if any.
    public internal(set) var lastTrip: TripSnapshot?
    /// When the last trip's end was decided (the daemon shows ``lastTrip`` for 60 s after).
    public internal(set) var lastTripEndedAt: MonotonicInstant?

    var trip: OpenTrip?
    /// Connection sources currently on, with their resolved vehicle.
    var activeSources: [SourceKey: String?] = [:]
    var manualHold = false
    /// While held and idle: where the vehicle has stood still since when (clears the hold).
    var holdAnchor: StopAnchor?
    var candidate: MotionCandidate?
    /// After a `gap` end with a source still on: start again on the next fix.
    var restartPending: (reason: TripReason, vehicle: String?)?
    /// The latest accepted fix and when it arrived.
    var lastFix: Fix?
    var lastFixInstant: MonotonicInstant?
    /// The instant of the event being handled.
    var currentInstant = MonotonicInstant.zero
    /// The journal's previous trip while a restart may still continue it.
    var reopenCandidate: ReopenCandidate?
    /// A start withheld until its first fix says whether it continues ``reopenCandidate``.
    var pendingStart: TripStartInfo?

    /// Creates an idle engine.
    public init(configuration: TripEngineConfiguration = TripEngineConfiguration()) {
        self.configuration = configuration
        self.filter = FixFilter(configuration: configuration.filter)
    }

    /// Puts new thresholds in force without touching the open trip, its figures or the
    /// sources on record (a config reload on SIGHUP): timers already running keep their
    /// deadlines; the next ones use the new values.
    public mutating func reconfigure(_ configuration: TripEngineConfiguration) {
        self.configuration = configuration
        filter.configuration = configuration.filter
        if !configuration.motionEnabled { candidate = nil }
    }

    /// The fix filter's counters.
    public var filterCounters: FixFilterCounters { filter.counters }

    /// The synchronised system clock read at `instant`, or nil when it is not (or no longer)
    /// to be trusted: fixes are then judged by the last accepted one
    /// (``FixFilterConfiguration/maxTimeAhead``).
    public mutating func trustSystemClock(_ time: GPSTime?, at instant: MonotonicInstant) {
        if let time { filter.trustSystemClock(time, at: instant) } else { filter.forgetSystemClock() }
    }

    /// Where the engine is.
    public var phase: TripPhase {
        guard let trip else { return .idle }
        return trip.closing == nil ? .recording : .closing
    }

    /// Handles one event that happened at `now` and returns what to do, in order.
    public mutating func handle(_ event: TripEvent, at now: MonotonicInstant) -> [TripDecision] {
        var out: [TripDecision] = []
        currentInstant = max(currentInstant, now)
        fireTimers(now, &out)
        switch event {
        case .fix(let fix): handleFix(fix, now, &out)
        case .signal(let signal): handleSignal(signal, now, &out)
        case .command(let command): handleCommand(command, now, &out)
        case .tick: break
        }
        return out
    }

    /// The open trip's figures at `now` (`trip` in the live state), or nil when idle.
    public func snapshot(at now: MonotonicInstant) -> TripSnapshot? {
        guard let trip else { return nil }
        return trip.snapshot(until: now, active: true)
    }

    /// The earliest instant at which a timer may fire; a tick then is enough to act on it.
    public var nextDeadline: MonotonicInstant? {
        guard let trip else { return nil }
        var deadlines = [trip.lastData.advanced(bySeconds: configuration.maxNoDataDuration)]
        if pendingStart != nil, let candidate = reopenCandidate { deadlines.append(candidate.expires) }
        switch trip.closing {
        case .powerOff(_, _, let deadline, _)?: deadlines.append(deadline)
        case .parked(_, let deadline)?: deadlines.append(deadline)
        case nil:
            if let anchor = trip.stopAnchor, motionCanStop(trip) {
                deadlines.append(anchor.instant.advanced(bySeconds: configuration.motionStopDuration))
            }
        }
        return deadlines.min()
    }

    // MARK: - Timers

    mutating func fireTimers(_ now: MonotonicInstant, _ out: inout [TripDecision]) {
        if let candidate = reopenCandidate, now >= candidate.expires { flushPendingStart(&out) }
        guard let trip else { return }
        let c = configuration
        switch trip.closing {
        case .powerOff(let reason, let since, let deadline, let endTime)?:
            if now >= deadline { endTrip(reason, effectiveEnd: since, endTime: endTime, &out) }
            return
        case .parked(let anchor, let deadline)?:
            if now >= deadline { endTrip(.motion, effectiveEnd: anchor.instant, endTime: anchor.fix.time, &out) }
            return
        case nil:
            break
        }
        if now.seconds(since: trip.lastData) >= c.maxNoDataDuration {
            let vehicle = trip.vehicle
            endTrip(.gap, effectiveEnd: trip.lastData, endTime: trip.stats.lastFixTime, &out)
            // Deterministic pick when several sources are still on: the smallest reason string.
            let stillOn = activeSources.filter { compatible($0.value, vehicle) }
            if let source = stillOn.min(by: { $0.key.reason.rawValue < $1.key.reason.rawValue }) {
                restartPending = (source.key.reason, source.value ?? vehicle)
            }
            return
        }
        checkMotionStop(now, &out)
    }

    // MARK: - Start and end

    mutating func startTrip(
        _ reason: TripReason, vehicle: String?, at startedAt: MonotonicInstant, gpsTime: GPSTime?,
        manual: Bool, held: Bool, _ out: inout [TripDecision]
    ) {
        candidate = nil
        restartPending = nil
        holdAnchor = nil
        trip = OpenTrip(
            vehicle: vehicle, startReason: reason,
            stats: TripStats(startInstant: startedAt, startTime: gpsTime),
            manual: manual, heldBySources: held, lastData: startedAt)
        let info = TripStartInfo(vehicle: vehicle, reason: reason, gpsTime: gpsTime, startedAt: startedAt)
        if let candidate = reopenCandidate, !manual, compatible(vehicle, candidate.trip.vehicle) {
            // The first fix decides whether this continues the previous trip (TripEngine+Reopen).
            pendingStart = info
        } else {
            reopenCandidate = nil
            out.append(.start(info))
        }
    }

    /// Starts a trip on a signal or command at `now`, seeded with the latest fix if fresh.
    mutating func startNow(
        _ reason: TripReason, vehicle: String?, manual: Bool, held: Bool, _ now: MonotonicInstant,
        _ out: inout [TripDecision]
    ) {
        var fresh: Fix?
        if let fix = lastFix, let at = lastFixInstant,
            now.seconds(since: at) <= configuration.maxStartFixAge
        {
            fresh = fix
        }
        startTrip(reason, vehicle: vehicle, at: now, gpsTime: fresh?.time, manual: manual, held: held, &out)
        if let fresh, let at = lastFixInstant { recordTripFix(fresh, moved: true, step: 0, at, &out) }
        trip?.lastData = now
    }

    mutating func endTrip(
        _ reason: TripReason, effectiveEnd: MonotonicInstant, endTime: GPSTime?,
        _ out: inout [TripDecision]
    ) {
        guard let open = trip else { return }
        flushPendingStart(&out)
        var summary = open.snapshot(until: max(effectiveEnd, open.stats.startInstant), active: false)
        summary.endReason = reason
        summary.endedAt = endTime ?? open.stats.lastFixTime
        summary.discarded = summary.distanceMeters < configuration.discardMaxDistance
            && summary.durationSeconds < configuration.discardMaxDuration
        out.append(.end(TripEndInfo(reason: reason, summary: summary, discarded: summary.discarded)))
        lastTrip = summary
        lastTripEndedAt = currentInstant
        trip = nil
        candidate = nil
    }

    // MARK: - Helpers

    /// Whether a source's vehicle may hold or adopt a trip of `tripVehicle`.
    func compatible(_ sourceVehicle: String?, _ tripVehicle: String?) -> Bool {
        guard let sourceVehicle, let tripVehicle else { return true }
        return sourceVehicle == tripVehicle
    }

    /// Whether motion may end this trip: not manual, and no source holds it.
    func motionCanStop(_ trip: OpenTrip) -> Bool { !trip.manual && !trip.heldBySources }
}
