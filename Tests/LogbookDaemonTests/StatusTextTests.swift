// SPDX-License-Identifier: MIT
import Foundation
import LogbookTestSupport
import Testing

/// `logbook status` for a person while a trip has no GPS time yet (issue 13 §2): never `?`.
@Suite struct StatusTextTests {
    func liveJSON(trip: String, lastTrip: String = "null") -> String {
        let now = ISO8601DateFormatter().string(from: Date())
        return """
            {"schema":1,"seq":7,"updated_at":"\(now)",
             "gps":{"connected":true,"mode":1,"time":null,"lat":null,"lon":null,"speed_mps":null,"track_deg":null,
                    "eph_m":null,"satellites_used":null,"fixes":0,"rejected":0},
             "trip":\(trip),"last_trip":\(lastTrip)}
            """
    }

    func trip(active: Bool, duration: Int, startedAt: String? = nil) -> String {
        let started = startedAt.map { "\"\($0)\"" } ?? "null"
        let end = active ? "" : #","ended_at":null,"end_reason":"shutdown""#
        return #"{"id":"42","active":\#(active),"vehicle":null,"started_at":\#(started),"start_reason":"service","#
            + #""duration_s":\#(duration),"distance_m":0,"speed_mps":null,"max_speed_mps":0,"avg_speed_mps":0,"points":0\#(end)}"#
    }

    func status(_ json: String) async throws -> String {
        let dir = try TemporaryDirectory("st")
        defer { dir.remove() }
        try json.write(toFile: dir.file("live.json"), atomically: true, encoding: .utf8)
        let r = try await runLogbook(["status", "--runtime-dir", dir.path])
        #expect(r.status == 0, "\(r.err)")
        return r.out
    }

    @Test func aTripWithoutGPSTimeSaysHowLongAgoItStarted() async throws {
        let out = try await status(liveJSON(trip: trip(active: true, duration: 130)))
        #expect(out.contains("started 2 min ago by service, waiting for GPS time"), "\(out)")
        #expect(!out.contains("?"), "\(out)")
    }

    @Test func secondsAndHoursReadNaturally() async throws {
        #expect(try await status(liveJSON(trip: trip(active: true, duration: 42))).contains("started 42 s ago by service, waiting"))
        #expect(try await status(liveJSON(trip: trip(active: true, duration: 3900))).contains("started 1 h 5 min ago by service"))
    }

    @Test func aTripWithGPSTimeShowsIt() async throws {
        let out = try await status(liveJSON(trip: trip(active: true, duration: 130, startedAt: "2026-11-22T10:00:00Z")))
        #expect(out.contains("started 2026-11-22T10:00:00Z by service"), "\(out)")
        #expect(!out.contains("waiting for GPS time"))
    }

    @Test func anEndedTripWithoutTimesHasNoQuestionMarks() async throws {
        let out = try await status(liveJSON(trip: "null", lastTrip: trip(active: false, duration: 5)))
        #expect(out.contains("started without a GPS time by service · ended without a GPS time by shutdown"), "\(out)")
        #expect(!out.contains("?"), "\(out)")
    }
}
