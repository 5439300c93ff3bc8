// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookGarage
import LogbookRecords
import Testing

@Suite struct ValidatorTests {
    static func draft(_ cmd: String, _ fields: [(String, JSONValue)]) throws(EntryProblem) -> RecordEntry {
        guard let command = EntryCommand.named(cmd) else { throw EntryProblem("test", cmd) }
        return try command.draft(.object([("cmd", .string(cmd))] + fields), now: FixtureGarage.now)
    }

    @Test func fuelAddBuildsTheDocumentedRecord() throws {
        let e = try Self.draft("fuel.add", [
            ("vehicle", .string("golf")), ("odometer_km", .number(12345.6)), ("litres", .number(40.5)), ("price", .number(70.1)),
            ("currency", .string("eur")), ("station", .string("  Aral Leopoldstr. ")), ("lat", .number(48.16)), ("lon", .number(11.58)),
            ("origin", .string("cli")),
        ])
        #expect(e.type == "fuel")
        #expect(e.action == .add)
        #expect(e.subject == "golf@20260401T000000Z")
        #expect(e.origin == "cli")
        #expect(e.fields.serialized == #"{"vehicle":"golf","at":"2026-04-01T00:00:00Z","odometer_km":12345.6,"litres":40.5,"price":70.1,"currency":"EUR","station":"Aral Leopoldstr.","lat":48.16,"lon":11.58,"full":true,"missed":false}"#)
    }

    struct BadCase: Sendable {
        var command: String
        /// `key=value` words; numbers become JSON numbers.
        var fields: String
        var message: String
    }

    static let badCases: [BadCase] = [
        BadCase(command: "fuel.add", fields: "vehicle=golf odometer_km=1 litres=-5 price=1 currency=EUR", message: "litres must be between 0 and 2000, got -5"),
        BadCase(command: "fuel.add", fields: "vehicle=golf odometer_km=1 litres=0 price=1 currency=EUR", message: "litres must be more than 0"),
        BadCase(command: "fuel.add", fields: "vehicle=golf odometer_km=1 litres=5 price=1 currency=EURO", message: "currency must be an ISO 4217 code such as EUR, CHF or USD"),
        BadCase(command: "fuel.add", fields: "vehicle=golf odometer_km=1 litres=5 price=1", message: "fuel.add needs \"currency\""),
        BadCase(command: "fuel.add", fields: "vehicle=Golf! odometer_km=1 litres=5 price=1 currency=EUR", message: "vehicle must be an id: 1-32 of a-z, 0-9, _ and -, starting with a letter or digit"),
        BadCase(command: "fuel.add", fields: "vehicle=golf odometer_km=1 litres=5 price=1 currency=EUR lat=48", message: "lat and lon go together"),
        BadCase(command: "fuel.add", fields: "vehicle=golf odometer_km=1 litres=5 price=1 currency=EUR tank=5", message: "fuel.add has no field \"tank\""),
        BadCase(command: "fuel.amend", fields: "subject=golf@x", message: "fuel.amend needs at least one field to change"),
        BadCase(command: "trip.classify", fields: "trip=3 class=holiday", message: "class must be one of business, private, commute"),
        BadCase(command: "trip.classify", fields: "trip=0 class=private", message: "trip must be a trip number (1 or more), got 0"),
        BadCase(command: "vehicle.add", fields: "vehicle=golf year=1885", message: "year must be between 1886 and 2100, got 1885"),
    ]

    @Test(arguments: badCases) func badInputIsRefusedWithAReason(_ c: BadCase) {
        let fields: [(String, JSONValue)] = c.fields.split(separator: " ").map { word in
            let parts = word.split(separator: "=", maxSplits: 1).map(String.init)
            return (parts[0], Double(parts[1]).map(JSONValue.number) ?? .string(parts[1]))
        }
        #expect(throws: EntryProblem("bad_request", c.message)) { try Self.draft(c.command, fields) }
    }

    @Test func checksAgainstTheGarage() throws {
        let garage = try FixtureGarage.garage()
        func problem(_ cmd: String, _ fields: [(String, JSONValue)]) -> EntryProblem? {
            do {
                try garage.check(try Self.draft(cmd, fields), trips: FixtureTrips([TripOverview(id: TripID(7), startReason: "manual")]))
                return nil
            } catch { return error }
        }
        #expect(problem("fuel.add", FixtureGarage.fill("polo", "2026-03-31T00:00:00Z", 1, 5, 5, "EUR"))?.code == "unknown_vehicle")
        // Below the 11400 km of Feb 20.
        #expect(problem("fuel.add", FixtureGarage.fill("golf", "2026-03-01T00:00:00Z", 11_300, 5, 5, "EUR"))?.message
            == "odometer going backwards: 11300 km at 2026-03-01T00:00:00Z, but 11400 km at 2026-02-20T10:00:00Z (fuel log golf@20260220T100000Z)")
        // Above the 12000 km of the later Mar 10 fill.
        #expect(problem("fuel.add", FixtureGarage.fill("golf", "2026-02-25T00:00:00Z", 12_600, 5, 5, "EUR"))?.code == "odometer_backwards")
        #expect(problem("odometer.add", [("vehicle", .string("van")), ("at", .string("2026-03-16T00:00:00Z")), ("odometer_km", .number(51_500))])?.code == "odometer_backwards")
        #expect(problem("fuel.add", FixtureGarage.fill("golf", "2026-02-25T00:00:00Z", 11_700, 5, 5, "EUR")) == nil)
        #expect(problem("fuel.add", FixtureGarage.fill("golf", "2026-03-30T10:00:00Z", 12_500, 5, 5, "EUR"))?.code == "duplicate")
        #expect(problem("fuel.void", [("subject", .string("van@20260305T100000Z"))])?.code == "unknown_entry")
        #expect(problem("fuel.amend", [("subject", .string("golf@20260220T100000Z")), ("odometer_km", .number(12_100))])?.code == "odometer_backwards")
        #expect(problem("vehicle.add", [("vehicle", .string("polo")), ("registration", .string("m ab-123"))])?.message == "registration m ab-123 belongs to vehicle golf")
        #expect(problem("vehicle.add", [("vehicle", .string("golf"))])?.code == "duplicate")
        #expect(problem("trip.classify", [("trip", .number(8)), ("class", .string("business"))])?.code == "unknown_trip")
        #expect(problem("trip.classify", [("trip", .number(7)), ("class", .string("business"))]) == nil)
    }

    @Test func retiredVehiclesTakeNoFuelAndFreeTheirPlate() throws {
        var seq: UInt64 = 0
        var entries = try FixtureGarage.entries()
        entries.append(try FixtureGarage.entry("vehicle.retire", [("vehicle", .string("golf"))], seq: &seq))
        let garage = Garage(entries: entries)
        #expect(throws: EntryProblem("retired_vehicle", "vehicle golf is retired")) {
            try garage.check(try Self.draft("fuel.add", FixtureGarage.fill("golf", "2026-04-01T00:00:00Z", 13_000, 5, 5, "EUR")))
        }
        try garage.check(try Self.draft("vehicle.add", [("vehicle", .string("polo")), ("registration", .string("M-AB 123"))]))
    }

    @Test func configuredVehiclesAreKnownAndTheJournalWins() throws {
        var seq: UInt64 = 0
        let amend = try FixtureGarage.entry("vehicle.amend", [("vehicle", .string("golf")), ("name", .string("Golf VIII"))], seq: &seq)
        let garage = Garage(configured: [ConfiguredVehicle(id: "golf", record: VehicleRecord(name: "Golf (config)", make: "VW"))], entries: [amend])
        let golf = try #require(garage.vehicle("golf"))
        #expect(golf.name == "Golf VIII")
        #expect(golf.record.make == "VW")
        #expect(golf.configured)
    }

    @Test func reclassificationKeepsHistory() throws {
        var seq: UInt64 = 0
        let a = try FixtureGarage.entry("trip.classify", [("trip", .number(3)), ("class", .string("private"))], seq: &seq)
        let b = try FixtureGarage.entry("trip.classify", [("trip", .number(3)), ("class", .string("business")), ("purpose", .string("Client visit"))], seq: &seq)
        let c = try #require(Garage(entries: [a, b]).classifications[TripID(3)])
        #expect(c.tripClass == "business")
        #expect(c.purpose == "Client visit")
        #expect(c.changed)
    }
}
