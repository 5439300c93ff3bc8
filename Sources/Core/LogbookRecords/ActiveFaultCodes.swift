// SPDX-License-Identifier: MIT
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
