// SPDX-License-Identifier: MIT
/// Every threshold of the ``TripEngine``. Defaults are documented in docs/trips.md and docs/reference/config.md (`[trip]`).
/// Durations are seconds, distances metres, speeds m/s.
public struct TripEngineConfiguration: Sendable, Hashable, Codable {
    /// The fix filter's thresholds.
    public var filter = FixFilterConfiguration()
    /// Vehicle for sources that name none, for motion starts without ``motionVehicle`` and
    /// for `trip start` without a vehicle. Default nil.
    public var defaultVehicle: String?
    /// The vehicle a `motion` source names: its trips are that vehicle's, like any other
    /// source's. nil: ``defaultVehicle``.
    public var motionVehicle: String?

    /// A trip ending with less than this distance AND less than ``discardMaxDuration`` is
    /// discarded. Default 50 m.
    public var discardMaxDistance: Double = 50
    /// See ``discardMaxDistance``. Default 60 s.
    public var discardMaxDuration: Double = 60

    /// When the last connection source goes off, the trip ends after this grace unless one
    /// comes back (ignition flapping, engine restart). Default 30 s.
    public var powerOffGrace: Double = 30

    /// Detect trips from the fixes themselves (a `motion` source enabled in the config).
    /// Default false: only signals and commands start trips.
    public var motionEnabled = false
    /// Motion start: at least this speed… Default 8 km/h.
    public var motionStartSpeed: Double = 8 / 3.6
    /// …held for this long… Default 3 s.
    public var motionStartDuration: Double = 3
    /// …and at least this far from where the movement began. Default 200 m.
    public var motionStartDisplacement: Double = 200
    /// Motion stop: the vehicle stayed within ``motionStopRadius`` for this long. Default 300 s.
    public var motionStopDuration: Double = 300
    /// See ``motionStopDuration``. Default 50 m.
    public var motionStopRadius: Double = 50

    /// Short-stop merge for stops detected by motion: a stop is only final once it has lasted
    /// this long; driving on earlier, within ``shortStopMergeRadius``, continues the same
    /// trip. With the defaults it equals ``motionStopDuration``. 0 disables. Default 300 s.
    public var shortStopMergeDuration: Double = 300
    /// See ``shortStopMergeDuration``. Default 200 m.
    public var shortStopMergeRadius: Double = 200

    /// No-fix gaps shorter than this are normal dropouts and not reported. Default 10 s.
    public var minReportedGap: Double = 10
    /// No-fix gaps up to this long are bridged: reported, and the distance across counts.
    /// Default 15 min.
    public var maxBridgedGap: Double = 15 * 60
    /// An open trip with no data (no accepted fix and no signal) for this long ends with
    /// reason `gap`. Default 60 min.
    public var maxNoDataDuration: Double = 60 * 60

    /// Record at most one point per this many seconds of GPS time. Default 1 s.
    public var minPointInterval: Double = 1
    /// Record a point only when it lies at least this far from the last recorded one;
    /// 0 records every accepted fix (subject to ``minPointInterval``). Default 0.
    public var minPointDistance: Double = 0

    /// A signal-started trip takes the latest fix's GPS time as its start time when that fix
    /// is at most this old. Default 5 s.
    public var maxStartFixAge: Double = 5

    /// Cranking brown-out: the previous trip (ended `recovered` or `shutdown`) is continued
    /// when the first fix after a restart is at most this much GPS time after its last point
    /// and within ``reopenRadius`` of it. 0 disables. Default 120 s.
    public var reopenWithin: Double = 120
    /// See ``reopenWithin``. Default 200 m.
    public var reopenRadius: Double = 200

    /// Creates the default configuration.
    /// Circles whose inside is never recorded (`[[privacy_zone]]`): no point, no distance.
    public var privacyZones: [PrivacyZone] = []
    public init() {}
}
