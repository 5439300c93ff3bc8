// SPDX-License-Identifier: MIT
public import LogbookRecords

/// The kinds of garage entry that have short numbers (`#12`), each numbered on its own.
public enum ShortNumberKind: String, Sendable, CaseIterable {
    case fuel, odometer, service

    /// What one is called in an error: `fill-up`, `odometer reading`, `service task`.
    public var noun: String {
        switch self {
        case .fuel: "fill-up"
        case .odometer: "odometer reading"
        case .service: "service task"
        }
    }

    /// The list that shows the numbers.
    public var listCommand: String { "\(rawValue) list" }
}

extension Garage {
    /// The entry id `typed` means: an id as it is (`van@20261126T093209.592Z`, `golf-oil`), or
    /// a short number (`12` or `#12`) as the lists show it. An existing id wins over a number
    /// (a service task may be called `2`); anything else that is no number is returned as
    /// typed, for the entry checks to name.
    ///
    /// - Throws: ``EntryProblem`` `unknown_entry` for a number that is no such entry's.
    public func resolve(_ typed: String, _ kind: ShortNumberKind) throws(EntryProblem) -> String {
        let ids: [String] =
            switch kind {
            case .fuel: fuelLogs.map(\.id)
            case .odometer: readings.map(\.id)
            case .service: services.map(\.id)
            }
        if ids.contains(typed) { return typed }
        let digits = typed.hasPrefix("#") ? typed.dropFirst() : Substring(typed)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return typed }
        guard let n = Int(digits), n >= 1, n <= ids.count else {
            throw EntryProblem("unknown_entry", "no \(kind.noun) #\(digits) (\(kind.listCommand) shows the numbers)")
        }
        return ids[n - 1]
    }

    /// The currency a fill-up without one is in: `configured` (`[units] currency`), else the
    /// currency of the vehicle's latest fill-up that counts (of any vehicle's when `vehicle`
    /// is nil), else nil.
    public func defaultCurrency(vehicle: String?, configured: String?) -> String? {
        if let configured { return configured }
        return activeFills(vehicle: vehicle).max { ($0.at, $0.number) < ($1.at, $1.number) }?.currency
    }
}
