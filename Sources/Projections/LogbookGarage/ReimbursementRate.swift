// SPDX-License-Identifier: MIT
public import LogbookCore

/// A mileage allowance: so much per km (or per mile) driven in a class of trips, from a date
/// on (`[[reimbursement]]` in the config). Rates are the user's to set: statutory ones (DE
/// 0.30 EUR/km business, the IRS's 0.70 USD/mile for 2025) change, and the report applies
/// the one in force on each trip's local date.
public struct ReimbursementRate: Sendable, Hashable {
    /// The trip class it pays for (`business`, `commute`, …).
    public var tripClass: String
    /// Amount per unit distance.
    public var rate: Double
    /// Whether ``rate`` is per mile (else per km).
    public var perMile: Bool
    /// ISO 4217 code.
    public var currency: String
    /// The first local date it applies to.
    public var from: CivilDate

    public init(tripClass: String, rate: Double, perMile: Bool = false, currency: String, from: CivilDate) {
        self.tripClass = tripClass
        self.rate = rate
        self.perMile = perMile
        self.currency = currency
        self.from = from
    }

    /// `0.30 EUR/km`.
    public var text: String { NumberText.fixed(rate, places: 2) + " " + currency + (perMile ? "/mi" : "/km") }

    /// The amount for `km` kilometres.
    public func amount(km: Double) -> Double { rate * (perMile ? km / 1.609344 : km) }

    /// The rate for `tripClass` in force on `date`: the latest whose ``from`` is not after it.
    public static func applying(_ rates: [ReimbursementRate], tripClass: String, on date: CivilDate) -> ReimbursementRate? {
        let day = date.daysSinceEpoch
        return rates.filter { $0.tripClass == tripClass && $0.from.daysSinceEpoch <= day }.max { $0.from.daysSinceEpoch < $1.from.daysSinceEpoch }
    }
}
