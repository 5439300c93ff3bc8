// SPDX-License-Identifier: MIT
/// Which trips a list, an export or a report covers.
public struct TripQuery: Sendable, Hashable {
    /// Only this vehicle's trips.
    public var vehicleID: String?
    /// Trips that started at or after this time.
    public var since: GPSTime?
    /// Trips that started before this time.
    public var until: GPSTime?
    /// At most this many (the newest first).
    public var limit: Int?
    /// Include trips recorded as discarded (too short to keep).
    public var includeDiscarded: Bool
    /// Include trips a person voided.
    public var includeVoided: Bool

    public init(
        vehicleID: String? = nil, since: GPSTime? = nil, until: GPSTime? = nil, limit: Int? = nil, includeDiscarded: Bool = true,
        includeVoided: Bool = true
    ) {
        self.vehicleID = vehicleID
        self.since = since
        self.until = until
        self.limit = limit
        self.includeDiscarded = includeDiscarded
        self.includeVoided = includeVoided
    }
}

/// Read access to the trips, with every correction applied (voided, reassigned, merged and
/// split trips as a person sees them), as the CLI, the exports, the pictures and the web app
/// need it. The SQLite index (`LogbookStore`) is the real implementation; tests may use a
/// fake. Everything streams: no call needs memory that grows with the history.
public protocol TripCatalog {
    /// Calls `body` for each trip matching `query`, newest first, until it returns false.
    func forEachTrip(matching query: TripQuery, _ body: (TripOverview) throws -> Bool) throws
    /// The trip with `id`, if recorded.
    func trip(_ id: TripID) throws -> TripOverview?
    /// Calls `body` with the trip's points in order, a chunk at a time.
    func forEachPointChunk(of id: TripID, _ body: ([TripPoint]) throws -> Void) throws
    /// The stretches without a fix inside the trip, in order.
    func gaps(of id: TripID) throws -> [TripGap]
}

extension TripCatalog {
    /// The trips matching `query`, newest first (mind ``TripQuery/limit`` for long histories).
    public func trips(matching query: TripQuery) throws -> [TripOverview] {
        var out: [TripOverview] = []
        try forEachTrip(matching: query) { out.append($0); return true }
        return out
    }

    /// All points of trip `id` (for one trip; exports of many trips should stream chunks).
    public func points(of id: TripID) throws -> [TripPoint] {
        var out: [TripPoint] = []
        try forEachPointChunk(of: id) { out.append(contentsOf: $0) }
        return out
    }
}
