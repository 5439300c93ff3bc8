// SPDX-License-Identifier: MIT
public import LogbookRecords
/// What an OBD source reports, in order.
public enum OBDEvent: Sendable, Hashable {
    /// The transport is open (`/dev/rfcomm0`, `192.168.0.10:35000`).
    case linkUp(String)
    /// The adapter answers but the car does not (yet): ignition off, or no car.
    case adapterReady(identity: String?)
    /// The car answered: its VIN (if it gave a valid one) and supported PIDs.
    case connected(OBDVehicleInfo)
    /// The engine started (rpm above zero) or stopped (no rpm for a few seconds, or the car
    /// stopped answering). The first rpm reading after a connect reports the state either way.
    case engine(running: Bool)
    /// An engine-speed sample (rpm), about once a second while the car answers.
    case rpm(Double)
    /// A vehicle-speed sample (km/h), after each rpm sample while the engine runs.
    case speed(Double)
    /// Voltage, fuel level, odometer and trouble codes read together (or one periodic value).
    case readings(OBDReadings)
    /// The counters changed (a reply refused, a timeout).
    case counters(OBDCounters)
    /// The adapter went away (unplugged, hung, babbling, closed); the source reconnects.
    case adapterLost(reason: String)
}

/// What the car said about itself when it first answered.
public struct OBDVehicleInfo: Sendable, Hashable {
    /// The adapter's `ATZ` identity, e.g. `ELM327 v1.5`.
    public var identity: String?
    /// The VIN, when the car gave one that passed the checks.
    public var vin: VIN?
    /// Why the VIN read was refused, when it was (a failed check digit, a wrong length).
    public var vinProblem: ELMRejection?
    /// Mode 01 PIDs the car supports.
    public var supported: SupportedPIDs

    public init(identity: String? = nil, vin: VIN? = nil, vinProblem: ELMRejection? = nil, supported: SupportedPIDs = SupportedPIDs()) {
        self.identity = identity
        self.vin = vin
        self.vinProblem = vinProblem
        self.supported = supported
    }
}

/// Values read together; a value the car did not give is nil.
public struct OBDReadings: Sendable, Hashable {
    /// Why they were read.
    public enum Moment: String, Sendable, Hashable {
        /// Right after the engine started.
        case engineStart = "engine_start"
        /// Right after the engine stopped (the car may no longer answer: then from the adapter only).
        case engineStop = "engine_stop"
        /// At connect with the engine off.
        case parked
        /// A periodic read.
        case periodic
    }

    public var moment: Moment
    /// Battery voltage at the OBD port (`ATRV`), volts.
    public var voltage: Double?
    /// Fuel level (PID 2F), percent of the tank.
    public var fuelPercent: Double?
    /// Odometer (PID A6), km.
    public var odometerKm: Double?
    /// Stored (confirmed) trouble codes, mode 03; nil when not read.
    public var storedCodes: [TroubleCode]?
    /// Pending trouble codes, mode 07; nil when not read.
    public var pendingCodes: [TroubleCode]?

    public init(moment: Moment = .periodic) { self.moment = moment }

    /// Whether nothing was read.
    public var isEmpty: Bool {
        voltage == nil && fuelPercent == nil && odometerKm == nil && storedCodes == nil && pendingCodes == nil
    }
}

/// What a source has counted since it started.
public struct OBDCounters: Sendable, Hashable {
    /// Commands sent and answered (in time).
    public var exchanges = 0
    /// Commands without a prompt in time.
    public var timeouts = 0
    /// Replies refused as garbage (each counted once, never decoded).
    public var rejected = 0
    /// Why the last one was refused.
    public var lastRejection: ELMRejection?
    /// `CAN ERROR`, `BUS INIT: …ERROR` and the like.
    public var busErrors = 0
    /// Connections opened (the first included).
    public var connections = 0

    public init() {}
}
