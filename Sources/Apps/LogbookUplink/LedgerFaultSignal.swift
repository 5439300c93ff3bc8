// SPDX-License-Identifier: MIT
import LogbookCore
public import LogbookRecords

/// A fault code signal the ledger keeps (``FaultCodeSignal``): kept as records, not as the
/// active set, so a rewind can drop the ones a power cut took.
public struct LedgerFaultSignal: Sendable, Equatable {
    public var sequence: UInt64
    public var vehicle: String
    public var signal: FaultCodeSignal
    public var on: Bool

    /// `[seq, vehicle, source, on]` in the ledger file.
    var json: JSONValue {
        .array([.string(String(sequence)), .string(vehicle), .string(signal.source), .bool(on)])
    }

    init(sequence: UInt64, vehicle: String, signal: FaultCodeSignal, on: Bool) {
        self.sequence = sequence
        self.vehicle = vehicle
        self.signal = signal
        self.on = on
    }

    init?(json: JSONValue) {
        guard case .array(let a) = json, a.count == 4, let seq = a[0].stringValue.flatMap({ UInt64($0) }),
            let vehicle = a[1].stringValue, let signal = a[2].stringValue.flatMap(FaultCodeSignal.init(source:)),
            let on = a[3].boolValue
        else { return nil }
        self.init(sequence: seq, vehicle: vehicle, signal: signal, on: on)
    }
}

extension VehicleLedger {
    /// The trouble codes active now, per vehicle.
    public var faultCodes: ActiveFaultCodes {
        var fold = ActiveFaultCodes()
        for f in faultSignals { fold.apply(source: f.signal.source, vehicle: f.vehicle, on: f.on) }
        return fold
    }
}
