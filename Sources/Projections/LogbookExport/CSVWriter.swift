// SPDX-License-Identifier: MIT
public import LogbookCore

/// CSV (RFC 4180: CRLF line ends, quoted fields where needed) with a header row and one row
/// per point. Empty fields where a value was not recorded. SI units, ISO 8601 UTC times.
public struct CSVWriter: TripTrackWriter {
    /// The header row's field names, in order.
    public static let columns = ["trip_id", "vehicle", "time", "lat", "lon", "speed_mps", "course_deg", "eph_m", "alt_m"]

    private var tripPrefix: [UInt8] = []

    /// Creates a writer.
    public init() {}

    public mutating func begin(_ out: ExportOutput) {
        out.text(Self.columns.joined(separator: ","))
        out.text("\r\n")
    }

    public mutating func beginTrip(_ trip: TripOverview, gaps: [TripGap], _ out: ExportOutput) {
        // The first two fields are the same on every row of a trip: format them once.
        let scratch = ExportOutput(MemorySink(), chunkSize: 256)
        scratch.integer(Int64(clamping: trip.id.rawValue))
        scratch.byte(UInt8(ascii: ","))
        if let vehicle = trip.vehicleID { scratch.csvField(vehicle) }
        scratch.byte(UInt8(ascii: ","))
        tripPrefix = scratch.buffer
    }

    public mutating func point(_ p: TripPoint, newSegment: Bool, _ out: ExportOutput) {
        guard p.latitude.isFinite, p.longitude.isFinite else { return }
        out.buffer.append(contentsOf: tripPrefix)
        out.time(p.time)
        out.byte(UInt8(ascii: ","))
        out.decimal(p.latitude, places: 7)
        out.byte(UInt8(ascii: ","))
        out.decimal(p.longitude, places: 7)
        field(p.speed, places: 2, out)
        field(p.track, places: 1, out)
        field(p.eph, places: 1, out)
        field(p.altitude, places: 1, out)
        out.text("\r\n")
    }

    public mutating func endTrip(_ out: ExportOutput) {}

    public mutating func end(_ out: ExportOutput) {}

    private func field(_ value: Double?, places: Int, _ out: ExportOutput) {
        out.byte(UInt8(ascii: ","))
        if let value, value.isFinite { out.decimal(value, places: places) }
    }
}
