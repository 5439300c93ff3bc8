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
    static let pace = 40
    static let zones = [
        PrivacyZone(name: "home", latitude: 48.180848, longitude: 11.565158, radius: 400),
        PrivacyZone(name: "office", latitude: 48.144153, longitude: 11.571073, radius: 250),
    ]

    func inside(_ lat: Double, _ lon: Double) -> String? {
        guard (-90...90).contains(lat), (-180...180).contains(lon), lat != 0 || lon != 0 else { return nil }
        return PrivacyZone.first(containingLatitude: lat, longitude: lon, in: Self.zones)?.name
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

        try namedPlaces(config: config, trip: trip)
    }

    /// `logbook places` on the recording (no daemon: the CLI writes the journal itself), and
    /// the names `trips show` gives the trip's ends: the zone it started in; of two circles
    /// around its end the one whose centre is nearer; after a removal, coordinates.
    func namedPlaces(config: String, trip: TripOverview) throws {
        let end = try #require(trip.end)
        let logbook = TestPaths.product("logbook")
        func places(_ args: [String]) throws -> Int32 { try run(logbook, ["--config", config, "places"] + args) }
        // Two circles around the end, both clear of the start: one centred on it, one bigger
        // centred r/2 north of it (containing it too).
        let start = try #require(trip.start)
        let apart = PrivacyZone(name: "", latitude: start.latitude, longitude: start.longitude, radius: 0).distance(latitude: end.latitude, longitude: end.longitude)
        let r = max(10, min(150, apart / 3))
        let near = "\(end.latitude),\(end.longitude)", far = "\(end.latitude + r / 2 / 111_200),\(end.longitude)"
        #expect(try places(["add", "depot", "--at", near, "--radius", "\(r)", "--name", "Depot Nord"]) == 0)
        #expect(try places(["add", "district", "--at", far, "--radius", "\(1.5 * r)"]) == 0)
        #expect(try places(["add", "depot", "--at", near]) == 64, "a second add of the same id")
        #expect(try places(["add", "bad", "--at", "95,7"]) == 64)
        #expect(try places(["edit", "nowhere", "--radius", "50"]) == 64)
        func shown() throws -> [String: Any] {
            let out = Pipe()
            let p = Process()
            p.executableURL = URL(fileURLWithPath: logbook)
            p.arguments = ["--config", config, "trips", "show", trip.id.description, "--json"]
            p.standardOutput = out
            try p.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            return (try JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        }
        var t = try shown()
        #expect(t["start_place"] as? String == "home")
        #expect(t["end_place"] as? String == "Depot Nord", "the nearer centre wins over the bigger circle")
        #expect(try places(["remove", "depot"]) == 0)
        t = try shown()
        #expect(t["end_place"] as? String == "district")
        #expect(try places(["remove", "district"]) == 0)
        t = try shown()
        #expect(t["end_place"] is NSNull, "no bundle configured here: coordinates")
        let verify = Process(), out = Pipe()
        verify.executableURL = URL(fileURLWithPath: logbook)
        verify.arguments = ["--config", config, "verify"]
        verify.standardOutput = out
        try verify.run()
        let report = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        verify.waitUntilExit()
        #expect(verify.terminationStatus == 0, "\(report)")
        print("places: named places: add, nearest-containing, remove, through the journal without a daemon; trip \(trip.id): home → Depot Nord → district → coordinates")
    }

    /// Records the drive (power source on throughout), keeping every live.json it sees.
    func record(_ dir: TemporaryDirectory) async throws -> (String, [[String: Any]]) {
        let supply = dir.file("sys/class/power_supply/ACAD")
        try FileManager.default.createDirectory(atPath: supply, withIntermediateDirectories: true)
        try "1\n".write(toFile: supply + "/online", atomically: true, encoding: .utf8)
        // 40x: the 30-minute drive in 45 s; a live.json every 0.2 s is still one per 8 s of
        // driving, several in each zone (the office crossing alone takes over a minute).
        let gpsd = try GPSDReplay(log: TestPaths.gpsLog(Self.log), realtime: Double(Self.pace))
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
        let daemon = try DaemonProcess(arguments: ["--config", config], environment: ["LOGBOOKD_DEBUG_CLOCK_SCALE": "\(Self.pace)"])
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
