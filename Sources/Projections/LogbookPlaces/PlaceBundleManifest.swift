// SPDX-License-Identifier: MIT
internal import LogbookCore

/// `places.manifest.json`: what the bundle is, where it came from, and how to check it.
public struct PlaceBundleManifest: Sendable, Hashable {
    /// The bundle file's name beside the manifest.
    public var file: String
    public var rows: Int
    public var bytes: Int
    /// Lower-case hex SHA-256 of the bundle file.
    public var sha256: String
    /// ISO codes of the countries included, or empty for the whole world.
    public var countries: [String]
    public var source: String
    public var licence: String
    /// The line to show wherever a place name from the bundle is shown at length.
    public var attribution: String
    public var version: String

    /// Parses and checks a manifest.
    public init(parsing text: String) throws(PlaceBundleError) {
        let json: JSONValue
        do { json = try JSONValue.parse(text) } catch { throw .badManifest("not JSON: \(error)") }
        func string(_ key: String) throws(PlaceBundleError) -> String {
            guard let s = json[key]?.stringValue, !s.isEmpty else { throw .badManifest("\"\(key)\" missing or not a string") }
            return s
        }
        func count(_ key: String) throws(PlaceBundleError) -> Int {
            guard let d = json[key]?.doubleValue, d >= 0, d < 1e12, d == d.rounded() else {
                throw .badManifest("\"\(key)\" missing or not a count")
            }
            return Int(d)
        }
        guard json["format"]?.stringValue == "logbook-places" else { throw .badManifest("\"format\" is not \"logbook-places\"") }
        guard json["format_version"]?.doubleValue == 1 else { throw .badManifest("unsupported \"format_version\"") }
        file = try string("file")
        guard !file.contains("/"), file != "..", file != "." else { throw .badManifest("\"file\" must be a plain file name") }
        rows = try count("rows")
        bytes = try count("bytes")
        sha256 = try string("sha256")
        guard sha256.utf8.count == 64, sha256.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            throw .badManifest("\"sha256\" is not 64 lower-case hex digits")
        }
        switch json["countries"] {
        case .string("all"): countries = []
        case .array(let items):
            countries = items.compactMap(\.stringValue)
            guard countries.count == items.count, countries.allSatisfy({ CountryCodes.all.contains($0) }) else {
                throw .badManifest("\"countries\" must be \"all\" or ISO 3166 codes")
            }
        default: throw .badManifest("\"countries\" must be \"all\" or a list")
        }
        source = try string("source")
        licence = try string("licence")
        attribution = try string("attribution")
        version = try string("version")
    }
}
