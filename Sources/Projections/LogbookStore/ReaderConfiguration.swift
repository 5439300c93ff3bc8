// SPDX-License-Identifier: MIT
package import LogbookConfig
public import LogbookCore

/// What the readers of the record (`logbook`, `logbook-web`) take from the shared config
/// file: the tables they own, `[index]` and `[units]` (``ConfigTables/readers``).
public struct ReaderConfiguration: Sendable, Hashable {
    /// Where the index lives when the state directory is the default one: a rebuildable
    /// cache belongs under /var/cache (FHS), apart from the journal it is built from.
    public static let defaultIndexPath = "/var/cache/logbook/index.sqlite"
    public static let defaultStateDirectory = "/var/lib/logbook"

    /// `[index] path`; nil: ``indexPath(stateDirectory:)`` decides.
    public var configuredIndexPath: String?
    /// `[units] system`.
    public var units: UnitSystem = .metric
    /// `[units] currency`: the ISO 4217 code of a fill-up entered without one (else the
    /// vehicle's last fill-up's, ``Garage/defaultCurrency(vehicle:configured:)``).
    public var currency: String?
    /// `[units] time_zone`, else the system's (``TimeZoneFile``): local times in views and
    /// in what people type.
    public var timeZone: TimeZoneRules = .utc
    /// `[places] bundle`: the directory of the offline place-name bundle
    /// (`places.bin` + `places.manifest.json`); without one, places show as coordinates.
    public var placesBundle = "/usr/share/logbook/places"

    /// Creates the defaults.
    public init() {}

    /// The index file: `[index] path`, else ``defaultIndexPath`` for the default state
    /// directory, else `<state-dir>/cache/index.sqlite`, so that a journal kept elsewhere (a
    /// test, the demo) never shares an index with the system's.
    public func indexPath(stateDirectory: String) -> String {
        if let configuredIndexPath { return configuredIndexPath }
        return stateDirectory == Self.defaultStateDirectory ? Self.defaultIndexPath : stateDirectory + "/cache/index.sqlite"
    }

    /// Reads `[index]` and `[units]` from `file` (or `LOGBOOKD_CONFIG`, or the default file
    /// when present), with `LOGBOOKD_INDEX_PATH` / `LOGBOOKD_UNITS_SYSTEM` overrides.
    ///
    /// - Throws: ``ConfigError`` naming the key (exit 78 in the CLI).
    package static func load(file: String?, environment: [String: String]) throws(ConfigError) -> ReaderConfiguration {
        let (root, source) = try ConfigFile.load(file: file, environment: environment)
        var reader = ConfigReader(root: root, file: source, environment: environment)
        var config = ReaderConfiguration()
        if let path = try reader.string("index.path") {
            guard path.hasPrefix("/"), !path.hasSuffix("/") else {
                throw ConfigError(key: "index.path", file: source, problem: "must be an absolute file path, got \"\(path)\"")
            }
            config.configuredIndexPath = path
        }
        if let system = try reader.string("units.system") {
            guard let units = UnitSystem(rawValue: system) else {
                throw ConfigError(key: "units.system", file: source, problem: "expected \"metric\" or \"imperial\", got \"\(system)\"")
            }
            config.units = units
        }
        if let code = try reader.string("units.currency") { config.currency = try currency(code, file: source) }
        config.timeZone = try TimeZoneFile.load(&reader, file: source, environment: environment)
        if let dir = try reader.string("places.bundle") {
            guard dir.hasPrefix("/") else {
                throw ConfigError(key: "places.bundle", file: source, problem: "must be an absolute directory path, got \"\(dir)\"")
            }
            config.placesBundle = dir
        }
        // `[[reimbursement]]` is the report's (LogbookGarageStore's ReimbursementConfig checks it).
        _ = try reader.tables("reimbursement")
        // logbookd's key in the shared `[places]` table (arrival events): known here, so the
        // table's unknown-key check passes, and checked the same way.
        _ = try reader.double("places.hysteresis_m", in: 0...10_000)
        try reader.rejectUnknownKeys(owned: ConfigTables.readers)
        return config
    }

    /// `[units] currency` checked: three letters (ISO 4217), upper-cased.
    ///
    /// - Throws: ``ConfigError`` naming `units.currency`.
    package static func currency(_ code: String, file: String?) throws(ConfigError) -> String {
        guard code.utf8.count == 3, code.utf8.allSatisfy({ (65...90).contains($0) || (97...122).contains($0) }) else {
            throw ConfigError(key: "units.currency", file: file, problem: "expected an ISO 4217 code such as \"EUR\", got \"\(code)\"")
        }
        return code.uppercased()
    }
}
