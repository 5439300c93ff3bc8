// SPDX-License-Identifier: MIT
public import LogbookCore

/// An odometer reading (`type` `odometer`, subject `<vehicle>@<compact UTC time>`), typed in
/// by a person or read by the OBD adapter (origin `obd`). Amended and voided like a fill-up.
public struct OdometerRecord: EntryRecord {
    public static let type = "odometer"

    public static let schema: [EntryField] = [
        EntryField("vehicle", .id),
        EntryField("at", .time),
        EntryField("odometer_km", .number(0...10_000_000)),
        EntryField("note", .text(maxLength: 500)),
    ]

    public var vehicle: String
    public var at: GPSTime
    public var odometerKm: Double
    public var note: String?

    public init(vehicle: String, at: GPSTime, odometerKm: Double, note: String? = nil) {
        self.vehicle = vehicle
        self.at = at
        self.odometerKm = odometerKm
        self.note = note
    }

    public init(fields f: FieldReader) throws(EntryProblem) {
        self.init(
            vehicle: try f.requiredString("vehicle"), at: try f.requiredTime("at"), odometerKm: try f.requiredNumber("odometer_km"),
            note: f.string("note"))
    }

    public var fields: JSONValue {
        var w = FieldWriter()
        w.set("vehicle", vehicle)
        w.set("at", at)
        w.set("odometer_km", odometerKm)
        w.set("note", note)
        return w.json
    }
}
