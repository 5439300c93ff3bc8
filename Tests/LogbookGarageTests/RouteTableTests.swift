// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookGarage
import Testing

/// ``RouteTable`` on hand-made trips: grouping by direction, medians of an even count, ties.
@Suite struct RouteTableTests {
    func trip(_ n: UInt64, _ from: String?, _ to: String?, km: Double, min: Double, day: Int64, state: TripOverview.State = .closed) -> TripOverview {
        TripOverview(
            id: TripID(n), startedAt: GPSTime(seconds: 1_793_577_600 + day * 86_400), startReason: "manual", distance: km * 1000, duration: min * 60,
            state: state, startPlace: from, endPlace: to)
    }

    @Test func tripsGroupByDirectionWithMediansAndTheEarlierTripOnATie() {
        var voided = trip(9, "home", "office", km: 99, min: 99, day: 9)
        voided.voided = true
        let table = RouteTable([
            trip(1, "home", "office", km: 8, min: 20, day: 0), trip(2, "office", "home", km: 9, min: 25, day: 0),
            trip(3, "home", "office", km: 10, min: 16, day: 1), trip(4, "home", "office", km: 7, min: 16, day: 2),
            trip(5, "home", "office", km: 12, min: 30, day: 3), trip(6, nil, "office", km: 3, min: 5, day: 3),
            trip(7, "home", "office", km: 1, min: 1, day: 4, state: .discarded), voided,
        ])
        #expect(table.routes.map(\.name) == ["home → office", "office → home"])
        let r = table.routes[0]
        #expect(r.trips.map(\.rawValue) == [1, 3, 4, 5])
        #expect(r.medianDistance == 9000, "(8 + 10) / 2 km")
        #expect(r.medianDuration == 18 * 60, "(16 + 20) / 2 min")
        #expect(r.fastest.rawValue == 3 && r.fastestDuration == 16 * 60, "3 and 4 tie: the earlier")
        #expect(r.slowest.rawValue == 5 && r.lastDriven == GPSTime(seconds: 1_793_577_600 + 3 * 86_400))
        #expect(table.unnamed == 1)
        #expect(table.route(of: TripID(2))?.name == "office → home")
        #expect(RouteTable.median([]) == 0 && RouteTable.median([3, 1, 2]) == 2)
    }
}
