// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookGarage

/// Trips for the checks of trip entries, as the index would answer (corrections applied).
struct FixtureTrips: TripLookup {
    var trips: [TripOverview]

    init(_ trips: [TripOverview]) { self.trips = trips }

    func trip(_ number: TripID) -> TripOverview? { trips.first { $0.id == number } }

    func nextTrip(after number: TripID) -> TripOverview? {
        guard let t = trip(number), let start = t.startedAt else { return nil }
        return trips.filter { $0.vehicleID == t.vehicleID && !$0.voided && !$0.discarded && $0.id != number && ($0.startedAt ?? start) > start }
            .min { ($0.startedAt ?? start) < ($1.startedAt ?? start) }
    }
}
