// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookJournal
import LogbookRecords
import LogbookTestSupport
import LogbookUplink
import Logging
import Testing

/// Place events (`place:ID` signals, as logbookd journals them) reach the OwnTracks Recorder
/// (`scripts/interop-receiver.py`, schema-checked) as `_type: transition`, with or without an
/// open trip, and after a restart past the place entries; a privacy zone's events are not sent
/// (the schema requires a position).
@Suite(.serialized) struct PlaceTransitionTests {
    static func signal(_ id: String, on: Bool, at time: GPSTime) -> JournalRecord {
        .signal(SignalEvent(source: "place:\(id)", vehicleID: "golf", on: on, gpsTime: time, monotonicNanoseconds: 1))
    }

    static func place(_ id: String, _ name: String, _ fix: Fix, radius: Double, created: GPSTime) -> JournalRecord {
        .entry(UserEntry(PlaceRecord(name: name, latitude: fix.latitude, longitude: fix.longitude, radius: radius)
            .entry(subject: id, origin: "test"), recordedAt: created))
    }

    @Test func placeEventsBecomeTransitionsAndAPrivacyZoneGivesNoPosition() async throws {
        let dir = try TemporaryDirectory("ottrans")
        defer { dir.remove() }
        let text = try String(contentsOfFile: TestPaths.gpsLog("munich-gps.nmea"), encoding: .isoLatin1)
        let fixes = Array(NMEAReader.fixes(in: text).filter { $0.mode.rawValue >= 2 }.prefix(300))
        let first = try #require(fixes.first), last = try #require(fixes.last), middle = fixes[150]
        let zone = GeoCircle(name: "gran", latitude: middle.latitude, longitude: middle.longitude, radius: 30)
        #expect(Geodesy.distance(first, middle) > 200 && Geodesy.distance(last, middle) > 200, "the zone lies between the places")
        let created = GPSTime(nanoseconds: first.time.nanoseconds - 86_400_000_000_000)
        let second: Int64 = 1_000_000_000
        // Home is left before the trip's first point, the zone crossed during the trip and the
        // office entered after the trip ended: no event depends on an open trip.
        let journal = try await JournalFixture.write(
            stateDirectory: dir.file("state"), limit: fixes.count,
            beforeStart: { _ in
                [Self.place("home", "Home", first, radius: 150, created: created),
                 Self.place("office", "Office", last, radius: 200, created: created),
                 // A named place of the zone's id: the configured zone still wins (as in logbookd).
                 Self.place("gran", "gran", middle, radius: 30, created: created),
                 Self.signal("gran", on: true, at: GPSTime(nanoseconds: first.time.nanoseconds - 600 * second)),
                 Self.signal("gran", on: false, at: GPSTime(nanoseconds: first.time.nanoseconds - 300 * second)),
                 Self.signal("home", on: false, at: first.time)]
            },
            beforeEnd: { _ in
                [Self.signal("gran", on: true, at: middle.time), Self.signal("gran", on: false, at: fixes[160].time)]
            },
            afterEnd: { _ in [Self.signal("office", on: true, at: GPSTime(nanoseconds: last.time.nanoseconds + 20 * second))] })
        let recorder = try InteropReceiver("owntracks", log: dir.file("owntracks.ndjson"))
        try writeUplinkConfig(dir.file("u.toml"), state: dir.file("uplink"), journal: journal.journalDirectory, extra: """
            [uplink.owntracks]
            url = "http://127.0.0.1:\(recorder.port)/pub"
            user = "car"
            device = "golf"
            [[privacy_zone]]
            name = "gran"
            lat = \(zone.latitude)
            lon = \(zone.longitude)
            radius_m = \(zone.radius)

            """)
        let uplink = try UplinkRun.start(config: dir.file("u.toml"))
        defer { _ = uplink.process.stop() }
        func stored(_ type: String) -> [JSONValue] {
            recorder.entries.filter { $0["stored"]?.boolValue == true && $0["message"]?["_type"]?.stringValue == type }
        }
        // The office's enter is the journal's last record: once it arrived, everything was sent.
        #expect(await eventually(.seconds(60)) { stored("transition").contains { $0["message"]?["desc"]?.stringValue == "Office" } },
                "\(uplink.process.log.suffix(2000))")
        #expect(stored("location").count == journal.points.count)
        let transitions = stored("transition")
        let valid = transitions.filter { $0["valid"]?.boolValue == true }.count
        let zoneLeaks = transitions.filter { e in
            guard let m = e["message"], let lat = m["lat"]?.doubleValue, let lon = m["lon"]?.doubleValue else { return false }
            return m["desc"]?.stringValue == "gran" || Geodesy.distance(fromLatitude: lat, longitude: lon, toLatitude: zone.latitude, longitude: zone.longitude) <= zone.radius
        }.count
        print("place-events: owntracks: \(transitions.count) transitions, \(valid) schema-valid, \(zoneLeaks) with a privacy zone's position")
        #expect(valid == transitions.count && zoneLeaks == 0)
        let summary = transitions.compactMap { e -> String? in
            guard let m = e["message"], let ev = m["event"]?.stringValue, let d = m["desc"]?.stringValue, let t = m["tst"]?.doubleValue,
                  let w = m["wtst"]?.doubleValue, m["t"]?.stringValue == "c", m["tid"]?.stringValue == "lf" else { return nil }
            return "\(ev) \(d) \(Int64(t)) \(Int64(w))"
        }
        let officeTime = last.time.wholeSeconds + 20
        #expect(summary == ["leave Home \(first.time.wholeSeconds) \(created.wholeSeconds)", "enter Office \(officeTime) \(created.wholeSeconds)"])
        // Where known, the car's position: none before the first point (the place's centre,
        // `acc` its radius), the trip's last point after it ended.
        let leave = try #require(transitions.first?["message"]), enter = try #require(transitions.last?["message"])
        #expect(abs((leave["lat"]?.doubleValue ?? 0) - first.latitude) < 1e-7 && leave["acc"]?.doubleValue == 150)
        let lastPoint = try #require(journal.points.last?.1)
        #expect(abs((enter["lat"]?.doubleValue ?? 0) - lastPoint.latitude) < 1e-7 && abs((enter["lon"]?.doubleValue ?? 0) - lastPoint.longitude) < 1e-7)
        #expect(uplink.process.stop() == 0, "\(uplink.process.log)")

        // A restart past the place entries (the cursor is beyond them): the office is still
        // known, from the places saved with the cursor.
        let writer = try JournalWriter.open(
            JournalConfiguration(directory: journal.journalDirectory, stateDirectory: journal.stateDirectory), logger: Logger(label: "test"))
        _ = try writer.append(Self.signal("office", on: false, at: GPSTime(nanoseconds: last.time.nanoseconds + 600 * second)))
        try await writer.close()
        let again = try UplinkRun.start(config: dir.file("u.toml"))
        defer { _ = again.process.stop() }
        #expect(await eventually(.seconds(30)) { stored("transition").count == 3 }, "\(again.process.log.suffix(2000))")
        let after = try #require(stored("transition").last?["message"])
        #expect(after["event"]?.stringValue == "leave" && after["desc"]?.stringValue == "Office" && after["wtst"]?.doubleValue == Double(created.wholeSeconds))
        #expect(again.process.stop() == 0, "\(again.process.log)")
    }
}
