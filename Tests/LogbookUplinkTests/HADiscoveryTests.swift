// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookJournal
import LogbookUplink
import Testing

@Suite struct HADiscoveryTests {
    let topics = MQTTTopics(prefix: "logbook", device: "lb-0123456789ab")

    /// A live document as logbookd writes it, mid-trip.
    static let live: JSONValue = {
        let text = """
            {"schema":1,"seq":812,"updated_at":"2026-11-22T10:00:02.125Z","gps":{"connected":true,"mode":3,
            "time":"2029-11-17T11:28:17Z","lat":47.2919483,"lon":7.7429117,"speed_mps":27.049,"track_deg":242.5,
            "eph_m":17.1,"satellites_used":9,"fixes":10327,"rejected":12},"trip":{"id":"12","active":true,
            "vehicle":{"id":"golf","name":"Golf"},"started_at":"2029-11-17T11:00:00Z","start_reason":"power:ignition",
            "duration_s":1234,"distance_m":12345.6,"speed_mps":27.049,"max_speed_mps":33.1,"avg_speed_mps":19.2,"points":1234},
            "last_trip":null}
            """
        return (try? JSONValue.parse(text)) ?? .null
    }()

    func ledger() -> VehicleLedger {
        var l = VehicleLedger()
        l.apply(.tripStarted(TripStarted(id: TripID(11), vehicleID: "golf", reason: "manual", monotonicNanoseconds: 1, bootID: "b")),
                defaultVehicle: "car")
        l.apply(.tripEnded(TripEnded(id: TripID(11), reason: "manual", gpsTime: GPSTime(seconds: 1_900_000_000),
                                     summary: TripSummary(distance: 8_000, duration: 900, maxSpeed: 20, averageSpeed: 9, pointCount: 900))),
                defaultVehicle: "car")
        l.apply(.entry(UserEntry(type: "odometer", action: .add, subject: "golf", fields: .object([("km", .number(50_000))]),
                                 origin: "cli")), defaultVehicle: "car")
        return l
    }

    @Test func everyEntityIsAcceptedByHomeAssistantsSchemaFieldByField() throws {
        let view = try #require(LiveView(live: Self.live, defaultVehicle: "car"))
        let state = VehicleState.state(vehicle: "golf", live: view, ledger: ledger())
        let location = VehicleState.location(view)
        let vehicle = HADiscovery.VehicleInfo(id: "golf", name: "Golf", make: "VW", model: "Golf")
        let messages = HADiscovery.messages(for: vehicle, topics: topics, discoveryPrefix: "homeassistant", includeGarage: true)
        #expect(messages.count == HADiscovery.entities.count)
        var ids = Set<String>()
        for m in messages {
            #expect(m.retain)
            // The garage sensors have no values yet: check them without a state document.
            let garage = HADiscovery.entities.contains { $0.source == .garage && m.topic.contains("_" + $0.key + "/") }
            let problems = HASchema.problems(topic: m.topic, payload: m.payload, state: garage ? nil : state, location: location)
            #expect(problems.isEmpty, "\(m.topic): \(problems)")
            let unique = try #require((try JSONValue.parse(m.payload))["unique_id"]?.stringValue)
            #expect(ids.insert(unique).inserted, "duplicate unique_id \(unique)")
        }
        #expect(state["speed_kmh"]?.doubleValue == 97.4)
        #expect(state["odometer_km"]?.doubleValue == 50_000)  // the reading; nothing driven since
        #expect(state["last_trip_distance_km"]?.doubleValue == 8)
        #expect(state["driving"]?.boolValue == true)
        #expect(location?["gps_accuracy"]?.doubleValue == 17)
    }

    @Test func theValidatorRefusesWhatHomeAssistantRefuses() {
        let good = HADiscovery.messages(for: .init(id: "golf", name: "Golf"), topics: topics, discoveryPrefix: "homeassistant")
        let speed = good.first { $0.topic.contains("speed_kmh") }!
        func broken(_ from: String, _ to: String) -> [String] {
            HASchema.problems(topic: speed.topic, payload: speed.payload.replacingOccurrences(of: from, with: to),
                              state: nil, location: nil)
        }
        #expect(!broken("\"km/h\"", "\"kmh\"").isEmpty)                 // unit not in DEVICE_CLASS_UNITS[speed]
        #expect(!broken("\"measurement\"", "\"total_increasing\"").isEmpty)  // speed only takes measurement
        #expect(!broken("\"device_class\":\"speed\"", "\"device_class\":\"velocity\"").isEmpty)
        #expect(!broken("\"identifiers\"", "\"ids_typo\"").isEmpty)
        #expect(!broken("\"unique_id\"", "\"uniq\"").isEmpty)             // abbreviations are not full names
        #expect(!HASchema.problems(topic: "homeassistant/sensor/a b/c/config", payload: speed.payload, state: nil, location: nil).isEmpty)
    }
}
