// SPDX-License-Identifier: MIT
public import LogbookCore
public import LogbookRecords

/// What the checks of trip entries need to know about trips: the index answers it, with every
/// correction applied.
public protocol TripLookup {
    /// Trip `number` as a person sees it now (merged-away trips: nil).
    func trip(_ number: TripID) throws -> TripOverview?
    /// The next trip of the same vehicle after `number`, by start time (voided and discarded
    /// trips skipped): the one a merge may join.
    func nextTrip(after number: TripID) throws -> TripOverview?
}

extension Garage {
    /// Why `entry` does not fit what the garage already holds, or nothing when it does.
    ///
    /// The clients that hold the index (the CLI, the web app) call this before they write, on
    /// the daemon path as on the direct one; the daemon itself checks only the entry's shape
    /// (``EntryCommand/draft(_:now:)``), because it never reads the history (it stays small).
    /// With `allowDuplicateFill`, a fill-up like one already logged (``duplicateFill(of:)``) passes.
    public func check(_ entry: RecordEntry, trips: (any TripLookup)? = nil, allowDuplicateFill: Bool = false) throws(EntryProblem) {
        switch (entry.type, entry.action) {
        case (VehicleRecord.type, .add):
            if let v = vehicle(entry.subject), !v.retired, !v.history.isEmpty {
                throw EntryProblem("duplicate", "vehicle \(entry.subject) exists already (use vehicles edit)")
            }
            try checkRegistration(FieldReader(entry.fields).string("registration"), of: entry.subject)
        case (VehicleRecord.type, .amend):
            _ = try activeVehicle(entry.subject)
            try checkRegistration(FieldReader(entry.fields).string("registration"), of: entry.subject)
        case (VehicleRecord.type, .void):
            _ = try activeVehicle(entry.subject)
        case (FuelRecord.type, .add):
            // A pending fill-up completed again after its fill-up was voided takes that subject
            // again (the add re-activates it with the new values).
            let completesAgain = FieldReader(entry.fields).string("pending") != nil && fuelLog(entry.subject)?.voided == true
            guard fuelLog(entry.subject) == nil || completesAgain else {
                throw EntryProblem("duplicate", "there is a fuel log at that time already (\(entry.subject))")
            }
            let fill = try FuelRecord(json: entry.fields)
            _ = try activeVehicle(fill.vehicle)
            if !allowDuplicateFill { try checkDuplicateFill(fill) }
            try checkOdometer(vehicle: fill.vehicle, at: fill.at, km: fill.odometerKm, except: entry.subject)
            if let pending = fill.pending { _ = try openPendingFill(pending) }
        case (FuelRecord.type, .amend):
            let old = try existingFill(entry.subject)
            let fill = try FuelRecord(json: FieldReader.merged(fuelFields(entry.subject) ?? .object([]), entry.fields))
            if fill.vehicle != old.vehicle { _ = try activeVehicle(fill.vehicle) }
            try checkOdometer(vehicle: fill.vehicle, at: fill.at, km: fill.odometerKm, except: entry.subject)
        case (FuelRecord.type, .void):
            _ = try existingFill(entry.subject)
        case (OdometerRecord.type, .add):
            let reading = try OdometerRecord(json: entry.fields)
            _ = try activeVehicle(reading.vehicle)
            if self.reading(entry.subject) != nil {
                throw EntryProblem("duplicate", "vehicle \(reading.vehicle) has a reading at that time already")
            }
            try checkOdometer(vehicle: reading.vehicle, at: reading.at, km: reading.odometerKm, except: entry.subject)
        case (OdometerRecord.type, .amend):
            let old = try existingReading(entry.subject)
            let reading = try OdometerRecord(json: FieldReader.merged(readingFields(entry.subject) ?? .object([]), entry.fields))
            if reading.vehicle != old.vehicle { _ = try activeVehicle(reading.vehicle) }
            try checkOdometer(vehicle: reading.vehicle, at: reading.at, km: reading.odometerKm, except: entry.subject)
        case (OdometerRecord.type, .void):
            _ = try existingReading(entry.subject)
        case (PendingFillRecord.type, .void):
            _ = try openPendingFill(entry.subject)
        case (ServiceTaskRecord.type, _), (ServiceDoneRecord.type, _):
            try checkService(entry)
        case (PlaceRecord.type, _), (RuleRecord.type, _):
            break  // named places and rules are not garage state: `logbook places`/`rules` check them against the index
        case (let type, _) where type.hasPrefix("trip."):
            try checkTripEntry(entry, trips: trips)
        default:
            throw .bad("unknown entry \(entry.type) \(entry.action.rawValue)")
        }
    }

    func checkActiveVehicle(_ id: String) throws(EntryProblem) { _ = try activeVehicle(id) }

    func activeVehicle(_ id: String) throws(EntryProblem) -> GarageVehicle {
        guard let v = vehicle(id) else {
            let known = vehicles.filter { !$0.retired }.map(\.id).joined(separator: ", ")
            throw EntryProblem("unknown_vehicle", "no vehicle \"\(id)\" (known: \(known.isEmpty ? "none" : known))")
        }
        guard !v.retired else { throw EntryProblem("retired_vehicle", "vehicle \(id) is retired") }
        return v
    }

    private func existingFill(_ id: String) throws(EntryProblem) -> FuelLog {
        guard let log = fuelLog(id) else { throw EntryProblem("unknown_entry", "no fuel log \(id)") }
        guard !log.voided else { throw EntryProblem("unknown_entry", "fuel log \(id) is void") }
        return log
    }

    private func existingReading(_ id: String) throws(EntryProblem) -> OdometerReading {
        guard let r = reading(id) else { throw EntryProblem("unknown_entry", "no odometer reading \(id)") }
        guard !r.voided else { throw EntryProblem("unknown_entry", "odometer reading \(id) is void") }
        return r
    }

    private func checkRegistration(_ registration: String?, of id: String) throws(EntryProblem) {
        guard let registration else { return }
        let key = Self.registrationKey(registration)
        if let other = vehicles.first(where: { $0.id != id && !$0.retired && $0.registration.map(Self.registrationKey) == key }) {
            throw EntryProblem("duplicate", "registration \(registration) belongs to vehicle \(other.id)")
        }
    }

    /// `M-AB 123` and `mab123` are the same plate.
    static func registrationKey(_ text: String) -> String {
        String(text.uppercased().unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) }.map(Character.init))
    }

    /// An odometer only counts up: a reading must not be below one taken earlier, nor above
    /// one taken later (fuel logs and readings of the same vehicle, voided ones aside).
    private func checkOdometer(vehicle: String, at: GPSTime, km: Double, except: String) throws(EntryProblem) {
        var known: [(GPSTime, Double, String)] = activeFills(vehicle: vehicle).filter { $0.id != except }.map { ($0.at, $0.odometerKm, "fuel log \($0.id)") }
        known += activeReadings(vehicle: vehicle).filter { $0.id != except }.map { ($0.at, $0.odometerKm, "reading \($0.id)") }
        if let before = known.filter({ $0.0 <= at && $0.1 > km }).max(by: { $0.1 < $1.1 }) {
            throw EntryProblem(
                "odometer_backwards",
                "odometer going backwards: \(odometerText(km)) at \(ISO8601.format(at)), but \(odometerText(before.1)) at \(ISO8601.format(before.0)) (\(before.2))")
        }
        if let after = known.filter({ $0.0 > at && $0.1 < km }).min(by: { $0.1 < $1.1 }) {
            throw EntryProblem(
                "odometer_backwards",
                "odometer going backwards: \(odometerText(km)) at \(ISO8601.format(at)), but only \(odometerText(after.1)) later at \(ISO8601.format(after.0)) (\(after.2))")
        }
    }

    /// An odometer in a refusal: `24905 km` as stored, or in miles (one decimal) for a reader
    /// set to imperial units (``units``).
    private func odometerText(_ km: Double) -> String {
        units == .metric ? EntryField.text(km) + " km" : NumberText.fixed(units.distance(km * 1000), places: 1) + " " + units.distanceUnit
    }
}
