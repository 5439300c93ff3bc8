// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookJournal
import LogbookTestSupport
import Testing

@testable import LogbookWeb

/// The web app in front of a real logbookd recording a gpsd replay: live state, the event
/// stream, one watcher for many browsers, and writes through the control socket.
@Suite(.serialized) struct LiveServerTests {
    @Test(.timeLimit(.minutes(3)))
    func manyBrowsersShareOneWatcherAndWritesReachTheDaemon() async throws {
        let dir = try TemporaryDirectory("wlv")
        defer { dir.remove() }
        let daemon = try await DaemonUnderTest(dir)
        try await WebHarness.run(WebHarness.configuration(dir)) { app, client in
            // /api/live is the daemon's document.
            let live = try await client.request("GET", "/api/live")
            #expect(live.status == 200 && live.header("Content-Type") == "application/json", "\(live)")
            #expect(live.json?["schema"] == .number(1))

            // A session cookie with its CSRF token.
            let session = try await client.request("GET", "/api/session")
            let cookie = try #require(session.sessionCookie)
            #expect(session.headers("Set-Cookie").first?.contains("HttpOnly; SameSite=Strict") == true)
            let csrf = try #require(session.json?["csrf_token"]?.stringValue)
            let auth = ["Cookie": "logbook_session=\(cookie)"]

            // Start a trip (the daemon checks the vehicle), and watch the distance rise.
            let unknown = try await client.request(
                "POST", "/api/trip/start", headers: auth.merging(["X-CSRF-Token": csrf, "Content-Type": "application/json"]) { a, _ in a },
                body: #"{"vehicle":"polo"}"#)
            #expect(unknown.status == 422 && unknown.json?["error"]?["code"] == .string("unknown_vehicle"), "\(unknown)")
            let started = try await client.request(
                "POST", "/api/trip/start", headers: auth.merging(["X-CSRF-Token": csrf, "Content-Type": "application/json"]) { a, _ in a },
                body: #"{"vehicle":"golf"}"#)
            // logbookd answers before its live state shows the trip (its reply's "trip" may be
            // null): the live state is where the trip appears.
            #expect(started.status == 200 && started.json?["ok"] == .bool(true), "\(started)")
            #expect(
                try await eventually(.seconds(30)) {
                    let doc = try await client.request("GET", "/api/live").json
                    return doc?["trip"]?["vehicle"]?["id"] == .string("golf") && (doc?["trip"]?["distance_m"]?.doubleValue ?? 0) > 0
                }, "the trip never showed up in the live state with a distance")

            let before = WebHarness.socketCount(of: daemon.daemon.pid)
            let streams = try await client.holdEventStreams(30, headers: auth)
            defer { streams.forEach { close($0) } }
            #expect(await eventually { app.live.subscriberCount == 30 })
            // 60 events: at the replay's 10x, a minute of the drive, longer than a red light in
            // Munich (the distance stands still while the car waits).
            let events = try await client.events("/api/live/events", count: 60, headers: auth, timeout: 30)
            #expect(events.count == 60)
            let docs = events.compactMap { try? JSONValue.parse($0) }
            let distances = docs.compactMap { $0["trip"]?["distance_m"]?.doubleValue }
            #expect(distances.count == 60 && distances.last! > distances.first!, "\(distances)")
            // 31 browsers, one watch connection on the daemon's side.
            #expect(app.live.watchConnections == 1)
            #expect(WebHarness.socketCount(of: daemon.daemon.pid) == before + 1)

            // Writes need the CSRF token; with it, Stop ends the trip "manual".
            let noToken = try await client.request("POST", "/api/trip/stop", headers: auth)
            #expect(noToken.status == 403 && noToken.json?["error"]?["code"] == .string("csrf"), "\(noToken)")
            // One character changed (a token that starts with "0" gets a "1").
            let wrong = (csrf.hasPrefix("0") ? "1" : "0") + csrf.dropFirst()
            let wrongToken = try await client.request("POST", "/api/trip/stop", headers: auth.merging(["X-CSRF-Token": wrong]) { a, _ in a })
            #expect(wrongToken.status == 403)
            let crossSite = try await client.request(
                "POST", "/api/trip/stop", headers: auth.merging(["X-CSRF-Token": csrf, "Origin": "http://evil.example"]) { a, _ in a })
            #expect(crossSite.status == 403 && crossSite.json?["error"]?["code"] == .string("cross_origin"))
            let stopped = try await client.request("POST", "/api/trip/stop", headers: auth.merging(["X-CSRF-Token": csrf]) { a, _ in a })
            #expect(stopped.status == 200 && stopped.json?["ok"] == .bool(true), "\(stopped)")
            #expect(
                try await eventually(.seconds(10)) {
                    let doc = try await client.request("GET", "/api/live").json
                    return doc?["trip"]?.isNull == true && doc?["last_trip"]?["end_reason"] == .string("manual")
                }, "the live state never showed the trip ended manual")
            let again = try await client.request("POST", "/api/trip/stop", headers: auth.merging(["X-CSRF-Token": csrf]) { a, _ in a })
            #expect(again.status == 409 && again.json?["error"]?["code"] == .string("no_trip"), "\(again)")

            // The form on the Live page does the same, answered with a redirect.
            let form = try await client.request(
                "POST", "/trip/start",
                headers: auth.merging(["Content-Type": "application/x-www-form-urlencoded"]) { a, _ in a },
                body: "csrf=\(csrf)&vehicle=golf")
            #expect(form.status == 303 && form.header("Location") == "/?done=started", "\(form)")
            let page = try await client.request("GET", "/", headers: auth)
            #expect(page.status == 200 && page.text.contains("id=\"stop\"") && page.text.contains("Recording"))
            #expect(page.header("Content-Security-Policy")?.contains("script-src 'self'") == true)
        }
        await daemon.stop()
        let trips = try JournalReader(directory: dir.file("state/journal")).trips()
        #expect(trips.count == 2)
        #expect(trips.first?.startReason == "manual" && trips.first?.endReason == "manual" && trips.first?.vehicleID == "golf")
    }

    @Test(.timeLimit(.minutes(2)))
    func withoutTheDaemonTheAppFollowsLiveJSONAndAnswers503ForWrites() async throws {
        let dir = try TemporaryDirectory("wof")
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.file("run"), withIntermediateDirectories: true)
        try await WebHarness.run(WebHarness.configuration(dir)) { app, client in
            let none = try await client.request("GET", "/api/live")
            #expect(none.status == 503 && none.json?["error"]?["code"] == .string("unavailable"), "\(none)")
            let page = try await client.request("GET", "/")
            #expect(page.status == 200 && page.text.contains("logbookd is not running"))
            // A live.json appears (a daemon whose socket is gone): streamed from the file.
            let doc = #"{"schema":1,"seq":7,"updated_at":"2029-11-17T11:22:25Z","gps":{"connected":false},"trip":null,"last_trip":null}"#
            try doc.write(toFile: dir.file("run/live.json"), atomically: true, encoding: .utf8)
            let events = try await client.events("/api/live/events", count: 1, timeout: 10)
            #expect(events == [doc])
            #expect(try await client.request("GET", "/api/live").text == doc)
            let session = try await client.request("GET", "/api/session")
            let csrf = try #require(session.json?["csrf_token"]?.stringValue)
            let stop = try await client.request(
                "POST", "/api/trip/stop", headers: ["Cookie": "logbook_session=\(session.sessionCookie ?? "")", "X-CSRF-Token": csrf])
            #expect(stop.status == 503 && stop.json?["error"]?["code"] == .string("daemon_unreachable"), "\(stop)")
            #expect(app.live.watchConnections == 0)
        }
    }
}
