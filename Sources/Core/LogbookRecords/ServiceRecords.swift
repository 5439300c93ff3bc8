// SPDX-License-Identifier: MIT
public import LogbookCore

/// A recurring service task (`type` `service`, subject: the task's id): every N km and/or
/// every N months from when it was last done. Removed with a void.
public struct ServiceTaskRecord: EntryRecord {
    public static let type = "service"

    public static let schema: [EntryField] = [
        EntryField("vehicle", .id),
        EntryField("name", .text(maxLength: 80)),
        EntryField("every_km", .number(1...1_000_000)),
        EntryField("every_months", .integer(1...240)),
        EntryField("last_done_at", .time),
        EntryField("last_done_km", .number(0...10_000_000)),
        EntryField("note", .text(maxLength: 500)),
    ]

    public var vehicle: String
    public var name: String
    public var everyKm: Double?
    public var everyMonths: Int?
    public var lastDoneAt: GPSTime?
    public var lastDoneKm: Double?
    public var note: String?

    public init(
        vehicle: String, name: String, everyKm: Double? = nil, everyMonths: Int? = nil, lastDoneAt: GPSTime? = nil,
        lastDoneKm: Double? = nil, note: String? = nil
    ) {
        self.vehicle = vehicle
        self.name = name
        self.everyKm = everyKm
        self.everyMonths = everyMonths
        self.lastDoneAt = lastDoneAt
        self.lastDoneKm = lastDoneKm
        self.note = note
    }

    public init(fields f: FieldReader) throws(EntryProblem) {
        self.init(
            vehicle: try f.requiredString("vehicle"), name: try f.requiredString("name"), everyKm: f.number("every_km"),
            everyMonths: f.integer("every_months"), lastDoneAt: f.time("last_done_at"), lastDoneKm: f.number("last_done_km"),
            note: f.string("note"))
    }

    public var fields: JSONValue {
        var w = FieldWriter()
        w.set("vehicle", vehicle)
        w.set("name", name)
        w.set("every_km", everyKm)
        w.set("every_months", everyMonths)
        w.set("last_done_at", lastDoneAt)
        w.set("last_done_km", lastDoneKm)
        w.set("note", note)
        return w.json
    }
}

/// A service task done (`type` `service.done`, subject `<task>@<compact UTC time>`).
public struct ServiceDoneRecord: EntryRecord {
    public static let type = "service.done"

    public static let schema: [EntryField] = [
        EntryField("task", .id),
        EntryField("at", .time),
        EntryField("odometer_km", .number(0...10_000_000)),
        EntryField("note", .text(maxLength: 500)),
    ]

    public var task: String
    public var at: GPSTime
    public var odometerKm: Double?
    public var note: String?

    public init(task: String, at: GPSTime, odometerKm: Double? = nil, note: String? = nil) {
        self.task = task
        self.at = at
        self.odometerKm = odometerKm
        self.note = note
    }

    public init(fields f: FieldReader) throws(EntryProblem) {
        self.init(task: try f.requiredString("task"), at: try f.requiredTime("at"), odometerKm: f.number("odometer_km"), note: f.string("note"))
    }

    public var fields: JSONValue {
        var w = FieldWriter()
        w.set("task", task)
        w.set("at", at)
        w.set("odometer_km", odometerKm)
        w.set("note", note)
        return w.json
    }
}
