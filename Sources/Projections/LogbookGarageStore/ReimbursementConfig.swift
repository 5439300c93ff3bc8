// SPDX-License-Identifier: MIT
package import LogbookConfig
internal import LogbookCore
package import LogbookGarage

/// `[[reimbursement]]`: the mileage allowances the report applies, read by `logbook` and
/// `logbook-web` alike.
///
/// ```toml
/// [[reimbursement]]
/// class = "business"
/// rate_per_km = 0.30      # or rate_per_mile
/// currency = "EUR"
/// from = "2025-01-01"
/// ```
package enum ReimbursementConfig {
    /// The rates, checked: a bad one is a ``ConfigError`` naming `reimbursement[i].key`.
    package static func load(_ r: inout ConfigReader, file: String?) throws(ConfigError) -> [ReimbursementRate] {
        var rates: [ReimbursementRate] = []
        for (path, table) in try r.tables("reimbursement") {
            var f = TableFields(path: path, table: table, file: file)
            let tripClass = try f.requiredString("class")
            let perKm = try f.double("rate_per_km", in: 0...1000), perMile = try f.double("rate_per_mile", in: 0...1000)
            guard (perKm == nil) != (perMile == nil), let rate = perKm ?? perMile else {
                throw ConfigError(key: "\(path).rate_per_km", file: file, problem: "give rate_per_km or rate_per_mile (one of them)")
            }
            let currency = try f.requiredString("currency")
            guard currency.count == 3, currency.allSatisfy({ $0.isASCII && $0.isLetter }) else {
                throw ConfigError(key: "\(path).currency", file: file, problem: "expected an ISO 4217 code such as EUR, got \"\(currency)\"")
            }
            let fromText = try f.requiredString("from")
            guard let from = Self.date(fromText) else {
                throw ConfigError(key: "\(path).from", file: file, problem: "expected a date such as 2025-01-01, got \"\(fromText)\"")
            }
            if rates.contains(where: { $0.tripClass == tripClass && $0.from == from }) {
                throw ConfigError(key: "\(path).from", file: file, problem: "class \(tripClass) has a rate from \(fromText) already")
            }
            try f.rejectUnknown()
            rates.append(ReimbursementRate(tripClass: tripClass, rate: rate, perMile: perMile != nil, currency: currency.uppercased(), from: from))
        }
        return rates
    }

    /// The rates in `file` (or `LOGBOOKD_CONFIG`, or the default file).
    package static func load(file: String?, environment: [String: String]) throws(ConfigError) -> [ReimbursementRate] {
        let (root, source) = try ConfigFile.load(file: file, environment: environment)
        var reader = ConfigReader(root: root, file: source, environment: environment)
        return try load(&reader, file: source)
    }

    static func date(_ text: String) -> CivilDate? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]), (1...12).contains(m), (1...31).contains(d)
        else { return nil }
        let date = CivilDate(year: y, month: m, day: d)
        return CivilDate(daysSinceEpoch: date.daysSinceEpoch) == date ? date : nil
    }
}
