// SPDX-License-Identifier: MIT
/// Why a trip started or ended. Its ``rawValue`` is the string records and the live state
/// carry: `power:NAME`, `gpio:NAME`, `bluetooth:MAC`, `device:NAME`, `obd:NAME`, `motion`, `manual`,
/// `service`, `shutdown`, `recovered`, `gap`.
public enum TripReason: Sendable, Hashable, Codable, RawRepresentable, CustomStringConvertible {
    /// A power supply switched (`power:NAME`).
    case power(String)
    /// A GPIO line switched (`gpio:NAME`).
    case gpio(String)
    /// A Bluetooth device (dis)connected (`bluetooth:MAC`).
    case bluetooth(String)
    /// A device appeared or went away (`device:NAME`).
    case device(String)
    /// The engine started or stopped, as an OBD-II adapter read it (`obd:NAME`).
    case obd(String)
    /// Movement detected from fixes or a motion sensor, or a stop detected from fixes.
    case motion
    /// A person started or stopped the trip.
    case manual
    /// Another service asserted or released "in use".
    case service
    /// The daemon stopped (SIGTERM, logind PrepareForShutdown).
    case shutdown
    /// The journal closed a trip left open by a crash (never produced by the engine).
    case recovered
    /// No data for too long.
    case gap

    /// The reason as recorded, e.g. `power:ignition`.
    public var rawValue: String {
        switch self {
        case .power(let n): "power:\(n)"
        case .gpio(let n): "gpio:\(n)"
        case .bluetooth(let n): "bluetooth:\(n)"
        case .device(let n): "device:\(n)"
        case .obd(let n): "obd:\(n)"
        case .motion: "motion"
        case .manual: "manual"
        case .service: "service"
        case .shutdown: "shutdown"
        case .recovered: "recovered"
        case .gap: "gap"
        }
    }

    /// Parses a recorded reason; nil for anything unknown.
    public init?(rawValue: String) {
        switch rawValue {
        case "motion": self = .motion
        case "manual": self = .manual
        case "service": self = .service
        case "shutdown": self = .shutdown
        case "recovered": self = .recovered
        case "gap": self = .gap
        default:
            guard let colon = rawValue.firstIndex(of: ":") else { return nil }
            let name = String(rawValue[rawValue.index(after: colon)...])
            switch rawValue[..<colon] {
            case "power": self = .power(name)
            case "gpio": self = .gpio(name)
            case "bluetooth": self = .bluetooth(name)
            case "device": self = .device(name)
            case "obd": self = .obd(name)
            default: return nil
            }
        }
    }

    /// The same as ``rawValue``.
    public var description: String { rawValue }
}
