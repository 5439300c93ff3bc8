// SPDX-License-Identifier: MIT
internal import LogbookCore

/// The dashboard's KPIs over a range (`logbook stats`, `dashboard.json`).
///
/// Money is kept per currency and never added across currencies.
public struct GarageStats: Sendable {
    /// One vehicle's figures in the range.
    public struct VehicleSummary: Sendable, Hashable {
        public var id: String
        public var name: String
        public var distanceKm: Double
        public var fillUps: Int
        public var litres: Double
        public var spend: [String: Double]
        public var litresPer100km: Double?
    }

    /// The economy of the intervals closing in one bucket of the range.
    public struct TrendPoint: Sendable, Hashable {
        public var label: String
        public var litresPer100km: Double
        public var distanceKm: Double
        public init(label: String, litresPer100km: Double, distanceKm: Double) {
            self.label = label
            self.litresPer100km = litresPer100km
            self.distanceKm = distanceKm
        }
    }

    public var range: StatsRange
    public var vehicle: String?
    /// GPS distance of the trips that started in the range.
    public var distanceKm: Double
    public var fillUps: Int
    public var litres: Double
    public var spend: [String: Double]
    /// Distance-weighted over the valid full-tank intervals closing in the range.
    public var litresPer100km: Double?
    public var costPerKm: [String: Double]
    public var costPerLitre: [String: Double]
    public var lastFill: FuelLog?
    public var vehicles: [VehicleSummary]
    /// The newest fills of the range, newest first (at most 5).
    public var recent: [FuelLog]
    public var trend: [TrendPoint]

    /// - Parameter tripKm: GPS kilometres of the trips started in the range, by vehicle id
    ///   (`""` for trips without a vehicle), from the index.
    public init(garage: Garage, range: StatsRange, vehicle: String? = nil, tripKm: [String: Double]) {
        self.range = range
        self.vehicle = vehicle
        let fills = garage.activeFills(vehicle: vehicle).filter { range.contains($0.at) }
        var intervals: [EconomyInterval] = []
        var ids = Set(garage.activeFills(vehicle: vehicle).map(\.vehicle))
        if let vehicle { ids.insert(vehicle) }
        var summaries: [VehicleSummary] = []
        for v in garage.vehicles where vehicle == nil || v.id == vehicle { ids.insert(v.id) }
        for id in ids.sorted() {
            let own = FuelEconomy.intervals(garage.activeFills(vehicle: id)).filter { range.contains($0.endAt) }
            intervals += own
            let ownFills = fills.filter { $0.vehicle == id }
            summaries.append(VehicleSummary(
                id: id, name: garage.vehicle(id)?.name ?? id, distanceKm: tripKm[id] ?? 0, fillUps: ownFills.count,
                litres: ownFills.reduce(0) { $0 + $1.litres }, spend: Self.spend(ownFills), litresPer100km: FuelEconomy.litresPer100km(own)))
        }
        distanceKm = vehicle.map { tripKm[$0] ?? 0 } ?? tripKm.values.reduce(0, +)
        fillUps = fills.count
        litres = fills.reduce(0) { $0 + $1.litres }
        spend = Self.spend(fills)
        litresPer100km = FuelEconomy.litresPer100km(intervals)
        costPerKm = FuelEconomy.costPerKm(intervals)
        var perLitre: [String: Double] = [:]
        for (currency, amount) in spend {
            let l = fills.filter { $0.currency == currency }.reduce(0) { $0 + $1.litres }
            if l > 0 { perLitre[currency] = amount / l }
        }
        costPerLitre = perLitre
        let newest = fills.sorted { ($0.at, $0.odometerKm) > ($1.at, $1.odometerKm) }
        lastFill = newest.first
        recent = Array(newest.prefix(5))
        vehicles = summaries
        var buckets: [String: [EconomyInterval]] = [:]
        for i in intervals { buckets[range.label(i.endAt), default: []].append(i) }
        trend = buckets.keys.sorted().compactMap { label in
            let list = buckets[label] ?? []
            return FuelEconomy.litresPer100km(list).map {
                TrendPoint(label: label, litresPer100km: $0, distanceKm: list.reduce(0) { $0 + $1.distanceKm })
            }
        }
    }

    static func spend(_ fills: [FuelLog]) -> [String: Double] {
        var out: [String: Double] = [:]
        for f in fills { out[f.currency, default: 0] += f.price }
        return out
    }
}
