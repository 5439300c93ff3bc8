// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookJournal
import LogbookTestSupport
import Testing

/// `logbook import` as a person runs it: with no daemon (the CLI holds the journal's lock)
/// and through the real logbookd while it records a real drive; every reader shows the
/// trips as imported; the journal verifies afterwards.
@Suite struct ImportCommandTests {
    typealias Setup = GarageWriteTests.Setup

    /// `gpsbabel -i nmea -f LOG -o gpx` into `dir`.
    static func gpx(_ log: String, _ dir: TemporaryDirectory) throws -> String {
        let out = dir.file(log + ".gpx")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/gpsbabel")
        p.arguments = ["-i", "nmea", "-f", TestPaths.gpsLog(log), "-o", "gpx,gpxver=1.0", "-F", out]
        try p.run()
        p.waitUntilExit()
        return out
    }

    static func json(_ text: String) -> JSONValue? { try? JSONValue.parse(text) }

    static func trips(_ s: Setup) async throws -> [JSONValue] {
        let r = try await s.logbook(["trips", "list", "--json"])
        guard case .array(let t)? = json(r.out)?["trips"] else { return [] }
        return t
    }

    static func userRecords(_ s: Setup) throws -> Int {
        try JournalReader(directory: s.dir.file("state/journal")).entries().count
    }

    @Test func importWithoutDaemonMarksTripsRefusesRepeatsOverlapsAndBadFiles() async throws {
        let s = try Setup("imp-cli")
        defer { s.dir.remove() }
        let gpx = try Self.gpx("20100411_Geko_Regensburg.txt", s.dir)
        let first = try await s.logbook(["import", gpx, "--vehicle", "golf"])
        #expect(first.status == 0, "\(first.err)")
        #expect(first.out.contains("import: 20100411_Geko_Regensburg.txt.gpx: 1 trips, "), "\(first.out)")
        #expect(first.out.contains("written to the journal; logbookd is not running"))
        let trips = try await Self.trips(s)
        let trip = try #require(trips.first)
        #expect(trips.count == 1)
        #expect(trip["origin"]?.stringValue == "import" && trip["start_reason"]?.stringValue == "import:gpx")
        #expect(trip["vehicle"]?["id"]?.stringValue == "golf")
        let id = try #require(trip["id"]?.stringValue)
        let show = try await s.logbook(["trips", "show", id])
        #expect(show.out.contains("imported from a gpx file"), "\(show.out)")
        let geojson = try await s.logbook(["trips", "export", id, "--format", "geojson"])
        #expect(geojson.out.contains("\"origin\":\"import\""))
        let report = try await s.logbook(["report", "--year", "2010", "--format", "csv"])
        #expect(report.out.contains("reconstructed (import:gpx)"), "\(report.out.prefix(600))")
        print("import: \((gpx as NSString).lastPathComponent): \(trips.count) trips, \(Int(trip["points"]?.doubleValue ?? 0)) points, 0 skipped")

        // The same content again: nothing.
        let before = try Self.userRecords(s)
        let again = try await s.logbook(["import", gpx])
        #expect(again.status == 0 && again.out.contains("0 trips, 0 points") && again.out.contains("already imported"), "\(again.out)")
        #expect(try Self.userRecords(s) == before)

        // The same drive from another file (the CSV export): overlaps, refused unless asked.
        let csv = s.dir.file("regensburg.csv")
        let export = try await s.logbook(["trips", "export", id, "--format", "csv", "-o", csv])
        #expect(export.status == 0)
        let overlap = try await s.logbook(["import", csv])
        #expect(overlap.status == 0 && overlap.out.contains(": 0 trips, 0 points, 1 skipped"), "\(overlap.out) \(overlap.err)")
        #expect(overlap.err.contains("overlaps trip \(id)") && overlap.err.contains("--allow-overlap"), "\(overlap.err)")
        #expect(try await Self.trips(s).count == 1)

        // Bad files: named by file and line, nothing written, exit 1.
        let text = try String(contentsOfFile: gpx, encoding: .utf8)
        let truncated = s.dir.file("truncated.gpx")
        try String(text.prefix(text.count / 2)).write(toFile: truncated, atomically: true, encoding: .utf8)
        let noTime = s.dir.file("notime.gpx")
        try text.replacingOccurrences(of: "<time>2010-04-11T16:57:46Z</time>", with: "<when>2010-04-11T16:57:46Z</when>")
            .write(toFile: noTime, atomically: true, encoding: .utf8)
        let records = try Self.userRecords(s)
        for bad in [truncated, noTime, s.dir.file("empty.gpx")] {
            if bad.hasSuffix("empty.gpx") { try "<gpx version=\"1.1\"></gpx>".write(toFile: bad, atomically: true, encoding: .utf8) }
            let r = try await s.logbook(["import", bad, "--dry-run"])
            let w = try await s.logbook(["import", bad])
            #expect(w.status == 1 && r.status == 1, "\(bad): \(w.status) \(w.err)")
            let name = (bad as NSString).lastPathComponent
            #expect(w.err.contains("logbook: \(bad):") && w.err.contains("nothing imported"), "\(w.err)")
            #expect(w.err.contains(bad + ":") && (bad.hasSuffix("empty.gpx") || w.err.range(of: "\(name):[0-9]+: ", options: .regularExpression) != nil), "\(w.err)")
        }
        #expect(try Self.userRecords(s) == records, "nothing of a bad file is written")
        let verify = try await s.logbook(["verify", "--state-dir", s.dir.file("state")])
        #expect(verify.status == 0 && verify.out.contains("OK"), "\(verify.out) \(verify.err)")
    }

    /// Export → import into another logbook → export: the same points.
    @Test func roundTripThroughCSVKeepsEveryPoint() async throws {
        let a = try Setup("imp-rt-a")
        let b = try Setup("imp-rt-b")
        defer { a.dir.remove(); b.dir.remove() }
        let gpx = try Self.gpx("munich-gps.nmea", a.dir)
        // The Munich log's clock steps back once: without --skip-bad nothing is imported.
        let refused = try await a.logbook(["import", gpx, "--vehicle", "golf"])
        #expect(refused.status == 1 && refused.err.contains("time goes backwards"), "\(refused.err)")
        let imported = try await a.logbook(["import", gpx, "--vehicle", "golf", "--skip-bad"])
        #expect(imported.status == 0 && imported.err.contains("skipped: time goes backwards") && imported.out.contains("1 skipped"), "\(imported.out)\(imported.err)")
        let first = a.dir.file("first.csv")
        #expect(try await a.logbook(["trips", "export", "--all", "--format", "csv", "-o", first]).status == 0)
        let reimport = try await b.logbook(["import", first])
        #expect(reimport.status == 0, "\(reimport.err)")
        let second = b.dir.file("second.csv")
        #expect(try await b.logbook(["trips", "export", "--all", "--format", "csv", "-o", second]).status == 0)
        func rows(_ path: String) throws -> [String] {
            try String(contentsOfFile: path, encoding: .utf8).split(separator: "\r\n").dropFirst().map { row in
                row.split(separator: ",", omittingEmptySubsequences: false).dropFirst().joined(separator: ",")  // without trip_id
            }
        }
        let r1 = try rows(first), r2 = try rows(second)
        #expect(r1.count > 1_800 && r1 == r2, "\(r1.count) vs \(r2.count) rows")
        let t1 = try await Self.trips(a), t2 = try await Self.trips(b)
        #expect(t1.count == t2.count && t2.allSatisfy { $0["start_reason"]?.stringValue == "import:csv" })
        print("import: first.csv: \(t2.count) trips, \(r2.count) points, 0 skipped")
    }

    /// Through logbookd while it records the Swiss drive: the import goes over the control
    /// socket, the recording goes on, and the journal verifies.
    @Test func importThroughTheDaemonWhileItRecords() async throws {
        let s = try Setup("imp-daemon")
        defer { s.dir.remove() }
        try await s.startDaemon()
        let gpx = try Self.gpx("20100411_Geko_Regensburg.txt", s.dir)
        let r = try await s.logbook(["import", gpx, "--vehicle", "golf"])
        #expect(r.status == 0 && r.out.contains("written through logbookd"), "\(r.out) \(r.err)")
        #expect(s.recording(), "the live trip goes on")
        await s.stop()
        let trips = try await Self.trips(s)
        #expect(trips.filter { $0["origin"]?.stringValue == "import" }.count == 1)
        #expect(trips.filter { $0["origin"]?.stringValue == "recorded" }.count == 1)
        let verify = try await s.logbook(["verify", "--state-dir", s.dir.file("state")])
        #expect(verify.status == 0, "\(verify.out) \(verify.err)")
        // The same file imported without a daemon elsewhere writes the same trip.
        let d = try Setup("imp-direct")
        defer { d.dir.remove() }
        #expect(try await d.logbook(["import", gpx, "--vehicle", "golf"]).status == 0)
        func importedTrip(_ dir: String) throws -> (TripStarted?, [TripPoint], TripEnded?) {
            var start: TripStarted?, end: TripEnded?
            var points: [TripPoint] = []
            for e in try JournalReader(directory: dir).entries() {
                switch e.record {
                case .tripStarted(let t) where t.reason.hasPrefix("import:"): start = t
                case .points(let id, let p) where id == start?.id: points += p
                case .tripEnded(let t) where t.id == start?.id: end = t
                default: break
                }
            }
            return (start, points, end)
        }
        let viaDaemon = try importedTrip(s.dir.file("state/journal")), direct = try importedTrip(d.dir.file("state/journal"))
        #expect(viaDaemon.1 == direct.1 && viaDaemon.1.count > 500)
        #expect(viaDaemon.2?.summary == direct.2?.summary && viaDaemon.2?.reason == direct.2?.reason)
        #expect(viaDaemon.0?.reason == direct.0?.reason && viaDaemon.0?.gpsTime == direct.0?.gpsTime)
    }

    /// The Swiss drive recorded live by logbookd (motion source) and imported from the GPX
    /// gpsbabel makes of the same log: the same trips, split at the same place.
    @Test func swissDriveImportedSplitsWhereTheLiveRecordingSplit() async throws {
        let live = try await DaemonJournalTests.record("20100403_Z205_Switzerland.txt", speed: 100, source: "motion", name: "imp-live")
        defer { live.dir.remove() }
        let s = try Setup("imp-swiss")
        defer { s.dir.remove() }
        let gpx = try Self.gpx("20100403_Z205_Switzerland.txt", s.dir)
        let r = try await s.logbook(["import", gpx, "--vehicle", "golf"])
        #expect(r.status == 0, "\(r.err)")
        let imported = try await Self.trips(s)
        let liveRun = Process()
        liveRun.executableURL = URL(fileURLWithPath: TestPaths.product("logbook"))
        liveRun.arguments = ["--config", live.config, "trips", "list", "--json"]
        let pipe = Pipe()
        liveRun.standardOutput = pipe
        try liveRun.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        liveRun.waitUntilExit()
        guard case .array(let recorded)? = Self.json(String(decoding: data, as: UTF8.self))?["trips"] else {
            Issue.record("no live trips")
            return
        }
        // gpsd 3.22 dates this 2010 log 1024 weeks later (README, "Time").
        let week1024 = 619_315_200.0
        func ends(_ trips: [JSONValue], shift: Double) -> [Double] {
            trips.compactMap { $0["ended_at"]?.stringValue.flatMap(ISO8601.parse).map { $0.seconds - shift } }.sorted()
        }
        let liveEnds = ends(recorded, shift: week1024), importEnds = ends(imported, shift: 0)
        #expect(recorded.count == 2 && imported.count == 2, "live \(recorded.count), imported \(imported.count)")
        var split = "?"
        if liveEnds.count == importEnds.count, let a = liveEnds.first, let b = importEnds.first {
            #expect(abs(a - b) < 20, "first trip ends: live \(a), imported \(b)")
            split = "live \(ISO8601.format(GPSTime(nanoseconds: Int64(a * 1e9)))), imported \(ISO8601.format(GPSTime(nanoseconds: Int64(b * 1e9))))"
        }
        print("import: 20100403_Z205_Switzerland.txt.gpx: \(imported.count) trips, \(imported.reduce(0) { $0 + Int($1["points"]?.doubleValue ?? 0) }) points, 0 skipped")
        print("import: swiss split: \(recorded.count) trips recorded live, \(imported.count) imported; first trip ends \(split)")
    }
}
