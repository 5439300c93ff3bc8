// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookJournal
import LogbookTestSupport
import Testing

/// Stationary receivers through real gpsd into the built logbookd (issue 13 §3): keeping
/// poor-accuracy fixes must add no parked jitter. Both logs are binary (UBX, SiRF), so only
/// gpsd can read them.
@Suite struct ParkedDistanceTests {
    @Test(.timeLimit(.minutes(3)), arguments: ["navisys-gr701w.log", "sirf2.log"])
    func aStationaryReceiverRecordsATripOfZeroMetres(_ log: String) async throws {
        let dir = try TemporaryDirectory("park")
        defer { dir.remove() }
        let gpsd = try GPSDReplay(log: TestPaths.gpsLog(log))
        defer { gpsd.stop() }
        let config = dir.file("logbookd.toml")
        try """
            state_dir = "\(dir.file("state"))"
            runtime_dir = "\(dir.file("run"))"
            [gpsd]
            address = "\(gpsd.address)"
            [journal]
            commit_interval_s = 1
            [[source]]
            type = "service"
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(arguments: ["--config", config])
        await gpsd.waitUntilFinished(timeout: .seconds(120))
        // The last fixes reach the pipeline within a live interval of the replay's end: wait for
        // live.json to be published twice more (the first may have been under way).
        func seq() -> Int { readJSONFile(dir.file("run/live.json"))?["seq"] as? Int ?? 0 }
        let seqAtEnd = seq()
        _ = await eventually { seq() >= seqAtEnd + 2 }
        let stopped = await daemon.stop()
        #expect(stopped?.0 == 0, "\(daemon.log.suffix(1500))")
        let reader = try JournalReader(directory: dir.file("state/journal"))
        let trip = try #require(try reader.trips().only)
        let points = try reader.points(of: trip.id)
        let worst = points.compactMap(\.eph).max() ?? 0
        let live = readJSONFile(dir.file("run/live.json"))?["gps"] as? [String: Any]
        print("distance: \(log): \(Int(trip.summary.distance)) m over \(points.count) points through gpsd "
            + "(stationary; eph up to \(Int(worst)) m; \(live?["rejected"] ?? "?") fixes refused)")
        #expect(points.count > 40)
        #expect(trip.summary.distance == 0)
    }
}

extension Array {
    /// The single element, or nil when there are none or several.
    fileprivate var only: Element? { count == 1 ? first : nil }
}
