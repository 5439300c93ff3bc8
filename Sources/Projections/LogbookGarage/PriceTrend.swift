// SPDX-License-Identifier: MIT
public import LogbookCore

/// Fuel price tracking: what each fill-up cost per litre, per currency, over time (the
/// dashboard's price trend). Voided fill-ups and those without litres are left out.
public enum PriceTrend {
    /// One fill-up's price per litre.
    public struct Point: Sendable, Hashable {
        public var at: GPSTime
        public var perLitre: Double
        public var station: String?
    }

    /// A currency's points, oldest first, and their figures.
    public struct Series: Sendable, Hashable {
        public var currency: String
        public var points: [Point]
        public var low: Double { points.map(\.perLitre).min() ?? 0 }
        public var high: Double { points.map(\.perLitre).max() ?? 0 }
        /// The last price over the first, minus one (0.05 is 5 % dearer).
        public var change: Double {
            guard let first = points.first?.perLitre, let last = points.last?.perLitre, first > 0 else { return 0 }
            return last / first - 1
        }
    }

    /// The series of `fills` (of `vehicle` when given) at or after `since`, the currency with
    /// the most fill-ups first (a tie: alphabetical). Prices are never mixed across currencies.
    public static func series(_ fills: [FuelLog], since: GPSTime? = nil, vehicle: String? = nil) -> [Series] {
        var byCurrency: [String: [Point]] = [:]
        for f in fills where !f.voided && f.litres > 0 && (since.map { f.at >= $0 } ?? true) && (vehicle.map { f.vehicle == $0 } ?? true) {
            byCurrency[f.currency, default: []].append(Point(at: f.at, perLitre: f.unitPrice, station: f.station))
        }
        return byCurrency.map { Series(currency: $0.key, points: $0.value.sorted { $0.at < $1.at }) }
            .sorted { ($0.points.count, $1.currency) > ($1.points.count, $0.currency) }
    }
}
