// SPDX-License-Identifier: MIT
public import LogbookCore

/// The routes you drive: trips grouped by where they start and end (a named place's name,
/// else the place-name bundle's nearest town), with their count, median distance and duration,
/// the fastest and slowest trip and when the route was last driven. Pure: the caller names
/// the trips' ends (``TripOverview/startPlace``, ``TripOverview/endPlace``).
public struct RouteTable: Sendable {
    /// One route: a start and an end, in that direction.
    public struct Route: Sendable, Hashable {
        public var from: String
        public var to: String
        /// The trips on it, oldest first.
        public var trips: [TripID]
        /// Metres, seconds.
        public var medianDistance: Double
        public var medianDuration: Double
        /// The trips with the shortest and the longest duration (the earlier on a tie).
        public var fastest: TripID
        public var fastestDuration: Double
        public var slowest: TripID
        public var slowestDuration: Double
        /// The start of the newest trip on it.
        public var lastDriven: GPSTime?

        public var count: Int { trips.count }
        /// `from → to`, also the key the web app's links use.
        public var name: String { "\(from) → \(to)" }
    }

    /// Most driven first (then by name).
    public private(set) var routes: [Route] = []
    /// Kept, closed trips with no name at one end or both (not on any route).
    public private(set) var unnamed = 0

    /// - Parameter trips: closed trips with their ends named; voided and discarded ones are
    ///   left out here.
    public init(_ trips: [TripOverview]) {
        var groups: [String: [TripOverview]] = [:]
        var order: [String: (String, String)] = [:]
        for t in trips where t.state == .closed && !t.voided {
            guard let from = t.startPlace, let to = t.endPlace else {
                unnamed += 1
                continue
            }
            let key = from + "\u{1}" + to
            groups[key, default: []].append(t)
            order[key] = (from, to)
        }
        for (key, list) in groups {
            guard let (from, to) = order[key] else { continue }
            let sorted = list.sorted { ($0.startedAt ?? GPSTime(nanoseconds: 0), $0.id) < ($1.startedAt ?? GPSTime(nanoseconds: 0), $1.id) }
            // Ties go to the earlier trip.
            guard let fastest = sorted.min(by: { $0.duration < $1.duration }),
                let longest = sorted.map(\.duration).max(), let slowest = sorted.first(where: { $0.duration == longest })
            else { continue }
            routes.append(Route(
                from: from, to: to, trips: sorted.map(\.id), medianDistance: Self.median(sorted.map(\.distance)),
                medianDuration: Self.median(sorted.map(\.duration)), fastest: fastest.id, fastestDuration: fastest.duration,
                slowest: slowest.id, slowestDuration: slowest.duration, lastDriven: sorted.compactMap(\.startedAt).max()))
        }
        routes.sort { ($1.count, $0.name) < ($0.count, $1.name) }
    }

    /// The middle value (the mean of the two middle ones for an even count); 0 for none.
    public static func median(_ values: [Double]) -> Double {
        let s = values.sorted()
        guard !s.isEmpty else { return 0 }
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }

    /// The route trip `id` is on.
    public func route(of id: TripID) -> Route? { routes.first { $0.trips.contains(id) } }
}
