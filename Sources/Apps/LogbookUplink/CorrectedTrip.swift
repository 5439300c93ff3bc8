// SPDX-License-Identifier: MIT
public import LogbookCore
public import LogbookRecords

/// A trip as a person sees it after the corrections, with the figures the sensors and the
/// fleet store show: the recorded trip's own figures when its shape is as recorded, else
/// those of its parts (``TripPartFigures``) — the rule the index applies too.
public struct CorrectedTrip: Sendable, Equatable {
    public var number: TripID
    public var vehicle: String?
    public var driver: String?
    public var voided: Bool
    public var voidReason: String?
    public var splitFrom: TripID?
    public var start: GPSTime?
    public var end: GPSTime?
    /// Metres.
    public var distance: Double
    /// Seconds.
    public var duration: Double
    public var discarded: Bool
    public var open: Bool
    /// The journal sequence of its first record (its start, or the split that numbered it).
    public var sequence: UInt64

    /// Counts in distances, odometer legs and "last trip": not void, not discarded, closed.
    public var counts: Bool { !voided && !discarded && !open }

    /// The corrected trips of `ledger`: every recorded trip no correction touched, and every
    /// trip number the corrections made or changed, except those merged into another.
    public static func all(_ ledger: VehicleLedger, corrections fold: TripCorrections) -> [CorrectedTrip] {
        var out: [CorrectedTrip] = []
        for t in ledger.trips where fold.trips[t.id] == nil {
            out.append(CorrectedTrip(
                number: t.id, vehicle: t.vehicle, voided: false, start: t.start, end: t.end, distance: t.distance,
                duration: t.duration, discarded: t.discarded, open: t.isOpen, sequence: t.startSequence))
        }
        for t in fold.trips.values where t.mergedInto == nil {
            if let c = corrected(t, ledger) { out.append(c) }
        }
        // In time order (a split-off part is numbered when the split is made, later than its time).
        return out.sorted { ($0.start?.nanoseconds ?? .min, $0.sequence) < ($1.start?.nanoseconds ?? .min, $1.sequence) }
    }

    /// The figures of one corrected trip; nil when none of its parts is known.
    static func corrected(_ t: TripCorrections.Trip, _ ledger: VehicleLedger) -> CorrectedTrip? {
        var c = CorrectedTrip(
            number: t.number, vehicle: t.vehicle, driver: t.driver, voided: t.voided, voidReason: t.voidReason, splitFrom: t.splitFrom,
            distance: 0, duration: 0, discarded: true, open: false,
            sequence: ledger.trip(t.number)?.startSequence ?? t.history.first?.sequence ?? 0)
        var any = false
        for part in t.parts {
            guard let recorded = ledger.trip(part.source) else { continue }
            let figures: TripPartFigures
            if part.isWhole {
                figures = TripPartFigures(start: recorded.start, end: recorded.end, distance: recorded.distance, points: 1)
            } else {
                guard let measured = ledger.parts[part], measured.points > 0 else { continue }
                figures = measured
            }
            if !any { c.start = figures.start }
            any = true
            c.end = figures.end ?? c.end
            c.distance += figures.distance
            c.discarded = c.discarded && recorded.discarded
            c.open = recorded.isOpen
        }
        guard any else { return nil }
        // One whole recorded trip keeps the daemon's (monotonic) duration.
        if t.parts.count == 1, let only = t.parts.first, only.isWhole, let recorded = ledger.trip(only.source) {
            c.duration = recorded.duration
        } else if let s = c.start, let e = c.end {
            c.duration = max(0, e.seconds(since: s))
        }
        return c
    }
}
