// SPDX-License-Identifier: MIT
public import LogbookCore

/// The trips a person sees, after every correction: which recorded trips (or parts of them)
/// each trip number covers, its vehicle and driver, and whether it is void.
///
/// Pure and deterministic: the index and the uplink fold the same `trip.*` entries in journal
/// order and agree. A correction that no longer fits when it is folded in (a merge of a trip
/// already merged away, a split time outside the trip) changes nothing and is listed in
/// ``ignored``; the clients check before they write, so that happens only when two people
/// correct the same trip at once — and then the later entry loses, never a torn state.
public struct TripCorrections: Sendable {
    /// A recorded trip, as far as corrections need it.
    public struct RecordedSpan: Sendable, Hashable {
        public var id: TripID
        public var vehicle: String?
        public var start: GPSTime?
        public var end: GPSTime?

        public init(id: TripID, vehicle: String?, start: GPSTime?, end: GPSTime?) {
            self.id = id
            self.vehicle = vehicle
            self.start = start
            self.end = end
        }
    }

    /// A stretch of one recorded trip: its points with `from <= time < until` (nil: open end).
    public struct Part: Sendable, Hashable {
        public var source: TripID
        public var from: GPSTime?
        public var until: GPSTime?

        public init(source: TripID, from: GPSTime? = nil, until: GPSTime? = nil) {
            self.source = source
            self.from = from
            self.until = until
        }

        /// The whole of `source`.
        public var isWhole: Bool { from == nil && until == nil }
    }

    /// A trip number with its corrections applied.
    public struct Trip: Sendable, Hashable {
        public var number: TripID
        /// In time order; one whole part of itself for a trip that was not merged or split.
        public var parts: [Part]
        /// The vehicle as recorded, or as assigned.
        public var vehicle: String?
        public var driver: String?
        public var voided: Bool
        public var voidReason: String?
        /// Merged into that trip: not shown on its own.
        public var mergedInto: TripID?
        /// Split off from that trip (a number of its own since).
        public var splitFrom: TripID?
        /// The corrections that touched it, oldest first.
        public var history: [RecordedEntry]

        /// Points, distance or times may differ from the recorded trip's.
        public var reshaped: Bool { parts != [Part(source: number)] }
    }

    /// The types folded here.
    public static let types: Set<String> = [
        TripVoidRecord.type, TripAssignRecord.type, TripMergeRecord.type, TripSplitRecord.type,
    ]

    /// Every trip number a correction touched (split-off numbers included).
    public private(set) var trips: [TripID: Trip] = [:]
    /// Corrections that did not fit when folded in.
    public private(set) var ignored: [RecordedEntry] = []
    private let spans: [TripID: RecordedSpan]

    /// - Parameter recorded: the recorded trips the corrections name
    ///   (``referencedTrips(in:)``), by number.
    public init(recorded: [TripID: RecordedSpan]) {
        self.spans = recorded
    }

    /// The trip numbers `entries` name (subjects and merge partners): the recorded trips a
    /// fold of them needs.
    public static func referencedTrips(in entries: some Sequence<RecordedEntry>) -> Set<TripID> {
        var out: Set<TripID> = []
        for e in entries where types.contains(e.entry.type) {
            if let n = UInt64(e.entry.subject) { out.insert(TripID(n)) }
            if e.entry.type == TripMergeRecord.type, let m = try? TripMergeRecord(json: e.entry.fields) { out.insert(m.with) }
        }
        return out
    }

    private func recorded(_ id: TripID) -> RecordedSpan? { spans[id] }

    /// The trip `number` as corrected; nil when it was neither recorded nor split off.
    public func trip(_ number: TripID) -> Trip? {
        if let t = trips[number] { return t }
        guard let span = recorded(number) else { return nil }
        return Trip(number: number, parts: [Part(source: number)], vehicle: span.vehicle, voided: false, history: [])
    }

    /// Folds one entry in (journal order); other types are skipped.
    public mutating func apply(_ e: RecordedEntry) {
        guard Self.types.contains(e.entry.type), let n = UInt64(e.entry.subject), var t = trip(TripID(n)), t.mergedInto == nil else {
            if Self.types.contains(e.entry.type) { ignored.append(e) }
            return
        }
        let entry = e.entry
        switch entry.type {
        case TripVoidRecord.type:
            t.voided = entry.action != .void
            t.voidReason = t.voided ? (try? TripVoidRecord(json: entry.fields))?.reason : nil
        case TripAssignRecord.type:
            guard let a = try? TripAssignRecord(json: entry.fields) else { return ignored.append(e) }
            if let v = a.vehicle { t.vehicle = v }
            if let d = a.driver { t.driver = d }
        case TripMergeRecord.type:
            guard let m = try? TripMergeRecord(json: entry.fields), m.with != t.number, var later = trip(m.with), later.mergedInto == nil
            else { return ignored.append(e) }
            t.parts += later.parts
            later.mergedInto = t.number
            later.history.append(e)
            trips[later.number] = later
        case TripSplitRecord.type:
            guard let s = try? TripSplitRecord(json: entry.fields), let newNumber = s.newTrip, trip(newNumber) == nil,
                let (before, after) = cut(t.parts, at: s.at), !before.isEmpty, !after.isEmpty
            else { return ignored.append(e) }
            t.parts = before
            trips[newNumber] = Trip(
                number: newNumber, parts: after, vehicle: t.vehicle, driver: t.driver, voided: false, splitFrom: t.number, history: [e])
        default:
            return
        }
        t.history.append(e)
        trips[t.number] = t
    }

    /// `parts` cut at `time`: the stretches before it and from it on; nil when `time` is not
    /// inside them.
    func cut(_ parts: [Part], at time: GPSTime) -> ([Part], [Part])? {
        var before: [Part] = [], after: [Part] = []
        for p in parts {
            guard let span = recorded(p.source) else { return nil }
            let from = p.from ?? span.start, until = p.until ?? span.end
            if let until, until <= time {
                before.append(p)
            } else if let from, from >= time {
                after.append(p)
            } else {
                before.append(Part(source: p.source, from: p.from, until: time))
                after.append(Part(source: p.source, from: time, until: p.until))
            }
        }
        return (before, after)
    }
}
