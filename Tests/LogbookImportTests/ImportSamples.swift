// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookImport
import LogbookTestSupport

/// Files for the import tests: real logs, and the same fixes written in each format.
enum ImportSamples {
    /// `../shared/gpslogs` beside the repository (as CI lays it out), else `/work/shared/gpslogs`.
    static var sharedLogs: String {
        let beside = TestPaths.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/gpslogs").path
        return FileManager.default.fileExists(atPath: beside) ? beside : "/work/shared/gpslogs"
    }

    /// Runs one pass over `path` (format sniffed unless given) with the default `[trip]`.
    static func pass(_ path: String, format: ImportFormat? = nil, vehicle: String? = nil, trip: TripEngineConfiguration = .init()) async throws -> ImportSummary {
        let prefix = Array((FileManager.default.contents(atPath: path) ?? Data()).prefix(65_536))
        guard let f = format ?? ImportFormat.sniff(prefix: prefix, fileName: path) else { throw ImportIssue(line: nil, "unknown format") }
        return try await ImportPass(format: f, vehicle: vehicle, trip: trip).run(try ByteInput(path: path))
    }

    static func pass(text: String, format: ImportFormat, stopOnIssue: Bool = false) async throws -> ImportSummary {
        try await ImportPass(format: format, vehicle: nil, trip: TripEngineConfiguration()).run(ByteInput(bytes: Array(text.utf8)), stopOnIssue: stopOnIssue)
    }

    /// `gpsbabel -i nmea -f LOG -o gpx -F OUT` (GPX 1.0 with speed and course).
    static func gpsbabelGPX(_ log: String, into dir: TemporaryDirectory) throws -> String {
        let out = dir.file((log as NSString).lastPathComponent + ".gpx")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/gpsbabel")
        p.arguments = ["-i", "nmea", "-f", log, "-o", "gpx,gpxver=1.0", "-F", out]
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw ImportIssue(line: nil, "gpsbabel failed on \(log)") }
        return out
    }

    /// Track points with a time, counted by Debian's python3-gpxpy (an independent reader).
    static func gpxpyCount(_ path: String) throws -> Int {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = ["-c", """
            import gpxpy, sys
            g = gpxpy.parse(open(sys.argv[1]))
            print(sum(1 for t in g.tracks for s in t.segments for p in s.points if p.time is not None))
            """, path]
        let pipe = Pipe()
        p.standardOutput = pipe
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0, let n = Int(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw ImportIssue(line: nil, "gpxpy could not read \(path) (is python3-gpxpy installed?)")
        }
        return n
    }

    /// The Munich city drive's fixes (NMEA, unique increasing times).
    static func munichFixes() throws -> [Fix] {
        var last: GPSTime?
        return NMEAReader.fixes(in: try Fixtures.gpsLog("munich-gps.nmea")).filter { f in
            defer { if last.map({ f.time > $0 }) ?? true { last = f.time } }
            return last.map { f.time > $0 } ?? true
        }
    }

    static func iso(_ t: GPSTime) -> String { ISO8601.format(t) }

    /// Google Takeout `Records.json` of `fixes`, laid out as Takeout writes it.
    static func recordsJSON(_ fixes: [Fix], millis: Bool = false) -> String {
        let items = fixes.enumerated().map { i, f in
            let time = millis ? "\"timestampMs\": \"\(f.time.nanoseconds / 1_000_000)\"" : "\"timestamp\": \"\(iso(f.time))\""
            return """
                {
                  "latitudeE7": \(Int((f.latitude * 1e7).rounded())),
                  "longitudeE7": \(Int((f.longitude * 1e7).rounded())),
                  "accuracy": \(Int(f.eph ?? 10)),\(f.speed.map { "\n      \"velocity\": \(Int($0.rounded())),"} ?? "")
                  "source": "GPS",
                  "deviceTag": 1234567\(i % 2 == 0 ? ",\n      \"activity\": [{\"activity\": [{\"type\": \"IN_VEHICLE\", \"confidence\": 80}], \"timestamp\": \"\(iso(f.time))\"}]" : ""),
                  \(time)
                }
                """
        }
        return "{\n  \"locations\": [\n" + items.joined(separator: ",\n") + "\n  ]\n}\n"
    }

    /// The on-device `Timeline.json` of `fixes`: a visit, an activity with its path in
    /// segments of ten minutes (times with a +02:00 offset), raw signals and a profile.
    static func timelineJSON(_ fixes: [Fix]) -> String {
        func local(_ t: GPSTime) -> String {
            let shifted = ISO8601.format(GPSTime(nanoseconds: t.nanoseconds + 7_200_000_000_000))
            return String(shifted.dropLast()) + "+02:00"
        }
        var segments: [String] = []
        if let first = fixes.first {
            segments.append("""
                {"startTime": "\(local(first.time))", "endTime": "\(local(first.time))", "startTimeTimezoneUtcOffsetMinutes": 120, "endTimeTimezoneUtcOffsetMinutes": 120,
                 "visit": {"hierarchyLevel": 0, "probability": 0.9, "topCandidate": {"placeId": "ChIJ", "semanticType": "HOME", "probability": 0.8, "placeLocation": {"latLng": "\(first.latitude)°, \(first.longitude)°"}}}}
                """)
        }
        var i = 0
        while i < fixes.count {
            let chunk = fixes[i..<min(fixes.count, i + 600)]
            let path = chunk.map { "{\"point\": \"\(String(format: "%.7f", $0.latitude))°, \(String(format: "%.7f", $0.longitude))°\", \"time\": \"\(local($0.time))\"}" }
            segments.append("""
                {"startTime": "\(local(chunk.first!.time))", "endTime": "\(local(chunk.last!.time))", "timelinePath": [\(path.joined(separator: ", "))]}
                """)
            segments.append("""
                {"startTime": "\(local(chunk.first!.time))", "endTime": "\(local(chunk.last!.time))", "activity": {"start": {"latLng": "1°, 2°"}, "end": {"latLng": "1°, 2°"}, "distanceMeters": 100.0, "topCandidate": {"type": "IN_PASSENGER_VEHICLE", "probability": 0.9}}}
                """)
            i += 600
        }
        let raw = fixes.suffix(3).map {
            "{\"position\": {\"LatLng\": \"\($0.latitude)°, \($0.longitude)°\", \"accuracyMeters\": 10, \"altitudeMeters\": 500.0, \"source\": \"GPS\", \"timestamp\": \"\(local($0.time))\", \"speedMetersPerSecond\": 3.0}}"
        }
        return """
            {"semanticSegments": [\(segments.joined(separator: ",\n"))],
             "rawSignals": [\(raw.joined(separator: ",\n"))],
             "userLocationProfile": {"frequentPlaces": [{"placeId": "ChIJ", "placeLocation": "1°, 2°", "label": "HOME"}]}}
            """
    }

    /// GeoJSON of `fixes` as togeojson writes a track: a LineString with `coordTimes`.
    static func geoJSON(_ fixes: [Fix]) -> String {
        let coordinates = fixes.map { "[\($0.longitude),\($0.latitude)\($0.altitude.map { ",\($0)" } ?? "")]" }
        let times = fixes.map { "\"\(iso($0.time))\"" }
        return """
            {"type": "FeatureCollection", "features": [
             {"type": "Feature", "properties": {"name": "drive", "coordTimes": [\(times.joined(separator: ","))]},
              "geometry": {"type": "LineString", "coordinates": [\(coordinates.joined(separator: ","))]}},
             {"type": "Feature", "properties": {"name": "home"}, "geometry": {"type": "Point", "coordinates": [11.5, 48.1]}}
            ]}
            """
    }
}
