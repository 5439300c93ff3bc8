// SPDX-License-Identifier: MIT
public import LogbookCore
import LogbookGarage
public import LogbookJournal
public import LogbookRecords

/// What the journal says that Home Assistant's per-vehicle sensors need, as raw material:
/// every recorded trip (``LedgerTrip``), the fault code signals, the entries of the types the sensors read (vehicles,
/// fuel, odometer readings, service tasks, trip corrections) and the figures of split trips'
/// parts. ``LedgerView`` works the sensors out of it with the shared folds (``Garage``,
/// ``TripCorrections``, ``FuelEconomy``, ``OdometerCalibration``, ``ServiceDue``), so the
/// uplink shows what the CLI and the web app show.
///
/// Folded as the MQTT sink delivers records; idempotent on the journal sequence (a record at
/// or below ``through`` is skipped), so a batch delivered again changes nothing.
public struct VehicleLedger: Sendable, Equatable {
    /// Recorded trips, in journal order.
    public internal(set) var trips: [LedgerTrip] = []
    var positions: [TripID: Int] = [:]
    /// The entries of ``entryTypes``, in journal order.
    public internal(set) var entries: [RecordedEntry] = []
    /// Fault code signals (`dtc:CODE`, `dtc-pending:CODE`), in journal order.
    public internal(set) var faultSignals: [LedgerFaultSignal] = []
    /// Split trips' parts, measured from the journal's points once (``measure(_:points:)``).
    public internal(set) var parts: [TripCorrections.Part: TripPartFigures] = [:]
    /// The last journal sequence folded in.
    public internal(set) var through: UInt64 = 0

    /// The entry types kept: the garage's (trip classifications aside: the bulk of a decade's
    /// entries, and no sensor shows them) and the trip corrections.
    public static let entryTypes: Set<String> = Set(Garage.entryTypes).subtracting([TripClassRecord.type]).union(TripCorrections.types)

    public init() {}

    /// The recorded trip `id`.
    public func trip(_ id: TripID) -> LedgerTrip? { positions[id].map { trips[$0] } }

    /// Folds one record in; returns whether anything a sensor shows may have changed.
    @discardableResult
    public mutating func apply(_ e: JournalEntry, defaultVehicle: String) -> Bool {
        guard e.sequence > through else { return false }
        if case .points(_, let p) = e.record { through = e.sequence &+ UInt64(max(p.count, 1)) &- 1 } else { through = e.sequence }
        switch e.record {
        case .tripStarted(let s):
            let trip = LedgerTrip(id: s.id, vehicle: s.vehicleID ?? defaultVehicle, startSequence: e.sequence, start: s.gpsTime)
            if let i = positions[s.id] { trips[i] = trip } else {
                positions[s.id] = trips.count
                trips.append(trip)
            }
            return true
        case .points(let id, let points):
            // A start without a GPS time is the first point's; an open trip ends at its last point.
            guard let i = positions[id], trips[i].isOpen, let last = points.last?.time else { return false }
            if trips[i].start == nil { trips[i].start = points.first?.time }
            trips[i].end = last
            return false
        case .tripEnded(let t):
            guard let i = positions[t.id] else { return false }
            trips[i].endSequence = e.sequence
            trips[i].end = t.gpsTime ?? trips[i].end
            trips[i].distance = t.summary.distance
            trips[i].duration = t.summary.duration
            trips[i].discarded = t.discarded
            return true
        case .tripReopened(let r):
            // A restart mid-drive continued the trip: open again until its next end, which
            // carries the whole trip's figures (so the part before the restart counts once).
            let i: Int
            if let known = positions[r.id] {
                i = known
            } else {
                i = trips.count
                positions[r.id] = i
                trips.append(LedgerTrip(id: r.id, vehicle: r.vehicleID ?? defaultVehicle, startSequence: e.sequence, start: r.startTime))
            }
            trips[i].endSequence = nil
            trips[i].end = r.from ?? trips[i].end
            trips[i].distance = r.summary.distance
            trips[i].duration = r.summary.duration
            trips[i].discarded = false
            return true
        case .entry(let u):
            guard Self.entryTypes.contains(u.type) else { return false }
            entries.append(RecordedEntry(sequence: e.sequence, entry: RecordEntry(u), recordedAt: u.recordedAt.map(GPSTime.init(nanoseconds:))))
            return true
        case .signal(let s):
            guard let fault = FaultCodeSignal(source: s.source) else { return false }
            faultSignals.append(LedgerFaultSignal(sequence: e.sequence, vehicle: s.vehicleID ?? defaultVehicle, signal: fault, on: s.on))
            return true
        }
    }

    /// Drops what followed `sequence` (a rewind: a power cut took those records, their
    /// replacements follow).
    public mutating func rewind(to sequence: UInt64) {
        guard sequence < through else { return }
        through = sequence
        entries.removeAll { $0.sequence > sequence }
        faultSignals.removeAll { $0.sequence > sequence }
        var touched: Set<TripID> = []
        trips.removeAll { t in
            if t.startSequence > sequence { touched.insert(t.id) }
            return t.startSequence > sequence
        }
        for i in trips.indices where (trips[i].endSequence ?? 0) > sequence {
            trips[i].endSequence = nil
            touched.insert(trips[i].id)
        }
        positions = Dictionary(uniqueKeysWithValues: trips.enumerated().map { ($1.id, $0) })
        parts = parts.filter { !touched.contains($0.key.source) }
    }

    /// Parts of corrected trips whose figures need the recorded trip's points.
    public func unmeasuredParts(_ corrections: TripCorrections) -> [TripCorrections.Part] {
        var out: [TripCorrections.Part] = []
        for t in corrections.trips.values where t.mergedInto == nil {
            for p in t.parts where !p.isWhole && parts[p] == nil && trip(p.source).map({ !$0.isOpen }) == true { out.append(p) }
        }
        return out.sorted { ($0.source, $0.from ?? GPSTime(nanoseconds: .min)) < ($1.source, $1.from ?? GPSTime(nanoseconds: .min)) }
    }

    /// Measures `part` over the points of its recorded trip (``TripPartFigures``).
    public mutating func measure(_ part: TripCorrections.Part, points: [TripPoint]) {
        guard let t = trip(part.source) else { return }
        parts[part] = TripPartFigures(part: part, points: points, recordedDistance: t.distance, recordedStart: t.start,
                                      recordedEnd: t.isOpen ? nil : t.end)
    }

    /// The trip corrections folded over the recorded trips.
    public var corrections: TripCorrections {
        let corrections = entries.filter { TripCorrections.types.contains($0.entry.type) }
        var spans: [TripID: TripCorrections.RecordedSpan] = [:]
        for id in TripCorrections.referencedTrips(in: corrections) { if let t = trip(id) { spans[id] = t.span } }
        var fold = TripCorrections(recorded: spans)
        for e in corrections { fold.apply(e) }
        return fold
    }
}

extension RecordEntry {
    /// The typed schema's view of a journal entry.
    init(_ u: UserEntry) {
        let action: RecordEntry.Action =
            switch u.action {
            case .add: .add
            case .amend: .amend
            case .void: .void
            }
        self.init(type: u.type, action: action, subject: u.subject, fields: u.fields, origin: u.origin)
    }
}
