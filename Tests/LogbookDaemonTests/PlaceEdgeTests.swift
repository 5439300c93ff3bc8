// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookJournal
import LogbookTestSupport
import Testing

/// A car dawdling along a place's edge: a test-made NMEA track through a real gpsd that
/// crosses the radius every few seconds makes at most one arrival and one departure. The
/// place is added while the daemon runs (no restart).
@Suite struct PlaceEdgeTests {
    static let centre = (lat: 48.137, lon: 11.575)

    static func sentence(_ body: String) -> String {
        let sum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
        return "$" + body + "*" + String(format: "%02X", sum)
    }

    /// RMC + GGA + GSA for a fix `north` metres north of the centre at second `t` of the day.
    static func epoch(north: Double, t: Int, speedKnots: Double) -> [String] {
        let lat = centre.lat + north / 111_195
        let time = String(format: "%02d%02d%02d.00", t / 3600, t / 60 % 60, t % 60)
        let latText = String(format: "%02d%07.4f", Int(lat), (lat - Double(Int(lat))) * 60)
        let lonText = String(format: "%03d%07.4f", Int(centre.lon), (centre.lon - Double(Int(centre.lon))) * 60)
        return [
            sentence("GPRMC,\(time),A,\(latText),N,\(lonText),E,\(String(format: "%05.1f", speedKnots)),000.0,261126,,,A"),
            sentence("GPGGA,\(time),\(latText),N,\(lonText),E,1,08,0.9,500.0,M,46.0,M,,"),
            sentence("GPGSA,A,3,01,02,03,04,05,06,07,08,,,,,1.5,0.9,1.2"),
        ]
    }

    /// Parked 600 m north (10 minutes), drives in, dawdles across the 100 m radius (between 80 and 125 m,
    /// 3 s each side), drives away. Returns the log and how many times it crosses the radius.
    static func track() -> (String, crossings: Int) {
        // Parked for 600 s of the log (30 s at 20x): the place is added meanwhile, through the
        // CLI, which a loaded machine may start slowly; it must be known before the car comes.
        var norths: [Double] = Array(repeating: 600, count: 600)
        norths += stride(from: 590.0, through: 80, by: -10)
        for i in 0..<40 { norths += Array(repeating: i % 2 == 0 ? 125.0 : 80.0, count: 3) }
        norths += stride(from: 130.0, through: 700, by: 10)
        var lines = ["# Name: place-edge", "# Cycle-time: 1s"]
        for (i, n) in norths.enumerated() {
            let moving = i > 0 && norths[i - 1] != n
            lines += epoch(north: n, t: 12 * 3600 + i, speedKnots: moving ? 19.4 : 0)
        }
        let crossings = zip(norths, norths.dropFirst()).filter { ($0 <= 100) != ($1 <= 100) }.count
        return (lines.joined(separator: "\r\n") + "\r\n", crossings)
    }

    @Test(.timeLimit(.minutes(3)))
    func dawdlingAcrossTheRadiusGivesAtMostOnePairOfEvents() async throws {
        let dir = try TemporaryDirectory("place-edge")
        defer { dir.remove() }
        let (text, crossings) = Self.track()
        let log = dir.file("edge.nmea")
        try text.write(toFile: log, atomically: true, encoding: .utf8)
        let cfg = dir.file("logbookd.toml")
        let gpsd = try GPSDReplay(log: log, realtime: 20)
        defer { gpsd.stop() }
        try """
            state_dir = "\(dir.file("state"))"
            runtime_dir = "\(dir.file("run"))"
            [gpsd]
            address = "\(gpsd.address)"
            [journal]
            commit_interval_s = 1
            [trip]
            trust_system_clock = false
            [places]
            hysteresis_m = 50
            """.write(toFile: cfg, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(arguments: ["--config", cfg])
        // Fixes flow (the car parked far away), then the place is added through the socket.
        #expect(await eventually(.seconds(30)) { ((readJSONFile(dir.file("run/live.json"))?["gps"] as? [String: Any])?["fixes"] as? Int ?? 0) > 0 })
        let r = try await runLogbook(["places", "add", "shop", "--at", "\(Self.centre.lat),\(Self.centre.lon)", "--radius", "100", "--config", cfg])
        try #require(r.status == 0, "places add: \(r.err)")
        await gpsd.waitUntilFinished(timeout: .seconds(120))
        // The departure is the last event the track can make: wait for it in the journal.
        func events() throws -> [(String, Bool)] {
            try JournalReader(directory: dir.file("state/journal")).entries().compactMap { e in
                guard case .signal(let s) = e.record, s.source.hasPrefix("place:") else { return nil }
                return (s.source, s.on)
            }
        }
        _ = try await eventually(.seconds(20)) { try events().contains { $0.1 == false } }
        _ = await daemon.stop()
        let got = try events()
        print("place-events: zig-zag: \(crossings) crossings, \(got.count) events")
        #expect(crossings >= 40)
        #expect(got.map(\.0) == ["place:shop", "place:shop"] && got.map(\.1) == [true, false], "\(got)")
    }
}
