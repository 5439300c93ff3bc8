// SPDX-License-Identifier: MIT
import Foundation
import GRDB
import LogbookCore
import LogbookJournal
import LogbookTestSupport
import Testing

@testable import LogbookStore

/// Privacy zones end to end: the real daemon records the Munich drive from a real gpsd with a
/// zone around its start ("home") and one across its middle ("office"); then every file
/// written from it — journal segments, the index, GPX/GeoJSON/CSV exports and live.json as it
/// was during the drive — is scanned byte by byte for a coordinate inside either zone.
@Suite struct PrivacyZoneDriveTests {
    static let log = "munich-gps.nmea"
    static let zones = [
        PrivacyZone(name: "home", latitude: 48.180848, longitude: 11.565158, radius: 400),
        PrivacyZone(name: "office", latitude: 48.144153, longitude: 11.571073, radius: 250),
    ]

    func inside(_ lat: Double, _ lon: Double) -> String? {
        guard (-90...90).contains(lat), (-180...180).contains(lon), lat != 0 || lon != 0 else { return nil }
        return PrivacyZone.containing(latitude: lat, longitude: lon, in: Self.zones)?.name
    }

    @Test(.timeLimit(.minutes(5)))
    func nothingInsideAZoneReachesAnyFile() async throws {
        let dir = try TemporaryDirectory("privacy")
        defer { dir.remove() }
        // The drive has fixes inside both zones (else this test could not fail).
        let fixes = NMEAReader.fixes(in: try String(contentsOfFile: TestPaths.gpsLog(Self.log), encoding: .utf8))
        let insideFixes = fixes.filter { inside($0.latitude, $0.longitude) != nil }
        #expect(Set(insideFixes.compactMap { inside($0.latitude, $0.longitude) }) == ["home", "office"])

        let (config, snapshots) = try await record(dir)
        let journal = dir.file("state/journal")
        let index = try TripIndex.open(path: dir.file("state/cache/index.sqlite"), journalDirectory: journal)
        _ = try index.catchUp()
        let trip = try #require(try index.trips(matching: TripQuery()).first)
        let points = try index.points(of: trip.id)
        // The corners of the point chunks' bounding boxes are stored side by side (max_lat,
        // min_lon): corners, not positions, and one may fall inside a zone a chunk skirts.
        let corners = try index.chunkCorners()
        try index.close()
        #expect(points.count > 1_000)
        #expect(points.allSatisfy { inside($0.latitude, $0.longitude) == nil })

        // The journal names the zones the trip left and entered, in order.
        let signals = try JournalReader(directory: journal).entries().compactMap { e -> String? in
            guard case .signal(let s) = e.record, s.source.hasPrefix("privacy-zone:") else { return nil }
            return "\(s.source)=\(s.on ? "in" : "out")"
        }
        // (The drive leaves home, touches its edge once more two minutes in, then crosses the office.)
        #expect(
            signals == ["privacy-zone:home=out", "privacy-zone:home=in", "privacy-zone:home=out", "privacy-zone:office=in", "privacy-zone:office=out"],
            "\(signals)")
        // live.json while the car was in a zone: the zone's name and no position.
        let named = snapshots.compactMap { ($0["in_privacy_zone"] as? String) }
        #expect(Set(named) == ["home", "office"], "\(Set(named))")
        for s in snapshots where s["in_privacy_zone"] is String {
            let gps = s["gps"] as? [String: Any]
            #expect(gps?["lat"] is NSNull && gps?["lon"] is NSNull)
        }
        #expect((snapshots.last?["last_trip"] as? [String: Any])?["start_place"] as? String == "home")

        // Exports, through the CLI as a person runs them.
        for format in ["gpx", "geojson", "csv"] {
            let out = dir.file("trip.\(format)")
            let status = try run(TestPaths.product("logbook"), ["--config", config, "trips", "export", trip.id.description, "--format", format, "-o", out])
            #expect(status == 0)
        }
        try snapshots.enumerated().forEach { i, s in
            try JSONSerialization.data(withJSONObject: s).write(to: URL(fileURLWithPath: dir.file("live-\(i).json")))
        }

        var files: [String] = []
        // Everything but the configuration file (the zones' own centres are in it).
        for root in [dir.file("state"), dir.file("run"), dir.path] {
            for name in (FileManager.default.enumerator(atPath: root)?.allObjects as? [String]) ?? [] {
                let path = root + "/" + name
                var isDir: ObjCBool = false
                if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), !isDir.boolValue, !files.contains(path),
                    path != config
                {
                    files.append(path)
                }
            }
        }
        let scanner = CoordinateScanner { lat, lon in corners.contains([lat, lon]) ? nil : inside(lat, lon) }
        var found = 0, coordinates = 0
        for path in files {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            let hits = scanner.scan(bytes)
            coordinates += hits.total
            found += hits.inside.count
            #expect(hits.inside.isEmpty, "\(path): \(hits.inside.prefix(3))")
        }
        // The scanner does see coordinates: those outside the zones, in every form.
        #expect(coordinates > 3 * points.count)
        print("privacy: \(files.count) files scanned (journal, index, exports, \(snapshots.count) live.json snapshots): \(coordinates) coordinates found, \(found) inside a zone; \(insideFixes.count) of the drive's fixes were inside")
    }

    /// Records the drive (power source on throughout), keeping every live.json it sees.
    func record(_ dir: TemporaryDirectory) async throws -> (String, [[String: Any]]) {
        let supply = dir.file("sys/class/power_supply/ACAD")
        try FileManager.default.createDirectory(atPath: supply, withIntermediateDirectories: true)
        try "1\n".write(toFile: supply + "/online", atomically: true, encoding: .utf8)
        let gpsd = try GPSDReplay(log: TestPaths.gpsLog(Self.log), realtime: 20)
        defer { gpsd.stop() }
        let config = dir.file("logbookd.toml")
        var text = """
            state_dir = "\(dir.file("state"))"
            runtime_dir = "\(dir.file("run"))"
            [gpsd]
            address = "\(gpsd.address)"
            [journal]
            commit_interval_s = 1
            [live]
            interval_s = 0.2
            [[source]]
            type = "power_supply"
            supply = "ACAD"
            sysfs_root = "\(dir.file("sys"))"
            poll_interval_s = 0.1

            """
        for z in Self.zones {
            text += "[[privacy_zone]]\nname = \"\(z.name)\"\nlat = \(z.latitude)\nlon = \(z.longitude)\nradius_m = \(z.radius)\n"
        }
        try text.write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(arguments: ["--config", config], environment: ["LOGBOOKD_DEBUG_CLOCK_SCALE": "20"])
        var snapshots: [[String: Any]] = []
        let finished = Task { await gpsd.waitUntilFinished(timeout: .seconds(240)) }
        let deadline = ContinuousClock.now + .seconds(240)
        while ContinuousClock.now < deadline {
            if let doc = readJSONFile(dir.file("run/live.json")) { snapshots.append(doc) }
            if gpsd.process.isRunning == false { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        await finished.value
        try "0\n".write(toFile: supply + "/online", atomically: true, encoding: .utf8)
        for _ in 0..<100 {
            if let doc = readJSONFile(dir.file("run/live.json")) {
                snapshots.append(doc)
                if doc["last_trip"] is [String: Any] { break }
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        _ = await daemon.stop()
        return (config, snapshots)
    }

    func run(_ executable: String, _ arguments: [String]) throws -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        try p.run()
        p.waitUntilExit()
        return p.terminationStatus
    }
}

extension TripIndex {
    /// Every (max_lat, min_lon) pair of the point chunks, as stored.
    func chunkCorners() throws -> Set<[Double]> {
        try pool.read { db in
            var corners = Set<[Double]>()
            for row in try Row.fetchAll(db, sql: "SELECT max_lat, min_lon FROM point_chunks") {
                if let lat = row[0] as Double?, let lon = row[1] as Double? { corners.insert([lat, lon]) }
            }
            return corners
        }
    }
}
