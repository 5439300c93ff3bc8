// SPDX-License-Identifier: MIT
/// An on/off report from something that tells whether the vehicle is in use.
///
/// Sources are identified by ``kind`` and ``name`` together; each names the vehicle it
/// belongs to, so a trip gets the vehicle of the source that started it.
public struct VehicleSignal: Sendable, Hashable, Codable {
    /// What kind of source reports.
    public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
        /// A power supply (e.g. `/sys/class/power_supply`, ignition-switched 12 V).
        case power
        /// A GPIO line (e.g. ignition sense through an opto-coupler).
        case gpio
        /// A Bluetooth device connecting (named by MAC address).
        case bluetooth
        /// A USB or other device appearing (e.g. an OBD adapter).
        case device
        /// A motion sensor (IMU). Counts only when the engine's motion mode is enabled.
        case motion
        /// Another service on the system (e.g. a CAN reader) asserting "in use".
        case service
        /// A person (control socket / CLI): the same as the manual start and stop commands.
        case manual
        /// The car itself through an OBD-II adapter: on while the engine turns (rpm > 0).
        case obd
    }

    /// What kind of source reports.
    public var kind: Kind
    /// The source's name: `ignition`, a MAC address, a device name…
    public var name: String
    /// The vehicle id the source belongs to (nil: the engine's default vehicle).
    public var vehicle: String?
    /// Whether the source says "in use".
    public var isOn: Bool

    /// Creates a signal.
    public init(kind: Kind, name: String, vehicle: String? = nil, isOn: Bool) {
        self.kind = kind
        self.name = name
        self.vehicle = vehicle
        self.isOn = isOn
    }

    /// A source switching on.
    public static func on(_ kind: Kind, _ name: String, vehicle: String? = nil) -> VehicleSignal {
        VehicleSignal(kind: kind, name: name, vehicle: vehicle, isOn: true)
    }

    /// A source switching off.
    public static func off(_ kind: Kind, _ name: String, vehicle: String? = nil) -> VehicleSignal {
        VehicleSignal(kind: kind, name: name, vehicle: vehicle, isOn: false)
    }

    /// The boundary reason this source gives a trip (`power:ignition`, `bluetooth:MAC`, `service`…).
    public var reason: TripReason {
        switch kind {
        case .power: .power(name)
        case .gpio: .gpio(name)
        case .bluetooth: .bluetooth(name)
        case .device: .device(name)
        case .motion: .motion
        case .service: .service
        case .manual: .manual
        case .obd: .obd(name)
        }
    }

    /// Power, GPIO, Bluetooth, device, OBD and service sources: the ones that hold a trip
    /// open and beat motion (see ``TripEngine``).
    public var isConnectionSource: Bool {
        switch kind {
        case .power, .gpio, .bluetooth, .device, .service, .obd: true
        case .motion, .manual: false
        }
    }
}
