// SPDX-License-Identifier: MIT
public import LogbookCore
import LogbookJournal
import LogbookRecords

/// The ledger's file form: `<state_dir>/ledger-mqtt.json`, rewritten only when a trip starts
/// or ends or an entry arrives (a few times a day), not with every cursor save while driving.
///
/// The cursor names the sequence the ledger had reached; a ledger file ahead of it (a crash
/// between the two writes) is fine, because folding is idempotent on the sequence.
extension VehicleLedger {
    /// Schema 1: `through`, `trips` (``LedgerTrip`` arrays), `entries`
    /// (`[seq, type, action, subject, fields, recorded_ns, origin]`), `parts`
    /// (`[source, from_ns, until_ns, start_ns, end_ns, distance_m, points, max_speed]`),
    /// `faults` (``LedgerFaultSignal``; a file without them is rebuilt from the journal).
    public var json: JSONValue {
        func ns(_ t: GPSTime?) -> JSONValue { t.map { .string(String($0.nanoseconds)) } ?? .null }
        return .object([
            ("schema", .number(1)),
            ("through", .string(String(through))),
            ("trips", .array(trips.map(\.json))),
            ("entries", .array(entries.map { e in
                .array([
                    .string(String(e.sequence)), .string(e.entry.type), .string(e.entry.action.rawValue), .string(e.entry.subject),
                    e.entry.fields, ns(e.recordedAt), .string(e.entry.origin),
                ])
            })),
            ("parts", .array(parts.keys.sorted { ($0.source, $0.from?.nanoseconds ?? .min) < ($1.source, $1.from?.nanoseconds ?? .min) }
                .map { p in
                    let f = parts[p] ?? TripPartFigures(start: nil, end: nil, distance: 0, points: 0)
                    return .array([
                        .number(Double(p.source.rawValue)), ns(p.from), ns(p.until), ns(f.start), ns(f.end), .number(f.distance),
                        .number(Double(f.points)), .number(f.maxSpeed),
                    ])
                })),
            ("faults", .array(faultSignals.map(\.json))),
        ])
    }

    /// Restores ``json``; nil when it is not a ledger of this schema.
    public init?(json: JSONValue) {
        guard json["schema"]?.doubleValue == 1, let through = json["through"]?.stringValue.flatMap({ UInt64($0) }),
            case .array(let trips)? = json["trips"], case .array(let entries)? = json["entries"], case .array(let parts)? = json["parts"],
            case .array(let faults)? = json["faults"]
        else { return nil }
        func ns(_ j: JSONValue) -> GPSTime? { j.stringValue.flatMap { Int64($0) }.map { GPSTime(nanoseconds: $0) } }
        self.init()
        self.through = through
        for t in trips {
            guard let trip = LedgerTrip(json: t) else { return nil }
            positions[trip.id] = self.trips.count
            self.trips.append(trip)
        }
        for e in entries {
            guard case .array(let a) = e, a.count == 7, let seq = a[0].stringValue.flatMap({ UInt64($0) }), let type = a[1].stringValue,
                let action = a[2].stringValue.flatMap(RecordEntry.Action.init(rawValue:)), let subject = a[3].stringValue,
                let origin = a[6].stringValue
            else { return nil }
            self.entries.append(RecordedEntry(
                sequence: seq, entry: RecordEntry(type: type, action: action, subject: subject, fields: a[4], origin: origin),
                recordedAt: ns(a[5])))
        }
        for f in faults {
            guard let fault = LedgerFaultSignal(json: f) else { return nil }
            faultSignals.append(fault)
        }
        for p in parts {
            guard case .array(let a) = p, a.count == 8, let source = a[0].doubleValue, source >= 1 else { return nil }
            let part = TripCorrections.Part(source: TripID(UInt64(source)), from: ns(a[1]), until: ns(a[2]))
            self.parts[part] = TripPartFigures(
                start: ns(a[3]), end: ns(a[4]), distance: a[5].doubleValue ?? 0, points: Int(a[6].doubleValue ?? 0),
                maxSpeed: a[7].doubleValue ?? 0)
        }
    }
}
