// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookJournal
internal import LogbookPOSIX

/// One message for a receiver that knows positions, not journals: a point with its vehicle
/// and what is known of the car, or a trip's end (the OsmAnd sink reports the ignition off).
struct InteropMessage {
    enum Kind {
        case point(TripPoint)
        /// A trip ended; its last point (if any was seen) is where the car stands.
        case tripEnded(TripEnded, last: TripPoint?)
        /// A place (`place:ID`) was entered or left at the fix time `time`; `at` is the
        /// vehicle's last journaled point at or before it (where the car was), if any; `place`
        /// the named place of that id as the journal had it then (nil: none, e.g. a privacy zone).
        case place(id: String, place: KnownPlaces.Place?, entered: Bool, time: GPSTime?, at: TripPoint?)
    }
    /// The journal sequence of the point (or record): unique per device, increasing.
    var seq: UInt64
    var vehicle: String
    var trip: UInt64?
    /// The vehicle's odometer estimate (km): its last `odometer` entry plus kept trips since.
    var odometerKm: Double?
    var kind: Kind
}

/// Turns journal items into ``InteropMessage``s, keeping which trip belongs to which vehicle
/// (the ``VehicleLedger``, saved with the cursor) and each open trip's last point.
///
/// Places: logbookd journals arrivals and departures as signals `place:ID` (on = entered,
/// off = left; docs/places.md), whether a trip is open or not, and each becomes a
/// ``InteropMessage/Kind/place(id:place:entered:time:at:)`` message, which the OwnTracks sink sends
/// as `_type: transition` (not for privacy zones). The named places (``KnownPlaces``) are folded
/// from the journal's `place` entries and saved with the ledger.
struct InteropFeed {
    var ledger = VehicleLedger()
    var lastPoints: [UInt64: TripPoint] = [:]
    /// Each vehicle's last journaled point, open trip or not: where a place event happened.
    var lastPointOfVehicle: [String: TripPoint] = [:]
    var places = KnownPlaces()
    let defaultVehicle: String
    /// The ledger's figures (odometer estimates), worked out again only after the ledger
    /// changed: a trip ended or an entry arrived, not with every batch of points.
    private var view: LedgerView?

    init(defaultVehicle: String) { self.defaultVehicle = defaultVehicle }

    /// The vehicle of trip `id`, else of the newest trip, else the default.
    private func vehicle(of id: TripID?) -> String {
        id.flatMap { ledger.trip($0)?.vehicle } ?? ledger.trips.last?.vehicle ?? defaultVehicle
    }

    private mutating func odometerKm(_ vehicle: String) -> Double? {
        if view == nil { view = LedgerView(ledger: ledger, configured: [], now: GPSTime(nanoseconds: WallClock.nanoseconds())) }
        return view?[vehicle]?.odometerKm
    }

    private mutating func apply(_ e: JournalEntry) {
        if ledger.apply(e, defaultVehicle: defaultVehicle) { view = nil }
    }

    mutating func messages(_ items: [JournalItem], rewound: (UInt64) -> Void = { _ in }) -> [InteropMessage] {
        var out: [InteropMessage] = []
        for item in items {
            switch item {
            case .checkpoint: continue
            case .rewound(_, let to):
                ledger.rewind(to: to)
                view = nil
                rewound(to)
            case .entry(let e):
                switch e.record {
                case .points(let trip, let points):
                    let v = vehicle(of: trip)
                    let odometer = odometerKm(v)
                    apply(e)
                    for (i, p) in points.enumerated() {
                        out.append(InteropMessage(seq: e.sequence + UInt64(i), vehicle: v, trip: trip.rawValue, odometerKm: odometer, kind: .point(p)))
                    }
                    if let last = points.last {
                        lastPoints[trip.rawValue] = last
                        lastPointOfVehicle[v] = last
                    }
                case .tripEnded(let end):
                    let v = vehicle(of: end.id)
                    apply(e)
                    let last = lastPoints.removeValue(forKey: end.id.rawValue)
                    out.append(InteropMessage(
                        seq: e.sequence, vehicle: v, trip: end.id.rawValue, odometerKm: odometerKm(v),
                        kind: .tripEnded(end, last: last)))
                case .signal(let s) where s.source.hasPrefix("place:"):
                    let v = s.vehicleID ?? vehicle(of: nil)
                    let trip = ledger.trips.last { $0.isOpen && $0.vehicle == v }?.id.rawValue
                    // A point after the event's fix is not where it happened.
                    let id = String(s.source.dropFirst(6))
                    var at: TripPoint?
                    if let p = lastPointOfVehicle[v], let t = s.gpsTime, p.time <= t { at = p }
                    out.append(InteropMessage(
                        seq: e.sequence, vehicle: v, trip: trip, odometerKm: nil,
                        kind: .place(id: id, place: places[id], entered: s.on, time: s.gpsTime, at: at)))
                case .entry(let u):
                    places.apply(u)
                    apply(e)
                default:
                    apply(e)
                }
            }
        }
        return out
    }

    var json: JSONValue { .object([("ledger", ledger.json), ("places", places.json)]) }

    mutating func restore(_ state: JSONValue) {
        if let j = state["ledger"], let l = VehicleLedger(json: j) {
            ledger = l
            view = nil
        }
        if let p = state["places"] { places = KnownPlaces(json: p) }
    }
}
