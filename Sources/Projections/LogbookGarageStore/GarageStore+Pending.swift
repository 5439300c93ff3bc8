// SPDX-License-Identifier: MIT
public import LogbookCore
public import LogbookGarage
import LogbookRecords
public import LogbookStore

/// What a person adds to a pending fill-up to complete it (`logbook fuel complete`, the web's
/// Garage): the price, and what the adapter could not know or only estimated.
public struct PendingCompletion: Sendable {
    public var price: Double
    public var litres: Double?
    public var currency: String?
    public var odometerKm: Double?
    /// When the adapter knew no vehicle.
    public var vehicle: String?
    public var full = true
    public var station: String?
    public var note: String?

    public init(price: Double, litres: Double? = nil, currency: String? = nil, odometerKm: Double? = nil, vehicle: String? = nil,
                full: Bool = true, station: String? = nil, note: String? = nil) {
        self.price = price
        self.litres = litres
        self.currency = currency
        self.odometerKm = odometerKm
        self.vehicle = vehicle
        self.full = full
        self.station = station
        self.note = note
    }
}

extension GarageStore {
    /// The `fuel.add` request fields that complete the open pending fill-up `id`: its time and
    /// place, the litres estimated unless given, the currency of the vehicle's newest fill-up
    /// and the odometer as readings and trips estimate it at that time unless given, and
    /// `pending` naming it. One implementation for the CLI and the web app.
    /// - Throws: ``EntryProblem`` (`unknown_entry`, or `bad_request` naming what to give).
    public static func completion(_ index: TripIndex, garage: Garage, pending id: String, _ given: PendingCompletion) throws -> [(String, JSONValue)] {
        let pending = try garage.openPendingFill(id)
        guard let car = given.vehicle ?? pending.vehicle else { throw EntryProblem.bad("the adapter knew no vehicle: give the vehicle") }
        guard let litres = given.litres ?? pending.record.litresEstimated else {
            throw EntryProblem.bad("no litres estimate (the vehicle has no tank_l): give the litres")
        }
        let lastCurrency = garage.activeFills(vehicle: car).max { $0.at < $1.at }?.currency ?? garage.activeFills().max { $0.at < $1.at }?.currency
        guard let currency = given.currency ?? lastCurrency else { throw EntryProblem.bad("no earlier fill-up to take the currency from: give the currency") }
        let estimate = try calibration(index, garage: garage, vehicle: car).estimate(at: pending.at)
        guard let km = given.odometerKm ?? estimate.map({ ($0 * 10).rounded() / 10 }) else {
            throw EntryProblem.bad("no odometer reading of \(car) to estimate from: give the odometer")
        }
        var fields: [(String, JSONValue)] = [
            ("vehicle", .string(car)), ("at", .string(ISO8601.format(pending.at))), ("odometer_km", .number(km)), ("litres", .number(litres)),
            ("price", .number(given.price)), ("currency", .string(currency)), ("full", .bool(given.full)), ("station", .string(given.station)),
            ("note", .string(given.note)), ("pending", .string(id)),
        ]
        // Where the car stood (the daemon leaves it out within a privacy zone).
        if let lat = pending.record.latitude, let lon = pending.record.longitude { fields += [("lat", .number(lat)), ("lon", .number(lon))] }
        return fields.filter { !$0.1.isNull }
    }
}
