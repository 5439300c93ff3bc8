// SPDX-License-Identifier: MIT

/// The uplink's MQTT topics (docs/uplink.md, "Topics"). Everything of one device lives under
/// `<prefix>/<device_id>/`.
public struct MQTTTopics: Sendable, Hashable {
    public let prefix: String
    public let device: String

    public init(prefix: String, device: String) {
        self.prefix = prefix
        self.device = device
    }

    /// `<prefix>/<device>`.
    public var base: String { prefix + "/" + device }
    /// Retained `online` / `offline` (the broker publishes `offline` as the last will).
    public var availability: String { base + "/availability" }
    /// Retained live state (the daemon's `live.json` plus `device_id`).
    public var live: String { base + "/live" }
    /// Point batches, QoS 1, not retained.
    public var points: String { base + "/points" }
    /// Trip started / ended, signals, entries, rewinds; QoS 1, not retained.
    public var events: String { base + "/events" }
    /// Signed journal checkpoints (the witness feed); QoS 1, not retained.
    public var checkpoints: String { base + "/checkpoints" }
    /// Retained per-vehicle state for Home Assistant's sensors.
    public func vehicleState(_ vehicle: String) -> String { base + "/vehicle/" + Self.segment(vehicle) + "/state" }
    /// Retained per-vehicle last trip (`end`, distance, duration), published once one ended:
    /// Home Assistant's "Last trip ended" timestamp sensor reads it.
    public func vehicleLastTrip(_ vehicle: String) -> String { base + "/vehicle/" + Self.segment(vehicle) + "/last_trip" }
    /// Retained per-vehicle position for Home Assistant's `device_tracker`.
    public func vehicleLocation(_ vehicle: String) -> String { base + "/vehicle/" + Self.segment(vehicle) + "/location" }

    /// Retained per-vehicle place: the name of the place the car arrived at, or `None` (Home
    /// Assistant's `payload_reset`: its zones decide from the position again). The
    /// `device_tracker`'s state topic, so it shows the place name as it does for its zones.
    public func vehiclePlace(_ vehicle: String) -> String { base + "/vehicle/" + Self.segment(vehicle) + "/place" }
    /// What ``vehiclePlace(_:)`` carries when the car is at no place.
    public static let noPlace = "None"

    /// A topic level or discovery id from free text: `[A-Za-z0-9_-]`, others become `_`.
    public static func segment(_ text: String) -> String {
        let out = text.unicodeScalars.map { u -> Character in
            switch u {
            case "a"..."z", "A"..."Z", "0"..."9", "_", "-": Character(u)
            default: "_"
            }
        }
        return out.isEmpty ? "_" : String(out)
    }
}
