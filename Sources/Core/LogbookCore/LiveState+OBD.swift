// SPDX-License-Identifier: MIT
extension LiveState {
    /// One `[[source]] type = "obd"` as the live state shows it (`obd`, an array with one
    /// object per OBD source; the member is absent when none is configured). SI units but
    /// for the odometer (km, as the garage keeps it) and the fuel level (percent of the tank).
    public struct OBDBlock: Sendable, Equatable {
        /// The source's name (trip reason `obd:NAME`).
        public var source: String
        /// The vehicle the car plugged in is tied to (by its VIN, else the source's `vehicle`).
        public var vehicle: String?
        /// The link to the adapter is open and the adapter answers.
        public var connected = false
        /// The car (an ECU) answered since the link opened.
        public var carAnswers = false
        /// The adapter's identity (`ELM327 v1.5`).
        public var adapter: String?
        public var vin: String?
        /// Whether a `[[vehicle]]` has this VIN (false: an unknown car).
        public var vinKnown: Bool?
        /// From the VIN's WMI and 10th character (tables in the code).
        public var manufacturer: String?
        public var modelYear: Int?
        public var engineRunning: Bool?
        public var rpm: Double?
        public var speed: Double?
        public var fuelPercent: Double?
        public var odometerKm: Double?
        public var batteryVolts: Double?
        /// The voltage went below ``batteryFloorVolts`` while parked.
        public var batteryLow = false
        public var batteryFloorVolts: Double
        /// Stored (confirmed) and pending codes, as last read.
        public var faultCodes: [FaultCode] = []
        /// The PIDs the source reads that the car supports (e.g. `010C`, `012F`).
        public var pids: [String] = []
        /// Replies refused as garbage, replies that never came, connections opened.
        public var rejected = 0
        public var timeouts = 0
        public var connections = 0

        public init(source: String, vehicle: String?, batteryFloorVolts: Double) {
            self.source = source
            self.vehicle = vehicle
            self.batteryFloorVolts = batteryFloorVolts
        }
    }

    /// A trouble code with its SAE J2012 description when it is generic and known.
    public struct FaultCode: Sendable, Equatable {
        public var code: String
        public var pending: Bool
        public var description: String?

        public init(code: String, pending: Bool, description: String?) {
            self.code = code
            self.pending = pending
            self.description = description
        }
    }
}

extension LiveState.OBDBlock {
    public var json: JSONValue {
        .object([
            ("source", .string(source)), ("vehicle", .string(vehicle)), ("connected", .bool(connected)),
            ("car_answers", .bool(carAnswers)), ("adapter", .string(adapter)), ("vin", .string(vin)),
            ("vin_known", vinKnown.map(JSONValue.bool) ?? .null), ("manufacturer", .string(manufacturer)),
            ("model_year", .integer(modelYear)), ("engine_running", engineRunning.map(JSONValue.bool) ?? .null),
            ("rpm", .number(rpm)), ("speed_mps", .number(speed)), ("fuel_percent", .number(fuelPercent.map { ($0 * 10).rounded() / 10 })),
            ("odometer_km", .number(odometerKm)), ("battery_v", .number(batteryVolts)), ("battery_low", .bool(batteryLow)),
            ("battery_floor_v", .number(batteryFloorVolts)),
            ("fault_codes", .array(faultCodes.map { f in
                .object([("code", .string(f.code)), ("pending", .bool(f.pending)), ("description", .string(f.description))])
            })),
            ("pids", .array(pids.map { .string($0) })), ("rejected", .integer(rejected)), ("timeouts", .integer(timeouts)),
            ("connections", .integer(connections)),
        ])
    }
}
