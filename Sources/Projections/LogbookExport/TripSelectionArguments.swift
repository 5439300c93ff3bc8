// SPDX-License-Identifier: MIT
public import LogbookCore

/// What `logbook trips export` (and the web app's export link) was asked for, turned into a
/// ``TripSelection``: trip numbers, or `--all` narrowed by dates and vehicle.
public struct TripSelectionArguments: Sendable, Hashable {
    /// Trip numbers as typed.
    public var ids: [String]
    /// `--all`.
    public var all: Bool
    /// `--since DATE|TIME`.
    public var since: String?
    /// `--until DATE|TIME` (a date includes that day).
    public var until: String?
    /// `--vehicle ID`.
    public var vehicle: String?
    /// `--include-discarded`.
    public var includeDiscarded: Bool
    /// `--include-voided`.
    public var includeVoided: Bool

    /// Creates arguments.
    public init(ids: [String] = [], all: Bool = false, since: String? = nil, until: String? = nil, vehicle: String? = nil,
                includeDiscarded: Bool = false, includeVoided: Bool = false) {
        self.ids = ids
        self.all = all
        self.since = since
        self.until = until
        self.vehicle = vehicle
        self.includeDiscarded = includeDiscarded
        self.includeVoided = includeVoided
    }

    /// A one-line reason the arguments make no sense.
    public struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// The reason, for a person.
        public var description: String
    }

    /// The selection, or the reason there is none.
    ///
    /// - Parameter zone: the zone dates and local times are read in (a day starts at local midnight).
    /// - Throws: ``Problem``.
    public func selection(zone: TimeZoneRules = .utc) throws(Problem) -> TripSelection {
        if all == !ids.isEmpty {
            throw Problem(description: all ? "give trip numbers or --all, not both" : "give trip numbers or --all")
        }
        if !all, since != nil || until != nil || vehicle != nil || includeDiscarded || includeVoided {
            throw Problem(description: "--since, --until, --vehicle, --include-discarded and --include-voided go with --all")
        }
        guard all else {
            var out: [TripID] = []
            for text in ids {
                guard let n = UInt64(text), n > 0 else { throw Problem(description: "not a trip number: \(text)") }
                out.append(TripID(n))
            }
            return .trips(out)
        }
        if vehicle?.isEmpty == true { throw Problem(description: "--vehicle needs a vehicle id") }
        var query = TripQuery(vehicleID: vehicle, includeDiscarded: includeDiscarded, includeVoided: includeVoided)
        query.since = try since.map { (s) throws(Problem) in try Self.time(s, "--since", endOfDay: false, zone) }
        query.until = try until.map { (s) throws(Problem) in try Self.time(s, "--until", endOfDay: true, zone) }
        if let a = query.since, let b = query.until, a >= b { throw Problem(description: "--since must come before --until") }
        return .matching(query)
    }

    /// ``LocalTimeInput`` in `zone`; a plain `--until` date includes that day.
    static func time(_ text: String, _ option: String, endOfDay: Bool, _ zone: TimeZoneRules) throws(Problem) -> GPSTime {
        do {
            return try LocalTimeInput.parse(text, zone: zone, endOfDay: endOfDay)
        } catch {
            throw Problem(description: "\(option): \(error.message)")
        }
    }
}
