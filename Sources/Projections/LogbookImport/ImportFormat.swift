// SPDX-License-Identifier: MIT
/// The file formats `logbook import` reads.
public enum ImportFormat: String, Sendable, Hashable, CaseIterable {
    case gpx, geojson, csv
    /// Google's location history: Takeout's `Records.json` or the on-device `Timeline.json`.
    case googleTimeline = "google-timeline"

    /// The trip-start reason imported trips of this format carry: `import:gpx`,
    /// `import:geojson`, `import:csv`, `import:google-timeline`.
    public var reason: String { "import:\(rawValue)" }

    /// The format a file is in, from its first bytes (and its name when they are not enough):
    /// `<` → GPX; a JSON object naming `semanticSegments` or `locations` → Google, else
    /// GeoJSON; a header row naming lat and lon columns → CSV. Nil when none fits.
    public static func sniff(prefix: [UInt8], fileName: String) -> ImportFormat? {
        var bytes = prefix[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard let first = bytes.first(where: { $0 != 32 && $0 != 9 && $0 != 10 && $0 != 13 }) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        switch first {
        case 60: return .gpx
        case 123:
            if text.contains("\"semanticSegments\"") || text.contains("\"latitudeE7\"") || text.contains("\"locations\"") { return .googleTimeline }
            if text.contains("\"FeatureCollection\"") || text.contains("\"Feature\"") || text.contains("\"features\"") { return .geojson }
            let name = fileName.lowercased()
            return name.hasSuffix(".geojson") ? .geojson : nil
        default:
            let header = text.prefix { $0 != "\n" && $0 != "\r" }.lowercased()
            let cells = header.split(separator: ",").map { $0.trimmingCharacters(in: " \"") }
            if cells.contains(where: { $0 == "lat" || $0 == "latitude" }) { return .csv }
            return nil
        }
    }

    /// A reader of this format over `input`.
    public func reader(_ input: ByteInput) -> any ImportReader {
        switch self {
        case .gpx: GPXReader(input)
        case .geojson: GeoJSONReader(input)
        case .csv: CSVPointReader(input)
        case .googleTimeline: GoogleLocationReader(input)
        }
    }
}

extension Substring {
    func trimmingCharacters(in set: String) -> String {
        let drop = Set(set)
        return String(self.drop(while: { drop.contains($0) }).reversed().drop(while: { drop.contains($0) }).reversed())
    }
}
