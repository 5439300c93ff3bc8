// SPDX-License-Identifier: MIT

/// Every record type, for the contract tests and the reference documentation.
public enum EntryTypes {
    public static let all: [any EntryRecord.Type] = [
        VehicleRecord.self, FuelRecord.self, OdometerRecord.self, ServiceTaskRecord.self, ServiceDoneRecord.self,
        PlaceRecord.self, TripClassRecord.self, TripVoidRecord.self, TripAssignRecord.self, TripMergeRecord.self,
        TripSplitRecord.self, PendingFillRecord.self, RuleRecord.self,
    ]

    /// The record type stored as `type`.
    public static func named(_ type: String) -> (any EntryRecord.Type)? { all.first { $0.type == type } }
}
