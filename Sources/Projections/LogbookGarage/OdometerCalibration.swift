// SPDX-License-Identifier: MIT
public import LogbookCore

/// Odometer self-calibration: true odometer readings (fuel logs, `odometer add`) against the
/// GPS distance driven between them give the factor odometer-km per GPS-km (a speedometer
/// drive-train reads a few percent off; tyre wear moves it), with its standard error; from
/// it, the odometer at the start and end of every trip is estimated.
public struct OdometerCalibration: Sendable {
    /// A true reading.
    public struct Anchor: Sendable, Hashable {
        public var at: GPSTime
        public var km: Double
        public init(at: GPSTime, km: Double) {
            self.at = at
            self.km = km
        }
    }

    /// A trip's GPS distance (km), placed at its start.
    public struct Leg: Sendable, Hashable {
        public var start: GPSTime
        public var km: Double
        public init(start: GPSTime, km: Double) {
            self.start = start
            self.km = km
        }
    }

    /// Odometer km per GPS km (1 when nothing could be measured).
    public let factor: Double
    /// Standard error of ``factor``; nil with fewer than two measured stretches.
    public let uncertainty: Double?
    /// Stretches between consecutive readings with at least 1 GPS km in them.
    public let stretches: Int
    /// Stretches left out as implausible (ratio outside ``plausible``).
    public private(set) var rejected = 0
    /// The ratios a stretch may have to count.
    public static let plausible = 0.8...1.25
    let anchors: [Anchor]
    let starts: [GPSTime]
    /// prefix[i] = GPS km of legs[0..<i].
    let prefix: [Double]

    public init(anchors: [Anchor], legs: [Leg]) {
        self.anchors = anchors.sorted { $0.at < $1.at }
        let sortedLegs = legs.sorted { $0.start < $1.start }
        starts = sortedLegs.map(\.start)
        var sums = [0.0]
        for leg in sortedLegs { sums.append((sums.last ?? 0) + leg.km) }
        prefix = sums
        var ratios: [(Double, Double)] = []  // (ratio, gps km)
        for (a, b) in zip(self.anchors, self.anchors.dropFirst()) {
            let gps = Self.km(starts, sums, from: a.at, to: b.at)
            guard gps >= 1, b.km >= a.km else { continue }
            let ratio = (b.km - a.km) / gps
            // No odometer is 20 % off: such a stretch holds a typo or driving the logbook did
            // not record (the recorder was off), and would swamp the estimate.
            if Self.plausible.contains(ratio) { ratios.append((ratio, gps)) } else { rejected += 1 }
        }
        stretches = ratios.count
        let gpsTotal = ratios.reduce(0) { $0 + $1.1 }
        let f = gpsTotal > 0 ? ratios.reduce(0) { $0 + $1.0 * $1.1 } / gpsTotal : 1
        factor = f
        if ratios.count >= 2 {
            // Weighted variance of the ratios, over the effective number of stretches.
            let variance = ratios.reduce(0) { $0 + $1.1 * ($1.0 - f) * ($1.0 - f) } / gpsTotal
            let weights2 = ratios.reduce(0) { $0 + $1.1 * $1.1 }
            let effective = gpsTotal * gpsTotal / weights2
            uncertainty = (variance / max(effective - 1, 1)).squareRoot()
        } else {
            uncertainty = nil
        }
    }

    /// The estimated odometer at `t` (counting the legs that started before `t`); nil without
    /// any reading.
    public func estimate(at t: GPSTime) -> Double? {
        if let before = anchors.last(where: { $0.at <= t }) {
            return before.km + factor * Self.km(starts, prefix, from: before.at, to: t)
        }
        guard let after = anchors.first else { return nil }
        let estimate = after.km - factor * Self.km(starts, prefix, from: t, to: after.at)
        return estimate >= 0 ? estimate : nil
    }

    /// The true readings it was made from, oldest first.
    public var readings: [Anchor] { anchors }

    /// GPS km of the legs starting in `from ..< to`.
    static func km(_ starts: [GPSTime], _ prefix: [Double], from: GPSTime, to: GPSTime) -> Double {
        guard from < to else { return 0 }
        return prefix[lowerBound(starts, to)] - prefix[lowerBound(starts, from)]
    }

    static func lowerBound(_ a: [GPSTime], _ t: GPSTime) -> Int {
        var lo = 0, hi = a.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if a[mid] < t { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}

extension Garage {
    /// The true readings of `vehicle`: its fuel logs' and readings' odometers (voided aside).
    public func anchors(vehicle: String) -> [OdometerCalibration.Anchor] {
        activeFills(vehicle: vehicle).map { .init(at: $0.at, km: $0.odometerKm) }
            + readings.filter { !$0.voided && $0.vehicle == vehicle }.map { .init(at: $0.at, km: $0.odometerKm) }
    }
}
