// SPDX-License-Identifier: MIT
public import LogbookCore

/// The export formats: what `logbook trips export --format` accepts.
public enum ExportFormat: String, Sendable, CaseIterable {
    /// GPX 1.1, one `<trk>` per trip, speed and course in Garmin's TrackPointExtension v2.
    case gpx
    /// GeoJSON (RFC 7946): a FeatureCollection with one line feature per trip.
    case geojson
    /// CSV (RFC 4180) with a header: one row per point.
    case csv

    /// The usual file extension.
    public var fileExtension: String { rawValue }

    /// The media type, for the web app.
    public var mediaType: String {
        switch self {
        case .gpx: "application/gpx+xml"
        case .geojson: "application/geo+json"
        case .csv: "text/csv; charset=utf-8; header=present"
        }
    }
}

/// Choices that shape an export beyond its format.
public struct ExportOptions: Sendable {
    /// The document's creation time (GPX metadata); none when nil, so output is reproducible.
    public var createdAt: GPSTime?
    /// Units for the human-readable text inside (GPX track description); data stays SI.
    public var units: UnitSystem
    /// The configured vehicles by id (`[[vehicle]]`), for names and the `vehicle` object; a
    /// vehicle not listed is shown by its id.
    public var vehicles: [String: Vehicle]
    /// The zone of the human-readable times inside (GPX track name and description); the
    /// data's times stay UTC.
    public var zone: TimeZoneRules = .utc

    /// Creates options.
    public init(createdAt: GPSTime? = nil, units: UnitSystem = .metric, vehicles: [String: Vehicle] = [:]) {
        self.createdAt = createdAt
        self.units = units
        self.vehicles = vehicles
    }

    /// The vehicle of `trip`: the configured one, else one named by its id (as `trips show`).
    func vehicle(of trip: TripOverview) -> Vehicle? {
        trip.vehicleID.map { vehicles[$0] ?? Vehicle(id: $0, name: $0) }
    }
}
