// SPDX-License-Identifier: MIT
public import LogbookCore

/// Cuts imported positions into trips with the daemon's own ``TripEngine`` (and its
/// ``FixFilter``), on a clock taken from the positions' times, so a history is cut the way a
/// recording would have been: motion starts and stops, short-stop merges, no-data gaps,
/// jitter and outliers, privacy zones, one point per second.
///
/// The engine is ticked at each of its deadlines that falls between two positions, as the
/// daemon's once-a-second tick would have, and at the end until its trip closes.
///
/// A Logbook export's own trips (``RecordedTripMark``) keep the boundaries they were
/// recorded with: each such trip is a connection source that is on from its first position
/// to its last (grace 0), so the engine records it as one trip — and a gap of more than
/// `end_after_no_data_s` inside it still splits it, as live. Their points passed the fix
/// filter when they were recorded; the accuracy gate is not applied again.
public struct ImportTripCutter {
    public private(set) var engine: TripEngine
    private var origin: GPSTime?
    private var lastInstant = MonotonicInstant(nanoseconds: 1_000_000_000)
    private var source: VehicleSignal?
    private var markNext: RecordedTripMark?
    private let vehicle: String?
    private var sawRecordedTrip = false

    /// A cutter with the `[trip]` thresholds in force and motion detection on; `vehicle` is
    /// the vehicle of every trip (`--vehicle`), else the one a recorded trip names.
    public init(configuration: TripEngineConfiguration, vehicle: String?) {
        var c = configuration
        c.motionEnabled = true
        c.defaultVehicle = vehicle
        engine = TripEngine(configuration: c)
        self.vehicle = vehicle
    }

    /// The clock instant of a position's time (1 s after the first position's).
    func instant(_ t: GPSTime) -> MonotonicInstant {
        guard let origin else { return lastInstant }
        let ns = t.nanoseconds - origin.nanoseconds
        return MonotonicInstant(nanoseconds: 1_000_000_000 &+ UInt64(max(0, ns)))
    }

    /// A recorded trip begins with the next position.
    public mutating func beginRecordedTrip(_ mark: RecordedTripMark) -> [TripDecision] {
        if !sawRecordedTrip {
            sawRecordedTrip = true
            var c = engine.configuration
            c.powerOffGrace = 0
            c.filter.maxHorizontalError = .infinity
            engine.reconfigure(c)
        }
        let out = endRecordedTrip()
        markNext = mark
        return out
    }

    /// Feeds one position (times strictly increasing).
    public mutating func feed(_ point: ImportPoint) -> [TripDecision] {
        if origin == nil { origin = point.time }
        let now = max(lastInstant, instant(point.time))
        var out = tick(until: now)
        lastInstant = now
        out += engine.handle(.fix(point.fix), at: now)
        if let mark = markNext {
            markNext = nil
            let signal = VehicleSignal(kind: .service, name: "import", vehicle: vehicle ?? mark.vehicle, isOn: true)
            source = signal
            out += engine.handle(.signal(signal), at: now)
        }
        return out
    }

    /// The end of the file: the open trip ends as the rules end it (motion stop, or the
    /// no-data gap at its last position).
    public mutating func finish() -> [TripDecision] {
        var out = endRecordedTrip()
        var guardCount = 0
        while engine.phase != .idle, let deadline = engine.nextDeadline, guardCount < 16 {
            let at = max(deadline, lastInstant)
            lastInstant = at
            out += engine.handle(.tick, at: at)
            guardCount += 1
        }
        if engine.phase != .idle { out += engine.handle(.command(.shutdown), at: lastInstant) }
        return out
    }

    private mutating func endRecordedTrip() -> [TripDecision] {
        guard var signal = source else { return [] }
        source = nil
        signal.isOn = false
        return engine.handle(.signal(signal), at: lastInstant)
    }

    /// Ticks at every deadline before `now`, as the daemon's periodic tick would.
    private mutating func tick(until now: MonotonicInstant) -> [TripDecision] {
        var out: [TripDecision] = []
        var guardCount = 0
        while let deadline = engine.nextDeadline, deadline < now, deadline >= lastInstant, guardCount < 16 {
            lastInstant = deadline
            out += engine.handle(.tick, at: deadline)
            guardCount += 1
        }
        return out
    }
}
