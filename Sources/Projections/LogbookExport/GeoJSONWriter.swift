// SPDX-License-Identifier: MIT
public import LogbookCore

/// GeoJSON (RFC 7946): one FeatureCollection; per trip a Feature whose geometry is a
/// LineString, or a MultiLineString when the trip has recorded gaps (one line per stretch
/// with fix), positions `[lon, lat]` with 7 decimals (about 1 cm). Properties: the summary
/// (``TripProperties``) plus `segment_speeds_mps`, the speed of each segment between two
/// positions, parallel to the coordinates (an array per line for a MultiLineString), for
/// speed-coloured rendering. A trip without points has a `null` geometry.
///
/// Memory: the speeds are gathered as text while the coordinates stream out, about 6 bytes
/// per point of the current trip.
public struct GeoJSONWriter: TripTrackWriter {
    private let options: ExportOptions
    private var features = 0
    private var trip: TripOverview?
    private var multi = false
    private var lines = 0
    private var pointsInLine = 0
    private var previous: TripPoint?
    /// The current trip's segment speeds as JSON text, emptied for each trip.
    private var speeds = ExportOutput(MemorySink(), chunkSize: 16 << 10)

    /// Creates a writer.
    public init(options: ExportOptions = ExportOptions()) {
        self.options = options
    }

    public mutating func begin(_ out: ExportOutput) {
        out.text("{\"type\":\"FeatureCollection\",\"features\":[")
    }

    /// Opens a feature; recorded gaps make its geometry a MultiLineString.
    public mutating func beginTrip(_ trip: TripOverview, gaps: [TripGap], _ out: ExportOutput) {
        self.trip = trip
        multi = !gaps.isEmpty
        lines = 0
        pointsInLine = 0
        previous = nil
        speeds.buffer.removeAll(keepingCapacity: true)
        out.text(features == 0 ? "\n" : ",\n")
        features += 1
        out.text("{\"type\":\"Feature\",\"id\":")
        out.jsonString(trip.id.description)
        out.text(",\"geometry\":")
    }

    public mutating func point(_ p: TripPoint, newSegment: Bool, _ out: ExportOutput) {
        guard p.latitude.isFinite, p.longitude.isFinite else { return }
        if lines == 0 {
            out.text(multi ? "{\"type\":\"MultiLineString\",\"coordinates\":[" : "{\"type\":\"LineString\",\"coordinates\":")
            if multi { speeds.byte(UInt8(ascii: "[")) }
        }
        if lines == 0 || (newSegment && multi) {
            if lines > 0 {
                closeLine(out)
                out.byte(UInt8(ascii: ","))
                speeds.byte(UInt8(ascii: ","))
            }
            out.byte(UInt8(ascii: "["))
            speeds.byte(UInt8(ascii: "["))
            lines += 1
            pointsInLine = 0
            previous = nil
        }
        if let previous {
            out.byte(UInt8(ascii: ","))
            if pointsInLine > 1 { speeds.byte(UInt8(ascii: ",")) }
            speeds.decimal(Self.segmentSpeed(previous, p), places: 2)
        }
        position(p, out)
        pointsInLine += 1
        previous = p
    }

    public mutating func endTrip(_ out: ExportOutput) {
        if lines == 0 {
            out.text("null")
        } else {
            closeLine(out)
            if multi {
                out.byte(UInt8(ascii: "]"))
                speeds.byte(UInt8(ascii: "]"))
            }
            out.byte(UInt8(ascii: "}"))
        }
        out.text(",\"properties\":{")
        if let trip {
            for (i, (key, value)) in TripProperties.members(of: trip, vehicle: options.vehicle(of: trip)).enumerated() {
                if i > 0 { out.byte(UInt8(ascii: ",")) }
                out.jsonString(key)
                out.byte(UInt8(ascii: ":"))
                out.text(value.serialized)
            }
        }
        out.text(",\"segment_speeds_mps\":")
        if lines == 0 { out.text("[]") } else { out.buffer.append(contentsOf: speeds.buffer) }
        out.text("}}")
        trip = nil
    }

    public mutating func end(_ out: ExportOutput) {
        out.text("\n]}\n")
    }

    /// Closes the current line; a line of one position repeats it (RFC 7946 wants two).
    private mutating func closeLine(_ out: ExportOutput) {
        if pointsInLine == 1, let previous {
            out.byte(UInt8(ascii: ","))
            position(previous, out)
            speeds.text("0")
        }
        out.byte(UInt8(ascii: "]"))
        speeds.byte(UInt8(ascii: "]"))
    }

    private func position(_ p: TripPoint, _ out: ExportOutput) {
        out.byte(UInt8(ascii: "["))
        out.decimal(GeoNumbers.longitude(p.longitude), places: 7)
        out.byte(UInt8(ascii: ","))
        out.decimal(min(max(p.latitude, -90), 90), places: 7)
        out.byte(UInt8(ascii: "]"))
    }

    /// The mean of the two recorded speeds, else distance over time, else 0.
    static func segmentSpeed(_ a: TripPoint, _ b: TripPoint) -> Double {
        if let sa = a.speed, let sb = b.speed, sa.isFinite, sb.isFinite { return max(0, (sa + sb) / 2) }
        let dt = b.time.seconds(since: a.time)
        guard dt > 0 else { return 0 }
        let d = Geodesy.distance(a, b)
        return d.isFinite ? d / dt : 0
    }
}
