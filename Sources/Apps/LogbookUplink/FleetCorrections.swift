// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookJournal
import LogbookRecords

/// The fleet store's trips as corrected: after a batch with a trip correction (or a rewind),
/// every correction of the device is folded again (``TripCorrections``, the same fold the
/// index and Home Assistant's sensors use) from the `events` table — the database is the
/// state, so a restart, a re-delivered batch or a rewind needs nothing else — and the
/// correction columns of `trips` are rewritten: `voided`, `void_reason`,
/// `assigned_vehicle_id`, `driver`, `merged_into`, `split_from`, the `corrected_*` figures of
/// a merged or split trip, and a row (`recorded` false) for each split-off trip.
///
/// Runs inside the batch's transaction; a household's corrections over a decade are a few
/// hundred rows.
enum FleetCorrections {
    /// Whether `items` can change the corrections' outcome.
    static func needed(_ items: [JournalItem]) -> Bool {
        items.contains { item in
            switch item {
            case .rewound: return true
            case .entry(let e):
                if case .entry(let u) = e.record { return TripCorrections.types.contains(u.type) }
                return false
            case .checkpoint: return false
            }
        }
    }

    /// Folds every correction of `device` and rewrites the rows.
    static func sync(_ db: any SQLConnection, device: String, defaultVehicle: String) throws(UplinkError) {
        let types = TripCorrections.types.sorted()
        let entries = try FleetEvents.entries(db, device: device, types: types)
        var ledger = VehicleLedger()
        ledger.entries = entries
        let referenced = TripCorrections.referencedTrips(in: entries).map { String($0.rawValue) }
        for row in try db.execute("""
            SELECT trip_id, vehicle_id, start_seq, end_seq, \(micros("started_at")), \(micros("ended_at")), distance_m, duration_s,
                coalesce(discarded, false)
            FROM trips WHERE device_id = $1 AND recorded AND trip_id = ANY($2::bigint[]) ORDER BY start_seq
            """, [device, "{" + referenced.joined(separator: ",") + "}"]) {
            guard row.count == 9, let id = row[0].flatMap({ UInt64($0) }), let start = row[2].flatMap({ UInt64($0) }) else { continue }
            var t = LedgerTrip(id: TripID(id), vehicle: row[1] ?? defaultVehicle, startSequence: start, start: time(row[4]))
            t.endSequence = row[3].flatMap { UInt64($0) }
            t.end = time(row[5])
            t.distance = row[6].flatMap { Double($0) } ?? 0
            t.duration = row[7].flatMap { Double($0) } ?? 0
            t.discarded = row[8] == "t"
            ledger.positions[t.id] = ledger.trips.count
            ledger.trips.append(t)
        }
        let fold = ledger.corrections
        for part in ledger.unmeasuredParts(fold) { ledger.measure(part, points: try points(db, device: device, trip: part.source)) }

        try db.execute("DELETE FROM trips WHERE device_id = $1 AND NOT recorded", [device])
        try db.execute("""
            UPDATE trips SET voided = false, void_reason = NULL, assigned_vehicle_id = NULL, driver = NULL, merged_into = NULL,
                split_from = NULL, corrected_started_at = NULL, corrected_ended_at = NULL, corrected_distance_m = NULL,
                corrected_duration_s = NULL, correction_seq = NULL
            WHERE device_id = $1 AND correction_seq IS NOT NULL
            """, [device])
        for t in fold.trips.values.sorted(by: { $0.number < $1.number }) {
            let recorded = ledger.trip(t.number)
            let figures = t.mergedInto == nil ? CorrectedTrip.corrected(t, ledger) : nil
            let reshaped = t.reshaped && figures != nil
            let assigned = t.vehicle == (recorded?.vehicle ?? t.splitFrom.flatMap { ledger.trip($0)?.vehicle }) ? nil : t.vehicle
            let common: [String?] = [
                device, String(t.number.rawValue), t.voided ? "true" : "false", t.voidReason, assigned, t.driver,
                t.mergedInto.map { String($0.rawValue) }, t.splitFrom.map { String($0.rawValue) },
                reshaped ? ns(figures?.start) : nil, reshaped ? ns(figures?.end) : nil,
                reshaped ? figures.map { String($0.distance) } : nil, reshaped ? figures.map { String($0.duration) } : nil,
                String(t.history.last?.sequence ?? 0),
            ]
            if recorded != nil {
                try db.execute("""
                    UPDATE trips SET voided = $3, void_reason = $4, assigned_vehicle_id = $5, driver = $6, merged_into = $7,
                        split_from = $8, corrected_started_at = \(FleetBatch.timestamp("$9")), corrected_ended_at = \(FleetBatch.timestamp("$10")),
                        corrected_distance_m = $11, corrected_duration_s = $12, correction_seq = $13
                    WHERE device_id = $1 AND trip_id = $2 AND recorded
                    """, common)
            } else if let source = t.splitFrom.flatMap({ ledger.trip($0) }), let figures {
                // A split-off trip: the source's vehicle and end, its own start and figures.
                try db.execute("""
                    INSERT INTO trips (device_id, trip_id, voided, void_reason, assigned_vehicle_id, driver, merged_into, split_from,
                        corrected_started_at, corrected_ended_at, corrected_distance_m, corrected_duration_s, correction_seq,
                        recorded, vehicle_id, start_seq, start_reason, started_at, end_seq, end_reason, ended_at, distance_m,
                        duration_s, discarded)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, \(FleetBatch.timestamp("$9")), \(FleetBatch.timestamp("$10")), $11, $12, $13,
                        false, $14, $15, 'split', \(FleetBatch.timestamp("$9")), $16, 'split', \(FleetBatch.timestamp("$10")), $11, $12,
                        $17)
                    ON CONFLICT (device_id, trip_id) DO NOTHING
                    """, common + [source.vehicle, String(t.history.first?.sequence ?? 0), source.endSequence.map { String($0) },
                                   figures.discarded ? "true" : "false"])
            }
        }
    }

    /// The recorded points of `trip`, as the journal holds them (times to the microsecond).
    static func points(_ db: any SQLConnection, device: String, trip: TripID) throws(UplinkError) -> [TripPoint] {
        try db.execute("""
            SELECT \(micros("time")), lat, lon, speed_mps FROM points WHERE device_id = $1 AND trip_id = $2 ORDER BY seq
            """, [device, String(trip.rawValue)]).compactMap { row in
            guard row.count == 4, let t = time(row[0]) else { return nil }
            return TripPoint(time: t, latitude: row[1].flatMap { Double($0) } ?? .nan, longitude: row[2].flatMap { Double($0) } ?? .nan,
                             speed: row[3].flatMap { Double($0) })
        }
    }

    /// A `timestamptz` column as whole microseconds since the epoch.
    static func micros(_ column: String) -> String { "(extract(epoch FROM \(column)) * 1000000)::bigint" }

    static func time(_ micros: String?) -> GPSTime? {
        micros.flatMap { Int64($0) }.map { GPSTime(nanoseconds: $0 * 1000) }
    }

    static func ns(_ t: GPSTime?) -> String? { t.map { String($0.nanoseconds) } }
}
