// SPDX-License-Identifier: MIT
internal import LogbookCore
internal import LogbookGPSD
internal import LogbookJournal
internal import LogbookSettings
internal import LogbookSystemd
internal import Logging
internal import ServiceLifecycle
internal import Synchronization
internal import LogbookPOSIX

/// The daemon's main loop: gpsd events, vehicle signals, commands and ticks, in order,
/// through the trip engine into the journal and the live state.
///
/// It holds no locks across awaits and never waits on disk: journal appends are buffered
/// and committed by the journal's own thread.
struct PipelineService: Service {
    let events: AsyncStream<PipelineEvent>
    let state: DaemonState
    let notifier: SystemdNotifier
    let logger: Logger
    let configuration: Settings
    let journal: JournalWriter
    let vehicles: VehicleRegistry
    /// Named places, for arrival and departure events (``PlaceRecorder``).
    let places: PlaceRegistry
    let bootID: String
    let stall: StallSwitch
    /// Watchers on the control socket get every change at once (fix→watch latency).
    let updates: LiveUpdates
    /// Opened when the control socket listens: READY=1 waits for it.
    let startup: StartupGate
    /// SIGHUP: where a reload reads the new configuration and whom it tells.
    let reloadHooks: ReloadHooks
    /// The trip engine's clock starts at zero when the daemon starts (``now()``), so that
    /// `debug_clock_scale` speeds up only the daemon's own time.
    let clockOrigin = MonotonicClock.nanoseconds()
    /// The journal's last trip, which the first automatic start may continue.
    let previousTrip: PreviousTrip?
    /// Ticks only while a trip is open or its summary shown; live.json at once on a trip's
    /// start or end; dashboard.json after a trip's end.
    let ticks: TickDemand
    let live: LiveStatePublisher
    let dashboard: DashboardRefresher?

    func run() async {
        var running = configuration
        var recorder = TripRecorder(configuration: configuration, journal: journal, vehicles: vehicles, logger: logger, bootID: bootID)
        var obd = OBDRecorder(configuration: configuration, vehicles: vehicles, journal: journal, logger: logger)
        var arrivals = PlaceRecorder(registry: places, configuration: configuration, logger: logger)
        var status = StatusLine(notifier: notifier)
        status.set("waiting for gpsd at \(configuration.gpsd)")
        await startup.wait(upTo: .seconds(5))
        notifier.ready()
        logger.info("logbookd ready", metadata: ["gpsd": "\(configuration.gpsd)", "sources": "\(configuration.sources.map(\.kind.rawValue))"])
        if let previousTrip { recorder.offerReopen(previousTrip, at: now()) }
        // A `service` source: the trip spans the daemon's life.
        for source in configuration.sources where source.kind == .service {
            recorder.handle(.signal(source.signal(isOn: true)), at: now())
        }
        followSystemClock(&recorder, running)
        publish(recorder, obd)
        settle(recorder, tripBefore: nil, lastTripBefore: nil)
        for await event in events.cancelOnGracefulShutdown() {
            if stall.isOn { await stallForever() }
            state.pipelineTurned()
            let (tripBefore, lastTripBefore) = (recorder.current?.id, recorder.lastTrip?.id)
            var news = false
            switch event {
            case .gps(let batch):
                for e in batch { news = handle(e, &recorder, &arrivals) || news }
            case .signal(let signal):
                recorder.handle(.signal(signal), at: now())
                news = true
            case .obd(let source, let batch):
                obd.handle(source, batch, &recorder, obdContext())
            case .command(let command, let reply):
                let before = recorder.current?.id
                recorder.handle(.command(command), at: now())
                let after = recorder.current?.id
                let refused = command != .stop && after == nil ? "no trip could be started" : nil
                // The reply is built from the live state: publish first, so it shows the trip
                // just started or stopped (replying first raced the handler against publish).
                if obd.needsSync(recorder) { obd.sync(&recorder, obdContext()) }
                publish(recorder, obd)
                reply(CommandOutcome(tripID: after ?? before, error: refused))
                news = true
            case .prepareForShutdown(let done):
                recorder.handle(.command(.shutdown), at: now())
                if obd.needsSync(recorder) { obd.sync(&recorder, obdContext()) }
                publish(recorder, obd)
                // The trip's end must be on disk before logind may cut the power.
                do {
                    try await journal.sync()
                } catch {
                    logger.error("journal sync before shutdown failed", metadata: ["error": "\(error)"])
                }
                logger.info("system shutting down: trip closed and durable, releasing the inhibitor lock")
                done()
                news = true
            case .tick:
                followSystemClock(&recorder, running)
                recorder.handle(.tick, at: now())
                news = true
            case .reload:
                reload(&running, &recorder, at: now())
                arrivals.reconfigure(running)
                obd.reconfigure(running)
                news = true
            case .power(let reading):
                power(reading, &recorder)
                live.publishNow()
                news = true
            }
            // A trip started or ended by any source: the OBD values that go with it.
            if obd.needsSync(recorder) { obd.sync(&recorder, obdContext()) }
            publish(recorder, obd)
            settle(recorder, tripBefore: tripBefore, lastTripBefore: lastTripBefore)
            // Per-change documents only for watchers: building one per batch costs CPU.
            if updates.hasWatchers { updates.publish(state.nextPublication(at: wallClockNow()).json) }
            if news { status.set(Self.describe(state.snapshot, gpsd: configuration.gpsd)) }
        }
        recorder.handle(.command(.shutdown), at: now())
        if obd.needsSync(recorder) { obd.sync(&recorder, obdContext()) }
        state.update {
            $0.gps.connected = false
            $0.gps.mode = .notSeen
        }
        publish(recorder, obd)
        await recorder.hooks?.waitForRunningHooks(upTo: .seconds(min(configuration.hookTimeout, 5)))
        do {
            try await journal.close()
        } catch {
            logger.error("journal close failed", metadata: ["error": "\(error)"])
        }
        let c = recorder.engine.filterCounters
        logger.info(
            "pipeline stopped",
            metadata: [
                "fixes_accepted": "\(c.accepted)",
                "fixes_rejected": "\(c.rejectedByReason.map { "\($0.key.rawValue)=\($0.value)" }.sorted().joined(separator: ","))",
            ])
    }

    /// While the kernel reports the system clock synchronised, fixes are judged by it (a fix
    /// dated in the future is refused even as the first one after a start); a clock sample
    /// stays valid when synchronisation is lost later, carried by the monotonic clock.
    private func followSystemClock(_ recorder: inout TripRecorder, _ settings: Settings) {
        // A scaled debug clock (time-compressed tests) cannot be compared with the wall clock.
        guard settings.trustSystemClock, configuration.debugClockScale == 1 else {
            recorder.trustSystemClock(nil, at: now())
            return
        }
        if SystemClock.isSynchronised { recorder.trustSystemClock(wallClockNow(), at: now()) }
    }

    /// After an event: live.json at once when a trip started or ended, dashboard.json after
    /// an end, and ticks only while the engine has timers to run or a summary to expire.
    private func settle(_ recorder: TripRecorder, tripBefore: TripID?, lastTripBefore: TripID?) {
        if recorder.current?.id != tripBefore { live.publishNow() }
        if let ended = recorder.lastTrip?.id, ended != lastTripBefore { dashboard?.request() }
        ticks.set(recorder.engine.phase != .idle || recorder.lastTrip != nil)
    }

    private func now() -> MonotonicInstant {
        let ns = Double(MonotonicClock.nanoseconds() &- clockOrigin) * configuration.debugClockScale
        return MonotonicInstant(nanoseconds: UInt64(ns))
    }

    /// Returns true when the event is news for STATUS= (connection changes).
    private func handle(_ event: GPSDEvent, _ recorder: inout TripRecorder, _ arrivals: inout PlaceRecorder) -> Bool {
        switch event {
        case .connected:
            state.update { $0.gps.connected = true }
            return true
        case .disconnected:
            state.update {
                $0.gps.connected = false
                $0.gps.mode = .notSeen
            }
            return true
        case .invalidFix(let fix):
            // Refused and counted by the engine's filter (invalidTime, invalidCoordinate).
            recorder.handle(.fix(fix), at: now())
            return false
        case .noFix(let mode, let time):
            state.update {
                $0.gps.mode = mode
                if let time { $0.gps.time = time }
            }
            return false
        case .fix(let fix):
            let accepted = recorder.engine.filterCounters.accepted
            recorder.handle(.fix(fix), at: now())
            guard recorder.engine.filterCounters.accepted > accepted else { return false }
            let vehicle = recorder.current?.vehicle
            let arrived = arrivals.handle(fix, vehicle: vehicle, vehicleName: vehicles.vehicle(vehicle)?.name, recorder: &recorder, at: now())
            // Inside a privacy zone the live state names the zone instead of the position.
            let zones = recorder.engine.configuration.privacyZones
            let zone = zones.isEmpty ? nil : PrivacyZone.first(containingLatitude: fix.latitude, longitude: fix.longitude, in: zones)
            state.update { s in
                s.gps.mode = fix.mode
                s.gps.time = fix.time
                s.inPrivacyZone = zone?.name
                s.gps.latitude = zone == nil ? fix.latitude : nil
                s.gps.longitude = zone == nil ? fix.longitude : nil
                s.gps.speed = fix.speed
                s.gps.track = zone == nil ? fix.track : nil
                s.gps.eph = zone == nil ? fix.eph : nil
                if let n = fix.satellitesUsed { s.gps.satellitesUsed = n }
                s.place = arrivals.live
            }
            if arrived { live.publishNow() }
            return arrived
        }
    }

    /// What the OBD recorder needs to know of the moment: clocks and the latest position.
    private func obdContext() -> OBDContext {
        let gps = state.snapshot.gps
        return OBDContext(now: now(), wallClock: wallClockNow(), gpsTime: gps.time, latitude: gps.latitude, longitude: gps.longitude)
    }

    /// Copies the recorder's trip, the filter's counters and the OBD blocks into the shared live state.
    private func publish(_ recorder: TripRecorder, _ obd: OBDRecorder) {
        let t = now()
        let trip = recorder.liveTrip(at: t)
        let counters = recorder.engine.filterCounters
        let j = journal.statistics
        let blocks = obd.blocks
        state.update {
            $0.obd = blocks
            $0.gps.fixes = counters.accepted
            $0.gps.rejected = counters.rejected
            $0.gps.rejectedByReason = counters.rejectedByReason
            $0.trip = trip
            $0.lastTrip = recorder.lastTrip
            $0.journal.status = j.lastError == nil ? "ok" : j.diskFull ? "disk full" : "error"
            $0.journal.pendingRecords = j.pendingRecords
            $0.journal.pendingBytes = j.pendingBytes
            $0.journal.bufferBytes = configuration.diskFullBufferBytes
            $0.journal.droppedPoints = j.droppedPoints
            $0.journal.error = j.lastError
            $0.journal.durableSequence = j.durableSequence
            $0.journal.bytesWritten = j.bytesWritten
            $0.journal.syncs = j.syncs
        }
    }

    /// What `systemctl status` should say: the state, then the journal's and the supply's
    /// trouble if any.
    static func describe(_ live: LiveState, gpsd: HostPort) -> String {
        var text = describeRecording(live, gpsd: gpsd)
        if let p = live.journal.problem { text += " — \(p)" }
        if let p = live.power.problem { text += " — \(p)" }
        return text
    }

    /// The Pi's flags changed: `pi:CONDITION` signal records for what started or stopped
    /// (a dip between two readings as an on/off pair), the live state's `power` block.
    private func power(_ reading: PowerReading, _ recorder: inout TripRecorder) {
        let previous = state.snapshot.power.flags
        switch reading {
        case .unavailable:
            state.update { $0.power = LiveState.PowerBlock() }
        case .flags(let flags, _):
            for (condition, on) in ThrottledFlags.changes(from: previous, to: flags) {
                recorder.recordDeviceSignal("pi:\(condition.rawValue)", on: on, at: now())
                if on {
                    logger.warning("Raspberry Pi: \(condition.rawValue)", metadata: ["throttled_flags": "\(flags.hex)"])
                } else {
                    logger.notice("Raspberry Pi: \(condition.rawValue) ended", metadata: ["throttled_flags": "\(flags.hex)"])
                }
            }
            state.update {
                $0.power.flags = flags
                $0.power.status = flags.now.first?.rawValue ?? "ok"
            }
        }
    }

    private static func describeRecording(_ live: LiveState, gpsd: HostPort) -> String {
        if let trip = live.trip {
            var s = "recording trip \(trip.id) — \(formatKilometres(trip.distanceMeters)) km"
            if let v = trip.speed { s += ", \(Int((v * 3.6).rounded())) km/h" }
            if !live.gps.connected { s += " (gpsd not connected)" }
            return s
        }
        let gps = live.gps
        guard gps.connected else { return "waiting for gpsd at \(gpsd)" }
        switch gps.mode {
        case .twoD, .threeD:
            let sats = gps.satellitesUsed.map { ", \($0) satellites" } ?? ""
            return "\(gps.mode == .threeD ? "3D" : "2D") fix\(sats), idle"
        case .noFix, .notSeen:
            return "connected to gpsd, no fix"
        }
    }

    static func formatKilometres(_ metres: Double) -> String {
        let tenths = Int((metres / 100).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// Test hook (`LOGBOOKD_DEBUG_STALL_SIGNAL=1` + SIGUSR1): hang like a real deadlock would,
    /// so the watchdog stops and systemd restarts the service.
    private func stallForever() async {
        logger.warning("pipeline stalled on purpose (debug stall hook)")
        while true { try? await Task.sleep(for: .seconds(3600)) }
    }
}

/// Sends STATUS= only when the text changes.
struct StatusLine {
    let notifier: SystemdNotifier
    private var last = ""
    init(notifier: SystemdNotifier) { self.notifier = notifier }

    mutating func set(_ text: String) {
        guard text != last else { return }
        last = text
        notifier.status(text)
    }
}

/// Set by the debug stall hook.
final class StallSwitch: Sendable {
    private let flag = Atomic<Bool>(false)
    var isOn: Bool { flag.load(ordering: .relaxed) }
    func turnOn() { flag.store(true, ordering: .relaxed) }
}
