// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookExport
import Testing

/// The trip list written trip by trip (`logbook trips list --json` over ten years of trips) is
/// exactly the document built whole (the web API's).
@Suite struct TripListWriterTests {
    @Test func theStreamedListIsTheWholeDocument() {
        var trips = (1...5).map { SampleTrips.overview(UInt64($0), SampleTrips.points(10 + $0)) }
        trips[1].voided = true
        trips.append(SampleTrips.overview(6, SampleTrips.points(2), state: .discarded))
        trips.append(SampleTrips.overview(7, SampleTrips.points(3), vehicle: nil))
        trips[2].distance = .nan
        let vehicle: (String?) -> Vehicle? = { id in id.map { Vehicle(id: $0, name: "Golf") } }
        for count in [0, 1, trips.count] {
            let some = Array(trips.prefix(count))
            var writer = TripListWriter()
            var text = writer.opening
            for t in some { text += writer.element(t, vehicle: vehicle(t.vehicleID)) }
            text += writer.closing
            #expect(text == TripProperties.list(some, vehicles: vehicle).serialized)
        }
    }
}
