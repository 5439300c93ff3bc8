// SPDX-License-Identifier: MIT
public import LogbookCore

// Corrections of recorded trips. The points are never rewritten: every reader folds these
// entries (``TripCorrections``) over the trips the journal recorded. Subject: the trip number.

/// The trip does not count (a test drive, a recording by mistake) — `add` voids it, a `void`
/// of this entry restores it.
public struct TripVoidRecord: EntryRecord {
    public static let type = "trip.void"
    public static let schema: [EntryField] = [EntryField("reason", .text(maxLength: 200))]

    public var reason: String?

    public init(reason: String? = nil) { self.reason = reason }

    public init(fields f: FieldReader) throws(EntryProblem) { self.init(reason: f.string("reason")) }

    public var fields: JSONValue {
        var w = FieldWriter()
        w.set("reason", reason)
        return w.json
    }
}

/// The trip belongs to another vehicle, or names its driver. A later assignment replaces the
/// fields it carries.
public struct TripAssignRecord: EntryRecord {
    public static let type = "trip.assign"
    public static let schema: [EntryField] = [
        EntryField("vehicle", .id),
        EntryField("driver", .text(maxLength: 80)),
    ]

    public var vehicle: String?
    public var driver: String?

    public init(vehicle: String? = nil, driver: String? = nil) {
        self.vehicle = vehicle
        self.driver = driver
    }

    public init(fields f: FieldReader) throws(EntryProblem) {
        self.init(vehicle: f.string("vehicle"), driver: f.string("driver"))
        guard vehicle != nil || driver != nil else { throw .bad("an assignment needs vehicle and/or driver") }
    }

    public var fields: JSONValue {
        var w = FieldWriter()
        w.set("vehicle", vehicle)
        w.set("driver", driver)
        return w.json
    }
}

/// Two consecutive trips of one vehicle were one (a stop at a petrol station): the subject
/// keeps its number and takes the later trip's points; the time between them shows as a gap.
public struct TripMergeRecord: EntryRecord {
    public static let type = "trip.merge"
    public static let schema: [EntryField] = [EntryField("with", .trip)]

    /// The later trip, merged into the subject.
    public var with: TripID

    public init(with: TripID) { self.with = with }

    public init(fields f: FieldReader) throws(EntryProblem) { self.init(with: try f.requiredTrip("with")) }

    public var fields: JSONValue {
        var w = FieldWriter()
        w.set("with", with)
        return w.json
    }
}

/// One trip was two: the points from `at` on become trip `newTrip`, a number the journal hands
/// out once (``TripSplitRecord/newTrip`` is filled in by the writer when the entry is appended).
public struct TripSplitRecord: EntryRecord {
    public static let type = "trip.split"
    public static let schema: [EntryField] = [EntryField("at", .time), EntryField("new_trip", .trip)]

    /// The first point of the second part is the first at or after this time.
    public var at: GPSTime
    public var newTrip: TripID?

    public init(at: GPSTime, newTrip: TripID? = nil) {
        self.at = at
        self.newTrip = newTrip
    }

    public init(fields f: FieldReader) throws(EntryProblem) { self.init(at: try f.requiredTime("at"), newTrip: f.trip("new_trip")) }

    public var fields: JSONValue {
        var w = FieldWriter()
        w.set("at", at)
        w.set("new_trip", newTrip)
        return w.json
    }
}
