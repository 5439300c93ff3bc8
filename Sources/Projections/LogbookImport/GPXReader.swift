// SPDX-License-Identifier: MIT
import LogbookCore

/// GPX 1.0 and 1.1 tracks and routes (`trk`/`trkseg`/`trkpt`, `rte`/`rtept`): position,
/// `<time>`, `<ele>`; speed and course from GPX 1.0's `<speed>`/`<course>` or Garmin's
/// TrackPointExtension (`gpxtpx:speed`, `gpxtpx:course`). Element names are matched without
/// their namespace prefix. A `<trk>` carrying Logbook's `logbook:trip` extension is a
/// recorded trip (``RecordedTripMark``). Waypoints are not positions of a drive: ignored.
public struct GPXReader: ImportReader {
    private var xml: XMLTokenizer
    private var point: (lat: Double?, lon: Double?, line: Int, values: [String: String])?
    private var field: String?
    private var fieldText = ""
    private var pendingTrack = false
    private var sawRoot = false

    public init(_ input: ByteInput) { xml = XMLTokenizer(input) }

    public var input: ByteInput { xml.input }

    static func local(_ name: String) -> Substring {
        guard let colon = name.lastIndex(of: ":") else { return Substring(name) }
        return name[name.index(after: colon)...]
    }

    public mutating func next() throws(ImportIssue) -> ImportEvent? {
        while let token = try xml.next() {
            switch token {
            case .start(let name, let attributes):
                let local = Self.local(name)
                if !sawRoot {
                    guard local == "gpx" else { throw ImportIssue(line: xml.tokenLine, "not a GPX file: the document element is <\(name)>") }
                    sawRoot = true
                }
                switch local {
                case "trk", "rte":
                    // Announced at its first point or trip mark, whichever comes first.
                    pendingTrack = true
                case "trip" where name.hasPrefix("logbook:") || name == "trip":
                    if pendingTrack, let id = attributes.first(where: { $0.0 == "id" })?.1 {
                        pendingTrack = false
                        let vehicle = attributes.first(where: { $0.0 == "vehicle" })?.1
                        return .track(RecordedTripMark(id: id, vehicle: vehicle?.isEmpty == false ? vehicle : nil))
                    }
                case "trkpt", "rtept":
                    let lat = attributes.first(where: { $0.0 == "lat" }).map { Double($0.1) } ?? nil
                    let lon = attributes.first(where: { $0.0 == "lon" }).map { Double($0.1) } ?? nil
                    point = (lat, lon, xml.tokenLine, [:])
                case "time", "ele", "speed", "course":
                    if point != nil {
                        field = String(local)
                        fieldText = ""
                    }
                default: break
                }
            case .text(let t):
                if field != nil { fieldText += t }
            case .end(let name):
                let local = Self.local(name)
                if let f = field, local == f {
                    point?.values[f] = fieldText.trimmingSpaces
                    field = nil
                } else if local == "trkpt" || local == "rtept", let p = point {
                    point = nil
                    if pendingTrack {
                        pendingTrack = false
                        // Emit the track first; the point follows on the next call.
                        pointAfterTrack = p
                        return .track(nil)
                    }
                    return make(p)
                }
            }
            if let p = pointAfterTrack {
                pointAfterTrack = nil
                return make(p)
            }
        }
        if let p = pointAfterTrack {
            pointAfterTrack = nil
            return make(p)
        }
        guard sawRoot else { throw ImportIssue(line: 1, "not a GPX file: no <gpx> element") }
        return nil
    }

    private var pointAfterTrack: (lat: Double?, lon: Double?, line: Int, values: [String: String])?

    private func make(_ p: (lat: Double?, lon: Double?, line: Int, values: [String: String])) -> ImportEvent {
        guard let lat = p.lat, let lon = p.lon else { return .bad(ImportIssue(line: p.line, "<trkpt> without a numeric lat and lon")) }
        guard let text = p.values["time"] else { return .bad(ImportIssue(line: p.line, "<trkpt> without <time>")) }
        guard let time = ISO8601.parseWithOffset(text) else { return .bad(ImportIssue(line: p.line, "<time> is not an ISO 8601 UTC time: \(text)")) }
        return .point(ImportPoint(
            time: time, latitude: lat, longitude: lon, speed: p.values["speed"].flatMap(Double.init),
            track: p.values["course"].flatMap(Double.init), altitude: p.values["ele"].flatMap(Double.init), line: p.line))
    }
}

extension String {
    /// Without leading and trailing spaces, tabs and line breaks.
    var trimmingSpaces: String {
        let u = Array(utf8)
        guard let first = u.firstIndex(where: { $0 != 32 && $0 != 9 && $0 != 10 && $0 != 13 }),
            let last = u.lastIndex(where: { $0 != 32 && $0 != 9 && $0 != 10 && $0 != 13 })
        else { return "" }
        return String(decoding: u[first...last], as: UTF8.self)
    }
}
