// SPDX-License-Identifier: MIT
public import LogbookCore
import LogbookRecords

/// A recorded trip, as little of it as the corrections and the sensors need (a decade of
/// trips is a few hundred KiB): its vehicle, times, the daemon's figures and where in the
/// journal it starts and ends (a rewind drops what follows its target).
public struct LedgerTrip: Sendable, Equatable {
    public var id: TripID
    /// The vehicle the daemon recorded (the default vehicle for a trip that named none).
    public var vehicle: String
    public var startSequence: UInt64
    /// Nil while the trip is open.
    public var endSequence: UInt64?
    public var start: GPSTime?
    public var end: GPSTime?
    /// Metres and seconds, from the daemon's trip summary.
    public var distance = 0.0
    public var duration = 0.0
    public var discarded = false

    public init(id: TripID, vehicle: String, startSequence: UInt64, start: GPSTime?) {
        self.id = id
        self.vehicle = vehicle
        self.startSequence = startSequence
        self.start = start
    }

    public var isOpen: Bool { endSequence == nil }

    /// What ``TripCorrections`` folds over.
    var span: TripCorrections.RecordedSpan {
        TripCorrections.RecordedSpan(id: id, vehicle: vehicle, start: start ?? end.map { GPSTime(nanoseconds: $0.nanoseconds - Int64(duration * 1e9)) }, end: end)
    }

    /// `[id, vehicle, start_seq, end_seq, start_ns, end_ns, distance_m, duration_s, discarded]`.
    var json: JSONValue {
        func ns(_ t: GPSTime?) -> JSONValue { t.map { .string(String($0.nanoseconds)) } ?? .null }
        return .array([
            .number(Double(id.rawValue)), .string(vehicle), .number(Double(startSequence)),
            endSequence.map { .number(Double($0)) } ?? .null, ns(start), ns(end), .number(distance), .number(duration),
            .bool(discarded),
        ])
    }

    init?(json: JSONValue) {
        guard case .array(let a) = json, a.count == 9, let id = a[0].doubleValue, id >= 1, let v = a[1].stringValue,
            let s = a[2].doubleValue, s >= 0
        else { return nil }
        func ns(_ j: JSONValue) -> GPSTime? { j.stringValue.flatMap { Int64($0) }.map { GPSTime(nanoseconds: $0) } }
        self.init(id: TripID(UInt64(id)), vehicle: v, startSequence: UInt64(s), start: ns(a[4]))
        endSequence = a[3].doubleValue.map { UInt64(max(0, $0)) }
        end = ns(a[5])
        distance = a[6].doubleValue ?? 0
        duration = a[7].doubleValue ?? 0
        discarded = a[8].boolValue ?? false
    }
}
