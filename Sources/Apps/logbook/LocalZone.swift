// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookStore
import Synchronization

/// The zone this run of `logbook` shows and reads local times in: `[units] time_zone`, set
/// by ``ReaderSettings/load(_:)`` before any command reads a date; until then the system's.
enum LocalZone {
    private static let current = Mutex<TimeZoneRules>(TimeZoneFile.system(environment: ProcessInfo.processInfo.environment))

    /// The zone.
    static var rules: TimeZoneRules {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }

    /// Seconds east of UTC at `time`.
    static func offset(_ time: GPSTime) -> Int { rules.offset(time) }

    /// The zone's abbreviation at `time` (`CET`, `CEST`, `UTC`).
    static func name(_ time: GPSTime) -> String { rules.abbreviation(time) }
}

/// Date and time options (`--since`, `--until`, `--at`, `--last-done`, …).
enum DateArgument {
    /// ``LocalTimeInput`` in the configured zone; a plain date with `endOfDay` is the next
    /// local midnight. Throws a usage error naming the option.
    static func parse(_ text: String, option: String, endOfDay: Bool = false) throws -> GPSTime {
        do {
            return try LocalTimeInput.parse(text, zone: LocalZone.rules, endOfDay: endOfDay)
        } catch {
            throw CLIError.usage("\(option): \(error.message)")
        }
    }

    /// The option as the garage's requests carry it (ISO 8601 UTC), nil when not given.
    static func utcText(_ text: String?, option: String) throws -> String? {
        try text.map { ISO8601.format(try parse($0, option: option)) }
    }
}

extension LocalZone {
    /// How table headers name the zone: its IANA name, else (a bare `/etc/localtime`) its
    /// abbreviation now.
    static var label: String {
        let r = rules
        return r.name == "localtime" ? r.abbreviation(GPSTime(seconds: Int64(Date().timeIntervalSince1970))) : r.name
    }
}
