// SPDX-License-Identifier: MIT
package import LogbookConfig
public import LogbookCore
internal import LogbookPOSIX

/// Loads the time zone the readers show and read local times in: `[units] time_zone` (an
/// IANA name looked up in `/usr/share/zoneinfo`), else the system's (`TZ`, else
/// `/etc/localtime`), else UTC.
public enum TimeZoneFile {
    /// Where tzdata keeps its TZif files.
    public static let directory = "/usr/share/zoneinfo"

    /// The zone named `name` (`Europe/Berlin`), nil when tzdata has no such zone.
    public static func named(_ name: String) -> TimeZoneRules? {
        let allowed = name.utf8.allSatisfy { ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || "_+-/".utf8.contains($0) }
        guard !name.isEmpty, allowed, !name.hasPrefix("/"), !name.split(separator: "/").contains("..") else { return nil }
        guard let bytes = try? FileContents.read(directory + "/" + name, limit: 1 << 20) else { return nil }
        return TimeZoneRules(name: name, tzif: bytes)
    }

    /// The system's zone: `TZ` (a name, `:name`, a file path or a POSIX rule), else
    /// `/etc/localtime`, else UTC.
    public static func system(environment: [String: String]) -> TimeZoneRules {
        if var tz = environment["TZ"], !tz.isEmpty {
            if tz.hasPrefix(":") { tz.removeFirst() }
            if tz.hasPrefix("/"), let bytes = try? FileContents.read(tz, limit: 1 << 20), let z = TimeZoneRules(name: tz, tzif: bytes) { return z }
            if let z = named(tz) { return z }
            if let z = TimeZoneRules(name: tz, posixRule: tz) { return z }
        }
        if let bytes = try? FileContents.read("/etc/localtime", limit: 1 << 20), let z = TimeZoneRules(name: "localtime", tzif: bytes) {
            // The file has no name of its own: views show the zone's abbreviation (`CET`).
            return z
        }
        return .utc
    }

    /// `[units] time_zone` when set (checked: exit 78 naming the key), else the system's.
    package static func load(_ reader: inout ConfigReader, file: String?, environment: [String: String]) throws(ConfigError) -> TimeZoneRules {
        guard let name = try reader.string("units.time_zone") else { return system(environment: environment) }
        guard let zone = named(name) else {
            throw ConfigError(
                key: "units.time_zone", file: file,
                problem: "expected an IANA time zone name found in \(directory) (e.g. \"Europe/Berlin\"), got \"\(name)\"")
        }
        return zone
    }
}
