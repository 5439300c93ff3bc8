// SPDX-License-Identifier: MIT
import LogbookCore
import LogbookJournal
import LogbookRecords

/// The entries the fleet store holds (the `events` table, kind `entry`), read back as the
/// typed schema's ``RecordedEntry`` for the folds; and the vehicle registry they make.
enum FleetEvents {
    /// The device's entries of `types`, in journal order.
    static func entries(_ db: any SQLConnection, device: String, types: [String]) throws(UplinkError) -> [RecordedEntry] {
        try db.execute("""
            SELECT seq, body FROM events
            WHERE device_id = $1 AND kind = 'entry' AND body->>'entry_type' = ANY($2::text[]) ORDER BY seq
            """, [device, "{" + types.joined(separator: ",") + "}"]).compactMap { row in
            guard row.count == 2, let seq = row[0].flatMap({ UInt64($0) }), let body = row[1].flatMap({ try? JSONValue.parse($0) }),
                let type = body["entry_type"]?.stringValue, let action = body["action"]?.stringValue.flatMap(RecordEntry.Action.init(rawValue:)),
                let subject = body["subject"]?.stringValue
            else { return nil }
            return RecordedEntry(
                sequence: seq,
                entry: RecordEntry(type: type, action: action, subject: subject, fields: body["fields"] ?? .object([]),
                                   origin: body["origin"]?.stringValue ?? ""),
                recordedAt: body["recorded_at"]?.stringValue.flatMap(ISO8601.parse))
        }
    }

    /// Whether `items` hold a `vehicle` entry.
    static func changesVehicles(_ items: [JournalItem]) -> Bool {
        items.contains { item in
            if case .entry(let e) = item, case .entry(let u) = e.record { return u.type == VehicleRecord.type }
            return false
        }
    }

    /// Writes the registry into `vehicles`: the configured vehicles, with the journal's
    /// `vehicle` entries folded over them (the journal wins; a retired one is marked).
    static func syncVehicles(_ db: any SQLConnection, device: String, configured: [ConfiguredVehicle]) throws(UplinkError) {
        var fold = EntryFold<VehicleRecord>()
        for v in configured { fold.seed(id: v.id, record: v.record) }
        for e in try entries(db, device: device, types: [VehicleRecord.type]) { fold.apply(e) }
        for v in fold.items {
            let r = v.record
            try db.execute("""
                INSERT INTO vehicles (device_id, vehicle_id, name, make, model, year, registration, fuel_type, vin, driver, retired)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
                ON CONFLICT (device_id, vehicle_id) DO UPDATE SET name = EXCLUDED.name, make = EXCLUDED.make,
                    model = EXCLUDED.model, year = EXCLUDED.year, registration = EXCLUDED.registration,
                    fuel_type = EXCLUDED.fuel_type, vin = EXCLUDED.vin, driver = EXCLUDED.driver, retired = EXCLUDED.retired
                """, [device, v.id, r.name ?? v.id, r.make, r.model, r.year.map { String($0) }, r.registration, r.fuelType, r.vin,
                      r.driver, v.voided ? "true" : "false"])
        }
    }
}
