// SPDX-License-Identifier: MIT
import LogbookCore
import Testing

@testable import LogbookPlaces

@Suite struct NamedPlaceTests {
    let home = NamedPlace(name: "Home", latitude: 47.0, longitude: 7.0, radius: 200)
    let street = NamedPlace(name: "Street", latitude: 47.0, longitude: 7.0015, radius: 400)
    let office = NamedPlace(name: "Office", latitude: 47.01, longitude: 7.0, radius: 100)

    @Test func theNearestContainingCircleWins() {
        let all = [street, home, office]
        // 38 m east of Home's centre, 76 m from Street's: both contain it, Home is nearer.
        #expect(NamedPlace.nearest(containingLatitude: 47.0, longitude: 7.0005, in: all)?.name == "Home")
        // 300 m east: outside Home (200 m), inside Street.
        #expect(NamedPlace.nearest(containingLatitude: 47.0, longitude: 7.004, in: all)?.name == "Street")
        // A bigger circle does not win over a nearer centre, whatever the order.
        #expect(NamedPlace.nearest(containingLatitude: 47.0, longitude: 7.0009, in: all.reversed())?.name == "Street")
        #expect(NamedPlace.nearest(containingLatitude: 47.005, longitude: 7.0, in: all) == nil)
    }
}
