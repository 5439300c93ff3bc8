// SPDX-License-Identifier: MIT
internal import LogbookCore
internal import LogbookJournal
internal import LogbookSettings
internal import Logging

/// Carries out the trip engine's decisions: journal records, trip ids, the live trip block.
///
/// Lives inside the pipeline task; nothing here waits on disk (journal appends are buffered
/// and committed by the journal's own thread).
struct TripRecorder {
    private(set) var engine: TripEngine
    private let journal: JournalWriter
    /// Names the vehicles in the live state and the hooks' environment.
    private let vehicles: VehicleRegistry
    private var configuration: Settings
    private let logger: Logger
    private let bootID: String
    /// The open trip's id and vehicle.
    private(set) var current: (id: TripID, vehicle: String?)?
    /// The privacy zone the open trip began in, if any (the live state's `start_place`).
    private var startPlace: String?
    /// Whether the open trip has a point in the journal yet.
    private var recordedPoint = false
    /// The last ended trip, shown for 60 s.
    private(set) var lastTrip: LiveState.TripBlock?
    private var lastTripShownUntil = MonotonicInstant.zero
    private var lastFixTime: GPSTime?
    /// Appends that failed (disk full, I/O error): the live state and the log show them.
    private(set) var journalErrors = 0
    private var appendErrorLog = LogRateLimiter(interval: .seconds(60))
    private(set) var hooks: HookRunner?

    init(configuration: Settings, journal: JournalWriter, vehicles: VehicleRegistry, logger: Logger, bootID: String) {
        self.engine = TripEngine(configuration: configuration.trip)
        self.journal = journal
        self.vehicles = vehicles
        self.configuration = configuration
        self.logger = logger
        self.bootID = bootID
        hooks = Self.hookRunner(configuration, logger: logger)
    }

    /// A reload: new vehicles, thresholds and hooks; the open trip, its id and figures stay.
    /// Hooks already running finish under the runner that started them.
    mutating func reconfigure(_ new: Settings) {
        engine.reconfigure(new.trip)
        if HookRunner.commands(of: new) != HookRunner.commands(of: configuration) || new.hookTimeout != configuration.hookTimeout {
            hooks = Self.hookRunner(new, logger: logger)
        }
        configuration = new
    }

    private static func hookRunner(_ c: Settings, logger: Logger) -> HookRunner? {
        HookRunner.commands(of: c).map { HookRunner(commands: $0, timeout: c.hookTimeout, logger: logger) }
    }

    /// The synchronised system clock read at `now`, or nil to stop trusting it.
    mutating func trustSystemClock(_ time: GPSTime?, at now: MonotonicInstant) { engine.trustSystemClock(time, at: now) }
    /// Offers the journal's last trip for a reopen (a restart mid-drive; ``TripEngine/offerReopen(_:at:)``).
    mutating func offerReopen(_ previous: PreviousTrip, at now: MonotonicInstant) {
        engine.offerReopen(previous, at: now)
    }

    /// Feeds one event to the engine and records what it decides.
    mutating func handle(_ event: TripEvent, at now: MonotonicInstant) {
        if case .fix(let f) = event { lastFixTime = f.time }
        if case .signal(let s) = event {
            append(.signal(SignalEvent(
                source: "\(s.kind.rawValue):\(s.name)", vehicleID: s.vehicle, on: s.isOn, gpsTime: lastFixTime,
                monotonicNanoseconds: now.nanoseconds)))
        }
        for decision in engine.handle(event, at: now) { apply(decision, at: now) }
        if lastTrip != nil, now > lastTripShownUntil { lastTrip = nil }
    }

    private mutating func apply(_ decision: TripDecision, at now: MonotonicInstant) {
        switch decision {
        case .start(let info):
            let id = journal.nextTripID()
            current = (id, info.vehicle)
            startPlace = nil
            recordedPoint = false
            append(.tripStarted(TripStarted(
                id: id, vehicleID: info.vehicle, reason: info.reason.rawValue, gpsTime: info.gpsTime,
                monotonicNanoseconds: info.startedAt.nanoseconds, bootID: bootID)))
            logger.info("trip started", metadata: tripMetadata(id, ["reason": "\(info.reason.rawValue)", "vehicle": "\(info.vehicle ?? "-")"]))
            hooks?.run(event: "start", environment: hookEnvironment(id, vehicle: info.vehicle, [
                "LOGBOOK_TRIP_REASON": info.reason.rawValue,
                "LOGBOOK_TRIP_STARTED_AT": info.gpsTime?.description ?? "",
            ]))
        case .reopened(let info):
            reopen(info, at: now)
        case .point(let p):
            guard let id = current?.id else { return }
            recordedPoint = true
            append(.points(id, [p]))
        case .gap(let gap):
            guard let id = current?.id else { return }
            logger.info(
                gap.bridged ? "no-fix gap bridged" : "no-fix gap too long to bridge",
                metadata: tripMetadata(id, ["gap_s": "\(Int(gap.seconds))", "from": "\(gap.from)", "to": "\(gap.to)"]))
            // Recorded as a signal pair so the journal shows where the trip had no fix.
            append(.signal(SignalEvent(source: "gps:no-fix", vehicleID: current?.vehicle, on: true, gpsTime: gap.from, monotonicNanoseconds: now.nanoseconds)))
            append(.signal(SignalEvent(source: "gps:no-fix", vehicleID: current?.vehicle, on: false, gpsTime: gap.to, monotonicNanoseconds: now.nanoseconds)))
        case .adopted(let vehicle, let reason):
            guard let id = current?.id else { return }
            if let vehicle { current = (id, vehicle) }
            logger.info("trip adopted", metadata: tripMetadata(id, ["reason": "\(reason.rawValue)", "vehicle": "\(vehicle ?? "-")"]))
        case .privacyZone(let crossing):
            guard let id = current?.id else { return }
            // Left before any point was recorded: the trip began inside the zone.
            if !crossing.entered, !recordedPoint { startPlace = crossing.zone }
            // A signal record names the zone in the journal (no position: the edge point
            // that follows is outside it).
            append(.signal(SignalEvent(
                source: "privacy-zone:\(crossing.zone)", vehicleID: current?.vehicle, on: crossing.entered,
                gpsTime: crossing.time, monotonicNanoseconds: now.nanoseconds)))
            logger.info(
                crossing.entered ? "trip entered a privacy zone" : "trip left a privacy zone",
                metadata: tripMetadata(id, ["zone": "\(crossing.zone)"]))
        case .end(let info):
            guard let id = current?.id else { return }
            let s = info.summary
            append(.tripEnded(TripEnded(
                id: id, reason: info.reason.rawValue, gpsTime: s.endedAt,
                summary: TripSummary(
                    distance: s.distanceMeters, duration: s.durationSeconds, maxSpeed: s.maxSpeedMetersPerSecond,
                    averageSpeed: s.averageSpeedMetersPerSecond, pointCount: s.points),
                discarded: info.discarded, monotonicNanoseconds: now.nanoseconds)))
            logger.info(
                info.discarded ? "trip discarded (too short)" : "trip ended",
                metadata: tripMetadata(id, [
                    "reason": "\(info.reason.rawValue)", "distance_m": "\(Int(s.distanceMeters))",
                    "duration_s": "\(Int(s.durationSeconds))", "points": "\(s.points)",
                ]))
            hooks?.run(event: "end", environment: hookEnvironment(id, vehicle: current?.vehicle, [
                "LOGBOOK_TRIP_REASON": s.startReason.rawValue, "LOGBOOK_TRIP_END_REASON": info.reason.rawValue,
                "LOGBOOK_TRIP_STARTED_AT": s.startedAt?.description ?? "", "LOGBOOK_TRIP_ENDED_AT": s.endedAt?.description ?? "",
                "LOGBOOK_TRIP_DISTANCE_M": String(Int(s.distanceMeters.rounded())),
                "LOGBOOK_TRIP_DURATION_S": String(Int(s.durationSeconds.rounded())),
                "LOGBOOK_TRIP_POINTS": String(s.points), "LOGBOOK_TRIP_DISCARDED": info.discarded ? "1" : "0",
            ]))
            lastTrip = block(id: id, s, active: false)
            lastTripShownUntil = now.advanced(bySeconds: 60)
            current = nil
            startPlace = nil
        }
    }

    /// Records a change of the device itself (not a vehicle signal): e.g. `pi:under-voltage`.
    mutating func recordDeviceSignal(_ source: String, on: Bool, at now: MonotonicInstant) {
        append(.signal(SignalEvent(source: source, vehicleID: nil, on: on, gpsTime: lastFixTime, monotonicNanoseconds: now.nanoseconds)))
    }

    private mutating func reopen(_ info: TripReopenInfo, at now: MonotonicInstant) {
        let p = info.previous
        current = (p.id, p.vehicle)
        startPlace = nil
        recordedPoint = true
        append(.tripReopened(TripReopened(
            id: p.id, vehicleID: p.vehicle, startReason: p.startReason.rawValue, startTime: p.startTime,
            previousEndReason: p.endReason.rawValue, from: info.gap.from, gpsTime: info.gap.to,
            summary: TripSummary(
                distance: p.distance, duration: p.duration, maxSpeed: p.maxSpeed,
                averageSpeed: p.duration > 0 ? p.distance / p.duration : 0, pointCount: p.points),
            lastPoint: p.lastPoint, monotonicNanoseconds: now.nanoseconds, bootID: bootID)))
        logger.notice(
            "trip reopened: the daemon restarted mid-drive",
            metadata: tripMetadata(p.id, [
                "ended": "\(p.endReason.rawValue)", "gap_s": "\(Int(info.gap.seconds.rounded()))",
                "distance_m": "\(Int(p.distance))", "vehicle": "\(p.vehicle ?? "-")",
            ]))
        hooks?.run(event: "reopen", environment: hookEnvironment(p.id, vehicle: p.vehicle, [
            "LOGBOOK_TRIP_REASON": p.startReason.rawValue, "LOGBOOK_TRIP_STARTED_AT": p.startTime?.description ?? "",
        ]))
    }

    /// Appends `record`; a refusal (disk full, I/O error) is counted and logged, not thrown.
    mutating func append(_ record: JournalRecord) {
        do {
            try journal.append(record)
        } catch {
            journalErrors += 1
            // Once a minute at most: a full buffer refuses a point every second.
            if let held = appendErrorLog.admit() {
                logger.error("journal append refused", metadata: ["error": "\(error)", "suppressed": "\(held)"])
            }
        }
    }

    /// The open trip as the live state shows it.
    func liveTrip(at now: MonotonicInstant) -> LiveState.TripBlock? {
        guard let id = current?.id, let s = engine.snapshot(at: now) else { return nil }
        return block(id: id, s, active: true)
    }

    private func block(id: TripID, _ s: TripSnapshot, active: Bool) -> LiveState.TripBlock {
        let vehicleID = s.vehicle ?? current?.vehicle
        return LiveState.TripBlock(
            id: id, active: active,
            vehicle: vehicles.vehicle(vehicleID) ?? vehicleID.map { Vehicle(id: $0, name: $0) },
            startedAt: s.startedAt, startReason: s.startReason.rawValue, durationSeconds: s.durationSeconds,
            distanceMeters: s.distanceMeters, speed: s.speedMetersPerSecond, maxSpeed: s.maxSpeedMetersPerSecond,
            averageSpeed: s.averageSpeedMetersPerSecond, points: s.points, endedAt: s.endedAt,
            endReason: s.endReason?.rawValue, startPlace: startPlace)
    }

    private func hookEnvironment(_ id: TripID, vehicle: String?, _ extra: [String: String]) -> [String: String] {
        var env = extra
        env["LOGBOOK_TRIP_ID"] = id.description
        env["LOGBOOK_TRIP_VEHICLE"] = vehicle ?? ""
        env["LOGBOOK_TRIP_VEHICLE_NAME"] = vehicles.vehicle(vehicle)?.name ?? vehicle ?? ""
        return env
    }

    private func tripMetadata(_ id: TripID, _ extra: Logger.Metadata) -> Logger.Metadata {
        var m = extra
        m["trip.id"] = "\(id)"
        return m
    }
}
