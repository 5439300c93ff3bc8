// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookJournal
import LogbookRecords
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

    @Test func theStateCarriesEverySensorsKeyAndUnknownsAsNull() throws {
        let view = try #require(LiveView(live: Self.live, defaultVehicle: "car"))
        let feed = LedgerFeed()
        feed.entry(VehicleRecord(name: "Golf"), subject: "golf")
        var state = VehicleState.state(vehicle: "golf", live: view, figures: feed.view()["golf"])
        // A car without a finished trip: numeric unknowns are null (HA's numeric sensors take
        // "None"); the timestamp is not sent on its topic at all.
        #expect(state["last_trip_end"]?.isNull == true && state["last_trip_distance_km"]?.isNull == true)
        #expect(state["last_trip_withdrawn"]?.boolValue == false)
        #expect(VehicleState.lastTrip(feed.view()["golf"]) == nil)
        #expect(state["speed_kmh"]?.doubleValue == 97.4 && state["driving"]?.boolValue == true)
        for e in HADiscovery.entities where e.component == "sensor" && e.key != "service_due" {
            #expect(state[e.key] != nil, "state lacks \(e.key)")
        }
        feed.trip(11, "golf", 8_000, hour: 1)
        feed.entry(OdometerRecord(vehicle: "golf", at: feed.time(hour: 0), odometerKm: 50_000), subject: "golf@0")
        state = VehicleState.state(vehicle: "golf", live: view, figures: feed.view()["golf"])
        #expect(state["odometer_km"]?.doubleValue == 50_008)  // the reading plus the trip after it
        #expect(state["last_trip_distance_km"]?.doubleValue == 8)
        #expect(VehicleState.lastTrip(feed.view()["golf"])?["end"]?.stringValue == ISO8601.format(feed.time(hour: 1.5)))
        #expect(VehicleState.location(view)?["gps_accuracy"]?.doubleValue == 17)
    }

    @Test func everyEntityHasAUniqueIDAndTheTimestampReadsItsOwnTopic() throws {
        let vehicle = HADiscovery.VehicleInfo(id: "golf", name: "Golf", make: "VW", model: "Golf")
        let messages = HADiscovery.messages(for: vehicle, topics: topics, discoveryPrefix: "homeassistant")
        #expect(messages.count == HADiscovery.entities.count)
        var ids = Set<String>()
        for m in messages {
            #expect(m.retain)
            let payload = try JSONValue.parse(m.payload)
            let unique = try #require(payload["unique_id"]?.stringValue)
            #expect(ids.insert(unique).inserted, "duplicate unique_id \(unique)")
        }
        let timestamp = try #require(messages.first { $0.topic.contains("_last_trip_end/") })
        let payload = try JSONValue.parse(timestamp.payload)
        #expect(payload["state_topic"]?.stringValue == topics.vehicleLastTrip("golf"))
        #expect(payload["availability_mode"]?.stringValue == "all" && payload["availability_topic"] == nil)
        let removals = HADiscovery.removals(for: "golf", topics: topics, discoveryPrefix: "homeassistant")
        #expect(removals.map(\.topic) == messages.map(\.topic) && removals.allSatisfy { $0.payload.isEmpty && $0.retain })
    }
}
