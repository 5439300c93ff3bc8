// SPDX-License-Identifier: MIT
public import LogbookCore

/// One measured stretch between two full-tank fills of a vehicle.
public struct EconomyInterval: Sendable, Hashable {
    public var vehicle: String
    /// The full fill that opened it and the one that closed it.
    public var fromFill: String
    public var toFill: String
    /// When the closing fill happened (the interval counts in that fill's period).
    public var endAt: GPSTime
    public var distanceKm: Double
    /// Litres of every fill after the opening one up to and including the closing one.
    public var litres: Double
    /// What those fills cost, per currency.
    public var spend: [String: Double]

    public var litresPer100km: Double { litres / distanceKm * 100 }
}

/// Fuel economy by the **full-tank method**: the tank is full at a full fill; the fuel put in
/// up to and including the next full fill is what the car burnt over the kilometres between
/// the two (partial fills accumulate into the next full one). A fill marked `missed` (a fill
/// before it was not logged) voids the interval it closes: its fuel is unknown. Fills are
/// taken in odometer order, so fills entered out of order still pair up correctly.
public enum FuelEconomy {
    /// The valid intervals of one vehicle's fills (voided fills are skipped).
    public static func intervals(_ fills: [FuelLog]) -> [EconomyInterval] {
        let ordered = fills.filter { !$0.voided }.sorted { ($0.odometerKm, $0.at) < ($1.odometerKm, $1.at) }
        var out: [EconomyInterval] = []
        var opening: FuelLog?
        var litres = 0.0
        var spend: [String: Double] = [:]
        for fill in ordered {
            if fill.missed {
                // Unknown fuel went in before this fill: start afresh here if the tank is full.
                opening = fill.full ? fill : nil
                litres = 0
                spend = [:]
                continue
            }
            litres += fill.litres
            spend[fill.currency, default: 0] += fill.price
            guard fill.full else { continue }
            if let start = opening, fill.odometerKm > start.odometerKm {
                out.append(EconomyInterval(
                    vehicle: fill.vehicle, fromFill: start.id, toFill: fill.id, endAt: fill.at,
                    distanceKm: fill.odometerKm - start.odometerKm, litres: litres, spend: spend))
            }
            // Fuel before the first full fill filled an unknown tank: it measures nothing.
            opening = fill
            litres = 0
            spend = [:]
        }
        return out
    }

    /// Litres over kilometres of all `intervals` (distance-weighted), per 100 km; nil without any.
    public static func litresPer100km(_ intervals: [EconomyInterval]) -> Double? {
        let km = intervals.reduce(0) { $0 + $1.distanceKm }
        guard km > 0 else { return nil }
        return intervals.reduce(0) { $0 + $1.litres } / km * 100
    }

    /// Cost per km per currency, over the intervals paid wholly in that currency (an interval
    /// paid partly in CHF and partly in EUR says nothing true about either).
    public static func costPerKm(_ intervals: [EconomyInterval]) -> [String: Double] {
        var money: [String: Double] = [:]
        var km: [String: Double] = [:]
        for i in intervals where i.spend.count == 1 {
            guard let (currency, amount) = i.spend.first else { continue }
            money[currency, default: 0] += amount
            km[currency, default: 0] += i.distanceKm
        }
        var out: [String: Double] = [:]
        for (currency, amount) in money where (km[currency] ?? 0) > 0 { out[currency] = amount / (km[currency] ?? 1) }
        return out
    }

    /// L/100 km as US miles per gallon.
    public static func mpgUS(litresPer100km: Double) -> Double { UnitSystem.mpgUS(litresPer100km: litresPer100km) }
}
