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
        /// A place was entered or left (the OwnTracks `transition` seam: see ``InteropFeed``).
        case place(name: String, entered: Bool, time: GPSTime?, at: TripPoint?)
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
/// off = left; docs/places.md), and each becomes a ``InteropMessage/Kind/place(name:entered:time:at:)`` message, which
/// the OwnTracks sink sends as `_type: transition`. Privacy-zone crossings are never sent.
struct InteropFeed {
    var ledger = VehicleLedger()
    var lastPoints: [UInt64: TripPoint] = [:]
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
                    if let last = points.last { lastPoints[trip.rawValue] = last }
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
                    out.append(InteropMessage(
                        seq: e.sequence, vehicle: v, trip: trip, odometerKm: nil,
                        kind: .place(name: String(s.source.dropFirst(6)), entered: s.on, time: s.gpsTime, at: trip.flatMap { lastPoints[$0] })))
                default:
                    apply(e)
                }
            }
        }
        return out
    }

    var json: JSONValue { .object([("ledger", ledger.json)]) }

    mutating func restore(_ state: JSONValue) {
        if let j = state["ledger"], let l = VehicleLedger(json: j) {
            ledger = l
            view = nil
        }
    }
}
