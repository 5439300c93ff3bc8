// SPDX-License-Identifier: MIT
public import LogbookCore

/// Trips still waiting for a classification (closed, kept, not voided, neither a person nor a
/// rule classified them): how many, and the oldest one with its age. `logbook status`, the
/// web's Dashboard, `dashboard.json` and the `on_unclassified` hook show it.
public struct UnclassifiedTrips: Sendable, Hashable {
    public var count: Int
    /// The one that ended first.
    public var oldest: TripID?
    public var oldestEndedAt: GPSTime?
    /// Seconds from the oldest one's end to `now`.
    public var oldestAge: Double?

    public init(trips: [TripOverview], classified: Set<TripID>, now: GPSTime) {
        let waiting = trips.filter { $0.state == .closed && !$0.voided && !classified.contains($0.id) }
        count = waiting.count
        let first = waiting.min { ($0.endedAt ?? now, $0.id) < ($1.endedAt ?? now, $1.id) }
        oldest = first?.id
        oldestEndedAt = first?.endedAt
        oldestAge = first?.endedAt.map { max(0, Double(now.nanoseconds - $0.nanoseconds) / 1e9) }
    }

    /// `dashboard.json`'s `unclassified`: `{count, oldest_trip, oldest_ended_at, oldest_age_s}`.
    public var json: JSONValue {
        .object([
            ("count", .integer(count)), ("oldest_trip", oldest.map { .number(Double($0.rawValue)) } ?? .null),
            ("oldest_ended_at", oldestEndedAt.map { .string(ISO8601.format($0)) } ?? .null),
            ("oldest_age_s", oldestAge.map { .number($0.rounded()) } ?? .null),
        ])
    }

    /// `3 unclassified trips, the oldest (trip 4) 12 days old`; `every trip is classified`.
    public var text: String {
        guard count > 0, let oldest, let age = oldestAge else { return "every trip is classified" }
        return "\(count) unclassified trip\(count == 1 ? "" : "s"), the oldest (trip \(oldest)) \(Self.age(age)) old"
    }

    /// `12 days`, `5 h`, `40 min`.
    public static func age(_ seconds: Double) -> String {
        let minutes = Int(seconds / 60)
        if minutes >= 2 * 1440 { return "\(minutes / 1440) days" }
        if minutes >= 120 { return "\(minutes / 60) h" }
        return "\(minutes) min"
    }
}
