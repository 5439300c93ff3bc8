// SPDX-License-Identifier: MIT
public import LogbookCore
public import LogbookRecords

/// A vehicle as its entries (and the configuration) describe it now.
public struct GarageVehicle: Sendable, Hashable {
    public var id: String
    /// The current value of every field, journal over configuration.
    public var record: VehicleRecord
    public var retired: Bool
    /// Listed in `[[vehicle]]` of the configuration file.
    public var configured: Bool
    /// The journal entries about it, oldest first (for `--history`).
    public var history: [RecordedEntry]

    public var name: String { record.name ?? id }
    public var registration: String? { record.registration }
    public var initialOdometerKm: Double? { record.initialOdometerKm }
    /// The live state's and the trip list's form.
    public var vehicle: Vehicle { record.vehicle(id: id) }
}

/// A fill-up with its amendments applied.
public struct FuelLog: Sendable, Hashable {
    public var id: String
    public var record: FuelRecord
    public var voided: Bool
    /// The journal entries about it, oldest first; more than one means it was changed.
    public var history: [RecordedEntry]

    /// Its short number (`#12`): the fill-up's place among all of them in journal order of their
    /// first entry, from 1; stable, since the journal only grows (``Garage/resolve(_:_:)``).
    public var number: Int

    public init(id: String, record: FuelRecord, voided: Bool = false, history: [RecordedEntry] = [], number: Int = 0) {
        self.id = id
        self.number = number
        self.record = record
        self.voided = voided
        self.history = history
    }

    public var vehicle: String { record.vehicle }
    public var at: GPSTime { record.at }
    public var odometerKm: Double { record.odometerKm }
    public var litres: Double { record.litres }
    /// The total paid, in ``currency``.
    public var price: Double { record.price }
    public var currency: String { record.currency }
    /// The tank was filled to the brim (the full-tank method measures between these).
    public var full: Bool { record.full }
    /// A fill before this one was not logged: the interval ending here is unknown.
    public var missed: Bool { record.missed }
    public var station: String? { record.station }
    public var stationAddress: String? { record.stationAddress }
    public var latitude: Double? { record.latitude }
    public var longitude: Double? { record.longitude }
    public var note: String? { record.note }
    /// Price per litre in ``currency``.
    public var unitPrice: Double { record.unitPrice }
}

/// An odometer reading, typed in or read by the OBD adapter; amended and voided like a fill-up.
public struct OdometerReading: Sendable, Hashable {
    public var id: String
    public var record: OdometerRecord
    public var voided: Bool
    public var history: [RecordedEntry]

    /// Its short number (`#12`): the reading's place among all of them in journal order of their
    /// first entry, from 1; stable, since the journal only grows (``Garage/resolve(_:_:)``).
    public var number: Int

    public init(id: String, record: OdometerRecord, voided: Bool = false, history: [RecordedEntry] = [], number: Int = 0) {
        self.id = id
        self.number = number
        self.record = record
        self.voided = voided
        self.history = history
    }

    public var vehicle: String { record.vehicle }
    public var at: GPSTime { record.at }
    public var odometerKm: Double { record.odometerKm }
    /// Who made it (`cli`, `web`, `obd`, …).
    public var origin: String? { history.first?.entry.origin }
}

/// A trip's current classification and how it came to be.
public struct TripClassification: Sendable, Hashable {
    public var trip: TripID
    public var record: TripClassRecord
    /// Every classification entry of the trip, oldest first: more than one means it changed.
    public var history: [RecordedEntry]

    /// `business`, `private` or `commute`.
    public var tripClass: String { record.tripClass }
    public var purpose: String? { record.purpose }
    public var partner: String? { record.partner }
    public var destination: String? { record.destination }
    /// When the current classification was entered.
    public var classifiedAt: GPSTime? { history.last?.recordedAt }
    /// The trip was classified more than once (the report says so, and when).
    public var changed: Bool { history.count > 1 }
    /// Who classified it last (`cli`, `web`, `rule`, …).
    public var origin: String? { history.last?.entry.origin }
    /// The rule that classified it, when a rule did (origin `rule`).
    public var rule: String? { origin == EntryOrigin.rule ? record.rule : nil }
    /// `person` or `rule NAME`: the report's "classified by".
    public var classifiedBy: String { rule.map { "rule \($0)" } ?? (origin == EntryOrigin.rule ? "rule" : "person") }
}
