// SPDX-License-Identifier: MIT
import LogbookRecords
/// One command the session sends, and what kind of reply it expects.
public enum OBDRequest: Sendable, Hashable {
    /// `ATZ`: reset; replies with the identity (`ELM327 v1.5`) after about a second.
    case reset
    /// `ATE0`, `ATL0`, `ATS0`, `ATH0`: echo, linefeeds, spaces and headers off.
    case echoOff, linefeedsOff, spacesOff, headersOff
    /// `ATSP0`: find the car's protocol automatically.
    case automaticProtocol
    /// `ATRV`: the voltage at the OBD port (the car's battery).
    case voltage
    /// `0100`, `0120`, … `01A0`: which mode 01 PIDs the car supports.
    case supportedPIDs(base: UInt8)
    /// `0900`: which mode 09 PIDs the car supports.
    case vehicleInfoPIDs
    /// `0902`: the VIN.
    case vin
    /// `010C`, `010D`, `012F`, `01A6`.
    case rpm, speed, fuelLevel, odometer
    /// `03`, `07`: stored and pending trouble codes.
    case storedCodes, pendingCodes

    /// The text sent (a carriage return follows).
    public var command: String {
        switch self {
        case .reset: "ATZ"
        case .echoOff: "ATE0"
        case .linefeedsOff: "ATL0"
        case .spacesOff: "ATS0"
        case .headersOff: "ATH0"
        case .automaticProtocol: "ATSP0"
        case .voltage: "ATRV"
        case .supportedPIDs(let base): "01" + Self.hex(base)
        case .vehicleInfoPIDs: "0900"
        case .vin: "0902"
        case .rpm: "010C"
        case .speed: "010D"
        case .fuelLevel: "012F"
        case .odometer: "01A6"
        case .storedCodes: "03"
        case .pendingCodes: "07"
        }
    }

    /// An OBD request (hex data back) rather than an AT command (text back).
    public var expectsData: Bool { !command.hasPrefix("AT") }

    private static func hex(_ b: UInt8) -> String {
        let d = Array("0123456789ABCDEF")
        return String([d[Int(b >> 4)], d[Int(b & 0xF)]])
    }
}

/// How often the session asks what, and how long it waits. Seconds.
public struct OBDPollingPlan: Sendable, Hashable {
    /// Engine speed while the engine runs (and vehicle speed after it).
    public var rpmInterval = 1.0
    /// Engine speed while the engine is off: slower, so a parked car's bus is left quiet.
    public var engineOffInterval = 5.0
    /// Fuel level while the engine runs.
    public var fuelInterval = 30.0
    /// Odometer while the engine runs.
    public var odometerInterval = 60.0
    /// Trouble codes while the engine runs (also read at every start and stop).
    public var troubleCodeInterval = 120.0
    /// Battery voltage while the engine runs, and while it is off (`ATRV` asks the adapter only).
    public var voltageInterval = 30.0
    public var parkedVoltageInterval = 60.0
    /// `0100` while the car does not answer at all.
    public var silentRetryInterval = 5.0
    /// The engine counts as stopped after this long without rpm (and two readings at least).
    public var engineOffAfter = 3.0
    /// Longest wait for a reply: AT commands and most requests, and the first `0100`, which
    /// may search every protocol (`SEARCHING...`, several seconds on K-line).
    public var commandTimeout = 5.0
    public var searchTimeout = 15.0
    /// Timeouts among the last six requests before the link is taken down and opened again.
    public var maximumTimeouts = 3
    /// Refused replies in a row before the same (a babbling adapter).
    public var maximumRejections = 10

    public init() {}

    /// The wait for `request`; `searching` while no protocol may be known yet (the car has
    /// not answered since the engine stopped): then any OBD request may start a search.
    public func timeout(for request: OBDRequest, searching: Bool) -> Double {
        switch request {
        case .supportedPIDs(base: 0): searchTimeout
        case .reset: max(commandTimeout, 5)
        default: searching && request.expectsData ? searchTimeout : commandTimeout
        }
    }
}
