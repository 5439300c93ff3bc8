// SPDX-License-Identifier: MIT
internal import LogbookCore
internal import LogbookRecords

extension Garage {
    /// Checks a classification or a correction of a trip against the trips as they stand.
    func checkTripEntry(_ entry: RecordEntry, trips: (any TripLookup)?) throws(EntryProblem) {
        guard let trips else { return }
        let trip = try existingTrip(entry.subject, trips)
        switch (entry.type, entry.action) {
        case (TripClassRecord.type, _):
            break
        case (TripVoidRecord.type, .add):
            guard !trip.voided else { throw EntryProblem("voided", "trip \(trip.id) is void already") }
        case (TripVoidRecord.type, _):
            guard trip.voided else { throw EntryProblem("not_voided", "trip \(trip.id) is not void") }
        case (TripAssignRecord.type, _):
            if let v = (try? TripAssignRecord(json: entry.fields))?.vehicle { _ = try activeVehicle(v) }
        case (TripMergeRecord.type, _):
            let later = try existingTrip(String(try TripMergeRecord(json: entry.fields).with.rawValue), trips)
            guard trip.state != .open, later.state != .open else {
                throw EntryProblem("open_trip", "trip \(trip.state == .open ? trip.id : later.id) is still being recorded")
            }
            guard trip.vehicleID == later.vehicleID else {
                throw EntryProblem(
                    "not_consecutive",
                    "trips \(trip.id) and \(later.id) belong to different vehicles (\(trip.vehicleID ?? "none"), \(later.vehicleID ?? "none"))")
            }
            let next = try lookup { () throws -> TripOverview? in try trips.nextTrip(after: trip.id) }
            guard next?.id == later.id else {
                throw EntryProblem(
                    "not_consecutive", "trips \(trip.id) and \(later.id) are not consecutive (the next trip of \(trip.vehicleID ?? "the vehicle") after \(trip.id) is \(next.map { String($0.id.rawValue) } ?? "none"))")
            }
        case (TripSplitRecord.type, _):
            let at = try TripSplitRecord(json: entry.fields).at
            guard trip.state != .open else { throw EntryProblem("open_trip", "trip \(trip.id) is still being recorded") }
            guard let start = trip.startedAt, let end = trip.endedAt, start < at, at < end else {
                throw EntryProblem(
                    "outside_trip",
                    "\(ISO8601.format(at)) is not inside trip \(trip.id) (\(trip.startedAt.map(ISO8601.format) ?? "?") to \(trip.endedAt.map(ISO8601.format) ?? "?"))")
            }
        default:
            throw .bad("unknown entry \(entry.type) \(entry.action.rawValue)")
        }
    }

    private func existingTrip(_ subject: String, _ trips: any TripLookup) throws(EntryProblem) -> TripOverview {
        guard let n = UInt64(subject), let trip = try lookup({ () throws -> TripOverview? in try trips.trip(TripID(n)) }) else {
            throw EntryProblem("unknown_trip", "no trip \(subject)")
        }
        return trip
    }

    private func lookup(_ body: () throws -> TripOverview?) throws(EntryProblem) -> TripOverview? {
        do { return try body() } catch { throw EntryProblem("index", "cannot read the trip index: \(error)") }
    }
}
