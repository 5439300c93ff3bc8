// SPDX-License-Identifier: MIT
import LogbookCore
import Testing

@testable import LogbookPlaces

@Suite struct PlaceNamerTests {
    @Test func placeEntriesFoldInJournalOrder() {
        let entries: [PlaceEntries.Entry] = [
            .init(action: "add", subject: "Home", fields: PlaceEntries.fields(latitude: 47.0, longitude: 7.0, radius: 150)),
            .init(action: "add", subject: "Gym", fields: PlaceEntries.fields(latitude: 47.1, longitude: 7.1, radius: 80)),
            .init(action: "amend", subject: "Home", fields: PlaceEntries.fields(latitude: nil, longitude: nil, radius: 250)),
            .init(action: "add", subject: "Broken", fields: PlaceEntries.fields(latitude: 95, longitude: 7, radius: 80)),
            .init(action: "void", subject: "Gym", fields: .object([])),
            .init(action: "amend", subject: "Nowhere", fields: PlaceEntries.fields(latitude: 1, longitude: 1, radius: 1)),
        ]
        let places = PlaceEntries.fold(entries)
        #expect(places == [NamedPlace(name: "Home", latitude: 47.0, longitude: 7.0, radius: 250)])
    }

    @Test func namedPlaceThenZoneEdgeThenBundleThenNothing() throws {
        let zone = PrivacyZone(name: "home", latitude: 46.80, longitude: 7.60, radius: 300)
        let office = NamedPlace(name: "Customer Müller AG", latitude: 46.9480, longitude: 7.4474, radius: 200)
        let namer = PlaceNamer(namedPlaces: [office], privacyZones: [zone], bundle: try WorldBundle.load())
        #expect(namer.name(latitude: 46.9481, longitude: 7.4475) == "Customer Müller AG")
        // A trip's first point is 1 m past the zone's edge (here due north of the centre).
        let north = zone.edgePoint(
            inside: TripPoint(time: GPSTime(seconds: 0), latitude: 46.80, longitude: 7.60),
            outside: TripPoint(time: GPSTime(seconds: 60), latitude: 46.81, longitude: 7.60))
        #expect(namer.name(latitude: north.latitude, longitude: north.longitude) == "home")
        #expect(namer.name(latitude: 46.7580, longitude: 7.6280) == "near Thun, CH")
        #expect(namer.name(latitude: 0, longitude: -30) == nil, "the middle of the Atlantic")
        #expect(PlaceNamer().name(latitude: 46.7580, longitude: 7.6280) == nil)

        let trip = TripOverview(
            id: TripID(1), startReason: "manual", start: .init(latitude: north.latitude, longitude: north.longitude),
            end: .init(latitude: 46.7580, longitude: 7.6280))
        let named = namer.named(trip)
        #expect(named.startPlace == "home" && named.endPlace == "near Thun, CH")
    }
}
