// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookTestSupport
import Testing

/// `logbook fuel stations` on fill-ups typed with the CLI at three stations (jittered positions,
/// different spellings), and `fuel add` without a position during a paced replay: the car's
/// live fix while logbookd runs, the end of the last trip once it stopped.
@Suite(.serialized, .timeLimit(.minutes(5))) struct FuelStationsCLITests {
    /// (time, station, lat, lon, litres, price, currency); the same stations as the garage
    /// module's unit test, hand-computed there.
    static let fills: [(String, String?, Double?, Double?, Double, Double, String)] = [
        ("2026-01-05T10:00:00Z", "Aral Leopoldstraße", 48.16000, 11.58500, 40, 72.00, "EUR"),
        ("2026-01-20T10:00:00Z", "Shell Ingolstädter Str.", 48.20000, 11.60000, 45, 76.50, "EUR"),
        ("2026-02-05T10:00:00Z", "ARAL Leopoldstrasse", 48.16050, 11.58550, 35, 63.35, "EUR"),
        ("2026-02-20T10:00:00Z", "SHELL Ingolstadter Str", 48.20090, 11.60000, 40, 70.00, "EUR"),
        ("2026-03-05T10:00:00Z", nil, 48.16010, 11.58480, 30, 55.20, "EUR"),
        ("2026-03-20T10:00:00Z", "Shell Ingolstädter Str.", 48.19980, 11.60020, 30, 57.00, "CHF"),
        ("2026-03-25T10:00:00Z", "Esso Ingolstädter Str.", 48.20100, 11.60150, 50, 90.00, "EUR"),
        ("2026-03-28T10:00:00Z", "esso ingolstadter str", 48.20110, 11.60140, 10, 18.50, "EUR"),
        ("2026-03-29T10:00:00Z", "Aral Leopoldstraße", nil, nil, 20, 36.00, "EUR"),
    ]

    /// With `service`, a `service` source holds a trip of golf open while logbookd runs.
    func writeConfig(_ dir: TemporaryDirectory, gpsd: String = "127.0.0.1:1", service: Bool = false) throws {
        try """
            state_dir = "\(dir.file("state"))"
            runtime_dir = "\(dir.file("run"))"
            [gpsd]
            address = "\(gpsd)"
            [journal]
            commit_interval_s = 1
            [control]
            group = ""
            [shutdown]
            logind_inhibitor = false
            [[vehicle]]
            id = "golf"
            name = "Golf"
            \(service ? "[[source]]\ntype = \"service\"\nvehicle = \"golf\"" : "")

            """.write(toFile: dir.file("logbookd.toml"), atomically: true, encoding: .utf8)
    }

    @Test func threeStationsFromJitteredFillUpsWithTheHandComputedFigures() throws {
        let dir = try TemporaryDirectory("lb-stations")
        defer { dir.remove() }
        try writeConfig(dir)
        let cli = CLI(config: dir.file("logbookd.toml"))
        for (i, f) in Self.fills.enumerated() {
            var args = ["fuel", "add", "--vehicle", "golf", "--at", f.0, "--odometer", String(10_000 + i * 500), "--litres", "\(f.4)",
                        "--price", "\(f.5)", "--currency", f.6]
            if let s = f.1 { args += ["--station", s] }
            if let lat = f.2, let lon = f.3 { args += ["--lat", "\(lat)", "--lon", "\(lon)"] } else { args.append("--no-position") }
            try cli.ok(args)
        }
        // A duplicate typed by mistake and voided does not count.
        try cli.ok(["fuel", "add", "--vehicle", "golf", "--at", "2026-03-26T10:00:00Z", "--odometer", "13200", "--litres", "99",
                    "--price", "999", "--currency", "EUR", "--station", "Esso Ingolstädter Str.", "--lat", "48.201", "--lon", "11.6015"])
        try cli.ok(["fuel", "void", "golf@20260326T100000Z"])

        let doc = try JSONValue.parse(Array(try cli.ok(["fuel", "stations", "--geojson"]).out.utf8))
        guard doc["type"]?.stringValue == "FeatureCollection", case .array(let features)? = doc["features"] else {
            Issue.record("not a FeatureCollection: \(doc.serialized)")
            return
        }
        let props = features.compactMap { $0["properties"] }
        // No daemon and no trip: newest visit first.
        #expect(props.map { $0["name"]?.stringValue } == ["esso ingolstadter str", "Shell Ingolstädter Str.", "ARAL Leopoldstrasse"])
        #expect(props.map { $0["visits"]?.doubleValue } == [2, 3, 3])
        #expect(props.map { $0["litres"]?.doubleValue } == [60, 115, 105])
        #expect(props.map { $0["price_per_litre"]?["EUR"]?.doubleValue } == [1.8083, 1.7235, 1.8148])
        #expect(props[1]["price_per_litre"]?["CHF"]?.doubleValue == 1.9)
        #expect(props[2]["last_visit"]?.stringValue == "2026-03-05T10:00:00Z")
        guard case .array(let aral)? = features[2]["geometry"]?["coordinates"] else { return }
        #expect(aral.map(\.doubleValue) == [11.5851, 48.1602], "longitude first, the members' mean")

        let json = try JSONValue.parse(Array(try cli.ok(["fuel", "stations", "--json"]).out.utf8))
        #expect(json["unplaced"]?.doubleValue == 1 && json["from"]?.isNull == true)
        let text = try cli.ok(["fuel", "stations"]).out
        #expect(text.contains("1.900 CHF, 1.724 EUR") && text.contains("1 fill-up has no position."), "\(text)")
        print("fuel-stations: 3 stations from 10 fill-ups (1 voided, 1 without position): "
              + props.map { "\($0["name"]?.stringValue ?? "-") \(Int($0["visits"]?.doubleValue ?? 0)) visits \($0["litres"]?.doubleValue ?? 0) L" }.joined(separator: "; "))

        // Outside WGS-84: refused naming the field, nothing written.
        for (field, args) in [("lat", ["--lat", "91", "--lon", "11"]), ("lon", ["--lat", "48", "--lon", "-180.5"])] {
            let refused = try cli.run(["fuel", "add", "--vehicle", "golf", "--odometer", "20000", "--litres", "10", "--price", "15",
                                       "--currency", "EUR"] + args)
            #expect(refused.status == 64 && refused.err.contains(field), "\(refused.status) \(refused.err)")
        }
        #expect(try cli.ok(["fuel", "list", "--json"]).out.components(separatedBy: "\"id\"").count - 1 == 9, "the nine kept fill-ups, none of the refused")
        let unknown = try cli.run(["fuel", "stations", "--vehicle", "nope"])
        #expect(unknown.status == 64 && unknown.err.contains("nope"))
    }

    @Test func aFillUpWithoutAPositionTakesTheLiveFixThenTheLastTripsEnd() async throws {
        let dir = try TemporaryDirectory("lb-fillpos")
        defer { dir.remove() }
        let gpsd = try GPSDReplay(log: TestPaths.gpsLog("munich-gps.nmea"), realtime: 8)
        defer { gpsd.stop() }
        try writeConfig(dir, gpsd: gpsd.address, service: true)
        let cli = CLI(config: dir.file("logbookd.toml"))
        let daemon = try DaemonProcess(arguments: ["--config", cli.config],
                                       environment: ["LOGBOOKD_DEBUG_CLOCK_SCALE": "8", "LOGBOOKD_TRIP_TRUST_SYSTEM_CLOCK": "false"])
        func gps() -> (lat: Double, lon: Double)? {
            guard let g = readJSONFile(dir.file("run/live.json"))?["gps"] as? [String: Any], let lat = g["lat"] as? Double,
                  let lon = g["lon"] as? Double else { return nil }
            return (lat, lon)
        }
        // Once the car drives (300 m into the trip): the position changes while the command runs.
        #expect(await eventually(.seconds(90)) { ((readJSONFile(dir.file("run/live.json"))?["trip"] as? [String: Any])?["distance_m"] as? Double ?? 0) > 300 && gps() != nil },
                "\(daemon.log.suffix(1500))")
        guard let before = gps() else {
            Issue.record("no fix in live.json")
            return
        }
        let added = try cli.ok(["fuel", "add", "--vehicle", "golf", "--odometer", "1000", "--litres", "30", "--price", "50", "--currency", "CHF"])
        let after = gps() ?? before
        #expect(added.out.contains("from the car's live fix"), "\(added.out)")
        let fill = try #require(try fillPositions(cli).first)
        let moved = Geodesy.distance(fromLatitude: before.lat, longitude: before.lon, toLatitude: after.lat, longitude: after.lon)
        let off = Geodesy.distance(fromLatitude: before.lat, longitude: before.lon, toLatitude: fill.lat, longitude: fill.lon)
        #expect(off <= moved + 1, "the fill-up is where the car was while the command ran: \(off) m vs \(moved) m")

        // logbookd stops (the trip ends): the next fill-up takes where the last trip ended.
        #expect(await daemon.stop()?.0 == 0)
        let trips = try JSONValue.parse(Array(try cli.ok(["trips", "list", "--json", "--limit", "1"]).out.utf8))
        guard case .array(let list)? = trips["trips"], let trip = list.first?["id"]?.stringValue.flatMap(Double.init) else {
            Issue.record("no trip: \(trips.serialized)")
            return
        }
        let shown = try JSONValue.parse(Array(try cli.ok(["trips", "show", String(Int(trip)), "--json"]).out.utf8))
        let endGeo = try #require(shown["links"]?["end"]?["geo"]?.stringValue)
        let second = try cli.ok(["fuel", "add", "--vehicle", "golf", "--odometer", "1100", "--litres", "20", "--price", "35", "--currency", "CHF"])
        #expect(second.out.contains("from the end of trip \(Int(trip))"), "\(second.out)")
        let last = try #require(try fillPositions(cli).first)
        #expect(endGeo.hasPrefix("geo:\(NumberText.fixed(last.lat, places: 6)),\(NumberText.fixed(last.lon, places: 6))"), "\(endGeo) vs \(last)")
        print("fuel-position: live fix \(NumberText.fixed(off, places: 0)) m from the live state (car moved \(NumberText.fixed(moved, places: 0)) m meanwhile); after stop: end of trip \(Int(trip))")
    }

    /// The fill-ups' positions, newest first.
    func fillPositions(_ cli: CLI) throws -> [(lat: Double, lon: Double)] {
        guard case .array(let fills) = try JSONValue.parse(Array(try cli.ok(["fuel", "list", "--json"]).out.utf8)) else { return [] }
        return fills.compactMap { f in f["lat"]?.doubleValue.flatMap { lat in f["lon"]?.doubleValue.map { (lat, $0) } } }
    }
}
