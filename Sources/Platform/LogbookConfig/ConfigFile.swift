// SPDX-License-Identifier: MIT
internal import LogbookPOSIX

/// The logbook's one configuration file, shared by `logbookd`, `logbook`, `logbook-web` and
/// `logbook-uplink`: each process reads the tables it owns (see ``ConfigTables``).
package enum ConfigFile {
    /// The file read when `--config` is not given (missing is fine).
    package static let defaultPath = "/etc/logbook/logbookd.toml"

    /// Reads and parses the configuration: `file` (must exist) or, when nil,
    /// `LOGBOOKD_CONFIG` from `environment`, or else ``defaultPath`` if present.
    ///
    /// - Returns: the parsed tree (nil when no file was read) and the path it came from.
    /// - Throws: ``ConfigError`` for a missing named file, an unreadable file or a syntax error.
    package static func load(file: String?, environment: [String: String]) throws(ConfigError) -> (root: ConfigValue?, path: String?) {
        if let path = file ?? environment["LOGBOOKD_CONFIG"] {
            guard let text = try read(path) else {
                throw ConfigError(key: nil, file: path, problem: "config file not found")
            }
            return (try ConfigValue.parseTOML(text, file: path), path)
        }
        if let text = try read(defaultPath) {
            return (try ConfigValue.parseTOML(text, file: defaultPath), defaultPath)
        }
        return (nil, nil)
    }

    /// Reads a config file; nil when it does not exist.
    package static func read(_ path: String) throws(ConfigError) -> String? {
        let found: [UInt8]?
        do {
            found = try FileContents.read(path)
        } catch {
            throw ConfigError(key: nil, file: path, problem: "cannot read: \(error.reason)")
        }
        guard let bytes = found else { return nil }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ConfigError(key: nil, file: path, problem: "not valid UTF-8")
        }
        return text
    }
}

/// Which process owns which top-level key of the shared file.
///
/// A process rejects unknown keys inside the tables it owns, and any top-level key that no
/// process owns (a misspelt table), but leaves the other processes' tables to them.
/// A new table is one line here.
package enum ConfigTables {
    /// Read by the daemon.
    package static let daemon: Set<String> = [
        "gpsd", "state_dir", "runtime_dir", "log_level", "live", "journal", "control", "hooks", "shutdown",
        "trip", "vehicle", "source", "privacy_zone", "power", "rule",
    ]
    /// Read by the readers of the record (`logbook`, `logbook-web`): where the index is, units.
    package static let readers: Set<String> = ["index", "units", "places", "reimbursement"]
    /// `logbook-web`.
    package static let web: Set<String> = ["web"]
    /// `logbook-uplink`.
    package static let uplink: Set<String> = ["uplink"]
    /// Every top-level key some process owns.
    package static var all: Set<String> { daemon.union(readers).union(web).union(uplink) }
}
