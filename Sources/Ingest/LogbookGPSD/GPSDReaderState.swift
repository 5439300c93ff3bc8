// SPDX-License-Identifier: MIT
internal import CLogbookGPS
internal import LogbookCore

/// What one TPV report turned out to be.
enum TPVOutcome {
    case fix(Fix)
    case noFix(FixMode, GPSTime?)
    case duplicate
    /// A fix claimed (mode ≥ 2) without a finite position or a time: passed on as it is
    /// (NaN for what is missing, time 0 when unknown) for the filter to refuse and count.
    case invalid(Fix)
}

/// Per-thread state of the reader: turns flat TPV copies into fixes, once per epoch.
struct GPSDReaderState {
    private var seen = FixDeduplicator()

    mutating func classify(_ raw: cgps_fix) -> TPVOutcome {
        let time = raw.time_set != 0 ? GPSTime(seconds: Int64(raw.time_sec), nanoseconds: Int64(raw.time_nsec)) : nil
        let mode = FixMode(rawValue: Int(raw.mode)) ?? .notSeen
        guard mode.rawValue >= FixMode.twoD.rawValue else { return .noFix(mode, time) }
        let fix = Fix(
            time: time ?? GPSTime(nanoseconds: 0), mode: mode,
            latitude: raw.latlon_set != 0 ? raw.latitude : .nan, longitude: raw.latlon_set != 0 ? raw.longitude : .nan,
            altitudeHAE: finite(raw.alt_hae), altitudeMSL: finite(raw.alt_msl),
            speed: reported(raw.speed), track: reported(raw.track), climb: finite(raw.climb),
            eph: finite(raw.eph), epv: finite(raw.epv), eps: finite(raw.eps),
            satellitesUsed: raw.satellites_used > 0 ? Int(raw.satellites_used) : nil)
        guard let time, fix.latitude.isFinite, fix.longitude.isFinite else { return .invalid(fix) }
        guard seen.insert(time) else { return .duplicate }
        return .fix(fix)
    }

    private func finite(_ v: Double) -> Double? { v.isFinite ? v : nil }

    /// NaN is gpsd's "not available"; an infinite speed or course is passed on for the filter
    /// to refuse (`invalidMotion`).
    private func reported(_ v: Double) -> Double? { v.isNaN ? nil : v }
}

extension GPSDStatistics {
    mutating func record(_ outcome: TPVOutcome) {
        reports += 1
        switch outcome {
        case .fix: fixes += 1
        case .noFix: noFix += 1
        case .duplicate: duplicates += 1
        case .invalid: invalid += 1
        }
    }
}

/// Which reports without a fix reach the pipeline: a change of mode only (a parked receiver
/// without a fix reports every second; each hand-over wakes a thread of the daemon, and its
/// clock alone is not news).
struct NoFixThrottle {
    private var lastMode: FixMode?

    /// Whether a no-fix report with `mode` is handed over.
    mutating func admit(mode: FixMode) -> Bool {
        guard mode != lastMode else { return false }
        lastMode = mode
        return true
    }

    /// A fix came: the next report without one is news.
    mutating func sawFix() { lastMode = nil }
}
