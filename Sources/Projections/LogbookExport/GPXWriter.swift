// SPDX-License-Identifier: MIT
public import LogbookCore

/// GPX 1.1 (valid against Topografix's `gpx.xsd`): one `<trk>` per trip, named with its number
/// and start time, the summary in `<desc>` and in a `<logbook:trip>` extension; a `<trkseg>`
/// per stretch between gaps; speed (m/s) and course (degrees true) in Garmin's
/// TrackPointExtension v2, which Garmin tools, Strava and GPXSee read.
public struct GPXWriter: TripTrackWriter {
    /// Garmin's namespace for speed and course.
    public static let garminNamespace = "http://www.garmin.com/xmlschemas/TrackPointExtension/v2"
    /// Logbook's namespace for the trip summary (a `.invalid` host: it names, it never resolves).
    public static let logbookNamespace = "https://logbook.invalid/xmlschemas/trip/v1"

    private let options: ExportOptions
    private var segmentOpen = false

    /// Creates a writer.
    public init(options: ExportOptions = ExportOptions()) {
        self.options = options
    }

    public mutating func begin(_ out: ExportOutput) {
        out.text("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        out.text("<gpx version=\"1.1\" creator=\"logbook\" xmlns=\"http://www.topografix.com/GPX/1/1\"")
        out.text(" xmlns:gpxtpx=\"\(Self.garminNamespace)\" xmlns:logbook=\"\(Self.logbookNamespace)\">\n")
        out.text(" <metadata><name>Logbook trips</name>")
        if let created = options.createdAt {
            out.text("<time>")
            out.time(created)
            out.text("</time>")
        }
        out.text("</metadata>\n")
    }

    public mutating func beginTrip(_ trip: TripOverview, gaps: [TripGap], _ out: ExportOutput) {
        out.text(" <trk>\n  <name>")
        var name = "Trip \(trip.id)"
        if let start = trip.startedAt {
            name += ", " + options.zone.dateTimeWithZone(start)
        }
        out.xml(name)
        out.text("</name>\n  <desc>")
        out.xml(TripText.shareSummary(trip, units: options.units, vehicleName: vehicleName(trip), utcOffset: trip.startedAt.map(options.zone.offset) ?? 0))
        out.text("</desc>\n  <src>logbook</src>\n  <number>")
        out.integer(Int64(clamping: trip.id.rawValue))
        out.text("</number>\n  <extensions><logbook:trip")
        for (key, value) in TripProperties.members(of: trip, vehicle: options.vehicle(of: trip)) {
            let text: String
            switch value {
            case .null: continue
            case .string(let s): text = s
            case .object: text = value["id"]?.stringValue ?? ""  // the vehicle, by its id
            case .bool(let b): text = b ? "true" : "false"
            default: text = value.serialized
            }
            out.text(" \(key)=\"")
            out.xml(text)
            out.byte(UInt8(ascii: "\""))
        }
        out.text("/></extensions>\n")
    }

    public mutating func point(_ p: TripPoint, newSegment: Bool, _ out: ExportOutput) {
        guard p.latitude.isFinite, p.longitude.isFinite else { return }
        if newSegment {
            if segmentOpen { out.text("  </trkseg>\n") }
            out.text("  <trkseg>\n")
            segmentOpen = true
        }
        out.text("   <trkpt lat=\"")
        out.decimal(min(max(p.latitude, -90), 90), places: 7)
        out.text("\" lon=\"")
        out.decimal(GeoNumbers.longitude(p.longitude), places: 7)
        out.text("\">")
        if let alt = p.altitude, alt.isFinite {
            out.text("<ele>")
            out.decimal(alt, places: 1)
            out.text("</ele>")
        }
        out.text("<time>")
        out.time(p.time)
        out.text("</time>")
        let speed = p.speed.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
        let course = p.track.flatMap { $0.isFinite ? GeoNumbers.course($0) : nil }
        if speed != nil || course != nil {
            out.text("<extensions><gpxtpx:TrackPointExtension>")
            if let speed {
                out.text("<gpxtpx:speed>")
                out.decimal(speed, places: 2)
                out.text("</gpxtpx:speed>")
            }
            if let course {
                out.text("<gpxtpx:course>")
                out.decimal(course, places: 1)
                out.text("</gpxtpx:course>")
            }
            out.text("</gpxtpx:TrackPointExtension></extensions>")
        }
        out.text("</trkpt>\n")
    }

    public mutating func endTrip(_ out: ExportOutput) {
        if segmentOpen { out.text("  </trkseg>\n") }
        segmentOpen = false
        out.text(" </trk>\n")
    }

    public mutating func end(_ out: ExportOutput) {
        out.text("</gpx>\n")
    }

    private func vehicleName(_ trip: TripOverview) -> String? {
        options.vehicle(of: trip)?.name
    }
}

/// Coordinates and angles kept inside the ranges the formats allow after rounding.
enum GeoNumbers {
    /// Longitude in [-180, 180): 180 (or what rounds to it at 7 places) is written as -180.
    static func longitude(_ lon: Double) -> Double {
        var v = lon.truncatingRemainder(dividingBy: 360)
        if v < -180 { v += 360 }
        if v >= 180 - 5e-8 { v = max(v - 360, -180) }
        return v
    }

    /// A course in [0, 360) after rounding to one place.
    static func course(_ deg: Double) -> Double {
        var v = deg.truncatingRemainder(dividingBy: 360)
        if v < 0 { v += 360 }
        return v >= 359.95 ? 0 : v
    }
}
