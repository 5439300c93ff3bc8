// SPDX-License-Identifier: MIT
/// A trouble code's signal record, as the OBD recorder journals it and every reader reads it:
/// source `dtc:P0420` for a stored code (mode 03), `dtc-pending:P0420` for a pending one
/// (mode 07); on when the code appeared, off when it was cleared.
public struct FaultCodeSignal: Sendable, Hashable, Comparable {
    public var code: TroubleCode
    /// A pending code (mode 07): seen once, not confirmed, the warning lamp not (yet) on.
    public var pending: Bool

    public init(code: TroubleCode, pending: Bool) {
        self.code = code
        self.pending = pending
    }

    /// Reads a signal's source; nil when it is not a fault code's.
    public init?(source: String) {
        let pendingPrefix = "dtc-pending:", storedPrefix = "dtc:"
        if source.hasPrefix(pendingPrefix), let code = TroubleCode(String(source.dropFirst(pendingPrefix.count))) {
            self.init(code: code, pending: true)
        } else if source.hasPrefix(storedPrefix), let code = TroubleCode(String(source.dropFirst(storedPrefix.count))) {
            self.init(code: code, pending: false)
        } else {
            return nil
        }
    }

    /// The signal's source: `dtc:P0420` or `dtc-pending:P0420`.
    public var source: String { (pending ? "dtc-pending:" : "dtc:") + code.description }

    /// The SAE J2012 generic description when the code is generic and in the table.
    public var genericDescription: String? { code.genericDescription }

    /// Stored codes before pending ones, then by code.
    public static func < (a: FaultCodeSignal, b: FaultCodeSignal) -> Bool {
        (a.pending ? 1 : 0, a.code) < (b.pending ? 1 : 0, b.code)
    }
}

/// The trouble codes active per vehicle, folded from fault code signals in journal order
/// (an `on` adds the code, an `off` clears it).
public struct ActiveFaultCodes: Sendable, Equatable {
    private var byVehicle: [String: Set<FaultCodeSignal>] = [:]

    public init() {}

    /// Folds one signal record in; returns whether it was a fault code's.
    @discardableResult
    public mutating func apply(source: String, vehicle: String, on: Bool) -> Bool {
        guard let signal = FaultCodeSignal(source: source) else { return false }
        if on { byVehicle[vehicle, default: []].insert(signal) } else { byVehicle[vehicle]?.remove(signal) }
        return true
    }

    /// The active codes of `vehicle`, stored ones first.
    public func codes(vehicle: String) -> [FaultCodeSignal] { (byVehicle[vehicle] ?? []).sorted() }
}
