// SPDX-License-Identifier: MIT
package import LogbookConfig

/// `[web] map_tiles`: the raster tile URL template the maps draw under the route, and
/// `[web] map_attribution`, the credit shown on them. OpenStreetMap's standard tiles by
/// default; an empty template turns tiles off (the maps draw on a plain background).
package struct MapTiles: Sendable, Hashable {
    /// OpenStreetMap's standard tile layer (its tile usage policy asks for the attribution).
    package static let openStreetMap = "https://tile.openstreetmap.org/{z}/{x}/{y}.png"
    package static let openStreetMapAttribution = "© OpenStreetMap contributors"

    /// The template, `{z}`, `{x}`, `{y}` (and optionally `{s}`) in an http or https URL.
    package var template: String
    package var attribution: String

    package init(template: String = Self.openStreetMap, attribution: String? = nil) {
        self.template = template
        self.attribution = attribution ?? (template == Self.openStreetMap ? Self.openStreetMapAttribution : "")
    }

    /// False when `map_tiles` is empty.
    package var enabled: Bool { !template.isEmpty }

    /// `scheme://host[:port]` of the tiles, for the content security policy's `img-src`
    /// (nil when off). A `{s}` subdomain becomes a wildcard.
    package var origin: String? {
        guard enabled, let parts = Self.split(template) else { return nil }
        return parts.scheme + "://" + parts.authority.replacing("{s}", with: "*")
    }

    /// A template read from `key`, checked: http/https, a host, and each of `{z}`, `{x}`, `{y}`.
    package static func checked(_ template: String, key: String, file: String?) throws(ConfigError) -> String {
        guard !template.isEmpty else { return template }
        guard let parts = split(template), !parts.authority.isEmpty else {
            throw ConfigError(key: key, file: file, problem: "expected an http:// or https:// URL template, got \"\(template)\"")
        }
        let missing = ["{z}", "{x}", "{y}"].filter { !template.contains($0) }
        guard missing.isEmpty else {
            throw ConfigError(key: key, file: file, problem: "the template lacks \(missing.joined(separator: ", ")): \"\(template)\"")
        }
        let allowed = parts.authority.allSatisfy { $0.isLetter || $0.isNumber || "-.:[]{}".contains($0) }
        guard allowed, !template.contains(where: { $0 == " " || $0 == "\"" || $0 == "'" || $0 == ";" || $0 == "<" || $0 == ">" }) else {
            throw ConfigError(key: key, file: file, problem: "the template has characters a URL cannot hold: \"\(template)\"")
        }
        return template
    }

    /// The scheme (`http`/`https`, lower case) and the authority of `template`.
    private static func split(_ template: String) -> (scheme: String, authority: String)? {
        let lower = template.lowercased()
        for scheme in ["https", "http"] where lower.hasPrefix(scheme + "://") {
            let rest = template.dropFirst(scheme.count + 3)
            return (scheme, String(rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }))
        }
        return nil
    }
}
