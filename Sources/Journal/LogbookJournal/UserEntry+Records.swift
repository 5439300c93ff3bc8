// SPDX-License-Identifier: MIT
package import LogbookCore
package import LogbookRecords

extension UserEntry {
    /// The journal record of a validated garage entry (the CLI's direct path builds the same).
    package init(_ entry: RecordEntry, recordedAt: GPSTime) {
        let action: UserEntry.Action =
            switch entry.action {
            case .add: .add
            case .amend: .amend
            case .void: .void
            }
        self.init(
            type: entry.type, action: action, subject: entry.subject, fields: entry.fields, recordedAt: recordedAt.nanoseconds,
            origin: entry.origin)
    }
}

extension UserEntry {
    /// The trip number a `trip.split` entry gave the second part; nil for other entries.
    var splitTripNumber: UInt64? {
        guard type == TripSplitRecord.type, action == .add else { return nil }
        return (try? TripSplitRecord(json: fields))?.newTrip?.rawValue
    }
}

extension RecordEntry {
    /// The entry with the numbers only the journal's writer can hand out filled in: a split's
    /// second part gets the next trip number, never used before or after.
    package func numbered(by writer: JournalWriter) -> RecordEntry {
        guard type == TripSplitRecord.type, action == .add, var split = try? TripSplitRecord(json: fields), split.newTrip == nil else {
            return self
        }
        split.newTrip = writer.nextTripID()
        var entry = self
        entry.fields = split.fields
        return entry
    }
}
