// SPDX-License-Identifier: MIT
/// Thresholds of the ``FixFilter``. Defaults are documented in docs/reference/config.md (`[trip]`).
public struct FixFilterConfiguration: Sendable, Hashable, Codable {
    /// A fix whose horizontal error estimate (eph, 95 %) exceeds this, metres, is *poor*: it is
    /// kept only if it agrees with the motion (see ``poorFixGate``). Default 50.
    public var maxHorizontalError: Double = 50
    /// Keep a poor fix when it lies within this many metres of where the last accepted fix's
    /// velocity (and its own) says the vehicle should be, plus ``poorFixGateSpeedFraction`` of
    /// the distance driven since. City receivers report eph over 50 m for half their fixes
    /// (few satellites, bad geometry) while the positions still follow the road: dropping
    /// them cut corners and lost 7 % of a city trip. 0 refuses every poor fix. Default 10.
    public var poorFixGate: Double = 10
    /// See ``poorFixGate``. Default 0.5.
    public var poorFixGateSpeedFraction: Double = 0.5
    /// A poor fix more than this many seconds after the last accepted one cannot be checked
    /// against the motion and is refused. Default 5.
    public var poorFixMaxInterval: Double = 5
    /// Refuse a fix whose implied speed from the last accepted fix (or whose reported speed)
    /// exceeds this, m/s. Default 250 km/h.
    public var maxSpeed: Double = 250 / 3.6
    /// Below this speed (m/s) the vehicle counts as parked for the jitter rule. Default 1.
    public var parkedSpeed: Double = 1
    /// While parked, moves under `max(minJitterRadius, jitterErrorFactor × eph)` are jitter.
    public var minJitterRadius: Double = 10
    /// See ``minJitterRadius``. Default 2.
    public var jitterErrorFactor: Double = 2
    /// Refuse exactly 0°/0°. Default true.
    public var rejectNullIsland = true
    /// After this many consecutive refusals for backwards time or speed, accept the next
    /// such fix as a new reference: the receiver's clock really jumped, or the last accepted
    /// fix was the outlier. 0 never resyncs. Default 10.
    public var resyncAfterConsecutiveRejections = 10
    /// Refuse a fix dated more than this many seconds ahead of the trusted time (`futureTime`):
    /// the synchronised system clock when the daemon knows one, else the last accepted fix,
    /// each carried forward by the monotonic clock. One such fix must never become the
    /// reference that makes the genuine ones after it look backwards. 0 turns the check off.
    /// Default 300.
    public var maxTimeAhead: Double = 300
    /// Without a synchronised clock, this many consecutive future fixes that agree with each
    /// other (each within ``maxTimeAhead`` of the one before, measured against the monotonic
    /// clock) are taken as the receiver's time being right (a resync): the reference was the
    /// outlier (a first fix with a stale date). 0 never resyncs. Default 3.
    public var resyncAfterAgreeingFutureFixes = 3

    /// Creates the default configuration.
    public init() {}
}

/// A stateful, pure filter between the GPS source and the trip engine.
///
/// Order of checks: mode, time, coordinates, course and speed values, time ahead of the trusted
/// time (``FixFilterConfiguration/maxTimeAhead``), reported speed, then against the last accepted
/// fix: duplicate time, accuracy (a poor fix must agree with the motion), backwards time,
/// implied speed; finally the parked-jitter rule, which never refuses a fix but marks it
/// `moved: false` so it adds no distance. A poor fix is never the first fix or a resync
/// reference: with nothing to check it against, it is refused.
public struct FixFilter: Sendable {
    /// The thresholds in force.
    public var configuration: FixFilterConfiguration
    /// What the filter has counted so far.
    public internal(set) var counters = FixFilterCounters()
    /// The last accepted fix (moving or jitter).
    public private(set) var lastAccepted: Fix?
    /// The last fix accepted as movement: the reference for distance and jitter.
    public private(set) var anchor: Fix?
    /// Metres from the previous anchor to the last accepted fix if it moved; 0 for jitter, for
    /// the first fix and after a resync (a jump must not count as distance).
    public private(set) var lastStep: Double = 0

    private var consecutiveJumps = 0
    /// What new fixes' times are judged by (see ``FixFilterConfiguration/maxTimeAhead``).
    var clockReference: TimeReference?
    var fixReference: TimeReference?
    /// The run of consecutive future fixes: the last one's offset from the monotonic clock.
    var futureRun: (offset: Int64, count: Int)?
    /// The monotonic instant of the fix being judged (nil: the caller gave none).
    var instant: MonotonicInstant?

    /// Creates a filter with no history.
    public init(configuration: FixFilterConfiguration = FixFilterConfiguration()) {
        self.configuration = configuration
    }

    /// Judges one fix that arrived at monotonic instant `now`, and updates the filter's state
    /// and counters. Without `now` the fix's time is not checked against the trusted time.
    public mutating func filter(_ fix: Fix, at now: MonotonicInstant? = nil) -> FixFilterResult {
        let c = configuration
        instant = now
        guard fix.mode.rawValue >= FixMode.twoD.rawValue else { return reject(.noFix) }
        guard fix.time.nanoseconds > 0 else { return reject(.invalidTime) }
        guard fix.latitude.isFinite, fix.longitude.isFinite, abs(fix.latitude) <= 90,
            abs(fix.longitude) <= 180
        else { return reject(.invalidCoordinate) }
        if c.rejectNullIsland, fix.latitude == 0, fix.longitude == 0 { return reject(.nullIsland) }
        if !Self.hasValidMotion(fix) { return reject(.invalidMotion) }
        if let now, let refused = checkTimeAhead(fix, now) { return refused }
        let poor = fix.eph.map { $0.isFinite && $0 > c.maxHorizontalError } ?? false
        if let speed = fix.speed, speed.isFinite, speed > c.maxSpeed { return reject(.speedOutlier) }

        guard let last = lastAccepted else { return poor ? reject(.poorAccuracy) : acceptFirst(fix) }
        if fix.time == last.time { return reject(.duplicate) }
        // A poor fix only counts when it agrees with the motion; it never drives a resync.
        if poor, !agreesWithMotion(fix, after: last) { return reject(.poorAccuracy) }
        if fix.time < last.time { return jump(.timeWentBackwards, fix) }
        let dt = fix.time.seconds(since: last.time)
        // Allow the receiver's own noise (the jitter radius) before calling it a jump, so
        // 10 Hz receivers wobbling a few metres are not flagged.
        let d = Geodesy.distance(last, fix)
        if max(0, d - c.minJitterRadius) / dt > c.maxSpeed { return jump(.speedOutlier, fix) }
        consecutiveJumps = 0
        return accept(fix, impliedSpeed: d / dt)
    }

    /// Forgets the reference fixes (not the counters), e.g. after the GPS source reconnects.
    public mutating func resetReference() {
        lastAccepted = nil
        anchor = nil
        lastStep = 0
        consecutiveJumps = 0
    }

    mutating func reject(_ reason: FixRejectReason) -> FixFilterResult {
        counters.rejectedByReason[reason, default: 0] += 1
        return .rejected(reason)
    }

    /// Backwards time or an outlier: refuse, unless it keeps happening (then start afresh).
    private mutating func jump(_ reason: FixRejectReason, _ fix: Fix) -> FixFilterResult {
        consecutiveJumps += 1
        let limit = configuration.resyncAfterConsecutiveRejections
        guard limit > 0, consecutiveJumps > limit else { return reject(reason) }
        counters.resyncs += 1
        return acceptFirst(fix)
    }

    mutating func acceptFirst(_ fix: Fix) -> FixFilterResult {
        consecutiveJumps = 0
        trust(fix)
        lastAccepted = fix
        anchor = fix
        lastStep = 0
        counters.accepted += 1
        return .accepted(fix, moved: true)
    }

    private mutating func accept(_ fix: Fix, impliedSpeed: Double) -> FixFilterResult {
        let c = configuration
        trust(fix)
        lastAccepted = fix
        counters.accepted += 1
        guard let anchor else {
            self.anchor = fix
            lastStep = 0
            return .accepted(fix, moved: true)
        }
        let fromAnchor = Geodesy.distance(anchor, fix)
        let speed = fix.speed.flatMap { $0.isFinite ? $0 : nil } ?? impliedSpeed
        let radius = max(c.minJitterRadius, c.jitterErrorFactor * (fix.eph.flatMap { $0.isFinite ? $0 : nil } ?? 0))
        if speed < c.parkedSpeed, fromAnchor < radius {
            counters.jitter += 1
            lastStep = 0
            return .accepted(fix, moved: false)
        }
        self.anchor = fix
        lastStep = fromAnchor
        return .accepted(fix, moved: true)
    }
}
