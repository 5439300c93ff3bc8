// SPDX-License-Identifier: MIT
/// A trip as a person sees it in a list, an export or a report: the index produces it, the
/// CLI, the exports, the pictures and the web app consume it. SI units throughout.
public struct TripOverview: Sendable, Hashable {
    /// Open (no end record yet), closed, or closed but discarded as too short.
    public enum State: String, Sendable, Hashable {
        case open, closed, discarded
    }

    /// A position: the first or last point of the trip.
    public struct Position: Sendable, Hashable {
        public var latitude: Double
        public var longitude: Double
        public init(latitude: Double, longitude: Double) {
            self.latitude = latitude
            self.longitude = longitude
        }
    }

    public var id: TripID
    /// The vehicle's id, when known.
    public var vehicleID: String?
    /// GPS time at the start (else the first point's).
    public var startedAt: GPSTime?
    /// GPS time at the end (else the last point's); nil while open.
    public var endedAt: GPSTime?
    /// Why it started, e.g. `power:ACAD`, `motion`, `manual`, `service`.
    public var startReason: String
    /// Why it ended, e.g. `power:ACAD`, `motion`, `gap`, `recovered`; nil while open.
    public var endReason: String?
    /// Metres.
    public var distance: Double
    /// Seconds.
    public var duration: Double
    /// Metres per second.
    public var averageSpeed: Double
    /// Metres per second.
    public var maxSpeed: Double
    /// Points recorded.
    public var pointCount: Int
    /// The first and last recorded positions.
    public var start: Position?
    public var end: Position?
    public var state: State
    /// Named place or nearest town at the start and end, where known.
    public var startPlace: String?
    public var endPlace: String?
    /// Voided by a person (`logbook trips void`): listed, never counted.
    public var voided: Bool = false
    public var voidReason: String?
    /// Who drove, when a trip or its vehicle names a driver.
    public var driver: String?
    /// A correction (void, assignment, merge, split) changed it: the report marks it.
    public var corrected: Bool = false
    /// The trips merged into this one, in time order.
    public var mergedFrom: [TripID] = []
    /// The trip this one was split off from.
    public var splitFrom: TripID?

    /// True when the daemon closed the trip after a crash or power loss.
    public var recovered: Bool { endReason == "recovered" }
    /// True for a trip too short to keep (recorded, not silently dropped).
    public var discarded: Bool { state == .discarded }
    /// True for a trip `logbook import` reconstructed from another app's history (start
    /// reason `import:FORMAT`) rather than one logbookd recorded at the time.
    public var imported: Bool { startReason.hasPrefix("import:") }
    /// `import` for an imported trip, `recorded` for one logbookd recorded.
    public var origin: String { imported ? "import" : "recorded" }

    /// Creates an overview.
    public init(
        id: TripID, vehicleID: String? = nil, startedAt: GPSTime? = nil, endedAt: GPSTime? = nil, startReason: String,
        endReason: String? = nil, distance: Double = 0, duration: Double = 0, averageSpeed: Double = 0, maxSpeed: Double = 0,
        pointCount: Int = 0, start: Position? = nil, end: Position? = nil, state: State = .closed, startPlace: String? = nil,
        endPlace: String? = nil
    ) {
        self.id = id
        self.vehicleID = vehicleID
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.startReason = startReason
        self.endReason = endReason
        self.distance = distance
        self.duration = duration
        self.averageSpeed = averageSpeed
        self.maxSpeed = maxSpeed
        self.pointCount = pointCount
        self.start = start
        self.end = end
        self.state = state
        self.startPlace = startPlace
        self.endPlace = endPlace
    }
}
