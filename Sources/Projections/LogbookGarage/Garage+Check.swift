// SPDX-License-Identifier: MIT
public import LogbookCore
public import LogbookRecords

extension Garage {
    /// Why `entry` does not fit what the garage already holds, or nothing when it does.
    ///
    /// The clients that hold the index (the CLI, the web app) call this before they write, on
    /// the daemon path as on the direct one; the daemon itself checks only the entry's shape
    /// (``GarageCommand/draft(_:now:)``), because it never reads the history (it stays small).
    ///
    /// - Parameter tripExists: whether a trip number is in the index (for `trip.classify`).
    public func check(_ entry: GarageEntry, tripExists: (TripID) -> Bool = { _ in true }) throws(GarageProblem) {
        let f = entry.fields.members ?? [:]
        switch (entry.type, entry.action) {
        case ("vehicle", .add):
            if let v = vehicle(entry.subject), !v.retired, !v.history.isEmpty {
                throw GarageProblem("duplicate", "vehicle \(entry.subject) exists already (use vehicles edit)")
            }
            try checkRegistration(f["registration"]?.stringValue, of: entry.subject)
        case ("vehicle", .amend):
            _ = try activeVehicle(entry.subject)
            try checkRegistration(f["registration"]?.stringValue, of: entry.subject)
        case ("vehicle", .void):
            _ = try activeVehicle(entry.subject)
        case ("fuel", .add):
            guard fuelLog(entry.subject) == nil else {
                throw GarageProblem("duplicate", "vehicle \(f["vehicle"]?.stringValue ?? "?") has a fuel log at that time already (\(entry.subject))")
            }
            guard let log = FuelLog(entry.subject, fields: f) else { throw .bad("a fuel log needs vehicle, odometer_km, litres, price and currency") }
            _ = try activeVehicle(log.vehicle)
            try checkOdometer(vehicle: log.vehicle, at: log.at, km: log.odometerKm, except: log.id)
        case ("fuel", .amend):
            let old = try existingFill(entry.subject)
            var merged = Self.fields(of: old)
            merged.merge(f) { _, new in new }
            guard let log = FuelLog(entry.subject, fields: merged) else { throw .bad("the amended fuel log is incomplete") }
            if log.vehicle != old.vehicle { _ = try activeVehicle(log.vehicle) }
            try checkOdometer(vehicle: log.vehicle, at: log.at, km: log.odometerKm, except: log.id)
        case ("fuel", .void):
            _ = try existingFill(entry.subject)
        case ("odometer", .add):
            guard let vehicleID = f["vehicle"]?.stringValue, let km = f["odometer_km"]?.doubleValue,
                let at = f["at"]?.stringValue.flatMap(ISO8601.parse)
            else { throw .bad("an odometer reading needs vehicle, at and odometer_km") }
            _ = try activeVehicle(vehicleID)
            if readings.contains(where: { $0.id == entry.subject }) {
                throw GarageProblem("duplicate", "vehicle \(vehicleID) has a reading at that time already")
            }
            try checkOdometer(vehicle: vehicleID, at: at, km: km, except: entry.subject)
        case ("trip.class", _):
            guard let n = UInt64(entry.subject), tripExists(TripID(n)) else {
                throw GarageProblem("unknown_trip", "no trip \(entry.subject) in the index")
            }
        case ("service", _), ("service.done", _):
            try checkService(entry)
        case ("place", _):
            break  // named places are not garage state: `logbook places` checks them against the index
        default:
            throw .bad("unknown entry \(entry.type) \(entry.action.rawValue)")
        }
    }

    func checkActiveVehicle(_ id: String) throws(GarageProblem) { _ = try activeVehicle(id) }

    private func activeVehicle(_ id: String) throws(GarageProblem) -> GarageVehicle {
        guard let v = vehicle(id) else {
            let known = vehicles.filter { !$0.retired }.map(\.id).joined(separator: ", ")
            throw GarageProblem("unknown_vehicle", "no vehicle \"\(id)\" (known: \(known.isEmpty ? "none" : known))")
        }
        guard !v.retired else { throw GarageProblem("retired_vehicle", "vehicle \(id) is retired") }
        return v
    }

    private func existingFill(_ id: String) throws(GarageProblem) -> FuelLog {
        guard let log = fuelLog(id) else { throw GarageProblem("unknown_entry", "no fuel log \(id)") }
        guard !log.voided else { throw GarageProblem("unknown_entry", "fuel log \(id) is void") }
        return log
    }

    private func checkRegistration(_ registration: String?, of id: String) throws(GarageProblem) {
        guard let registration else { return }
        let key = Self.registrationKey(registration)
        if let other = vehicles.first(where: { $0.id != id && !$0.retired && $0.registration.map(Self.registrationKey) == key }) {
            throw GarageProblem("duplicate", "registration \(registration) belongs to vehicle \(other.id)")
        }
    }

    /// `M-AB 123` and `mab123` are the same plate.
    static func registrationKey(_ text: String) -> String {
        String(text.uppercased().unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) }.map(Character.init))
    }

    /// An odometer only counts up: a reading must not be below one taken earlier, nor above
    /// one taken later (fuel logs and readings of the same vehicle, voided ones aside).
    private func checkOdometer(vehicle: String, at: GPSTime, km: Double, except: String) throws(GarageProblem) {
        var known: [(GPSTime, Double, String)] = activeFills(vehicle: vehicle).filter { $0.id != except }.map { ($0.at, $0.odometerKm, "fuel log \($0.id)") }
        known += readings.filter { !$0.voided && $0.vehicle == vehicle && $0.id != except }.map { ($0.at, $0.odometerKm, "reading \($0.id)") }
        if let before = known.filter({ $0.0 <= at && $0.1 > km }).max(by: { $0.1 < $1.1 }) {
            throw GarageProblem(
                "odometer_backwards",
                "odometer going backwards: \(GarageField.text(km)) km at \(ISO8601.format(at)), but \(GarageField.text(before.1)) km at \(ISO8601.format(before.0)) (\(before.2))")
        }
        if let after = known.filter({ $0.0 > at && $0.1 < km }).min(by: { $0.1 < $1.1 }) {
            throw GarageProblem(
                "odometer_backwards",
                "odometer going backwards: \(GarageField.text(km)) km at \(ISO8601.format(at)), but only \(GarageField.text(after.1)) km later at \(ISO8601.format(after.0)) (\(after.2))")
        }
    }
}
