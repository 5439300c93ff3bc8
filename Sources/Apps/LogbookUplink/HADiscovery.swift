// SPDX-License-Identifier: MIT
import LogbookCore

/// One Home Assistant entity of a vehicle. Where its value comes from decides when it can be
/// published: the live state and the journal today; the garage records (fuel, service) once
/// the garage issue defines their fields — the specs are here so those sensors slot in.
public struct HAEntitySpec: Sendable, Equatable {
    public enum Source: Sendable, Equatable { case live, journal, garage }
    /// `sensor`, `binary_sensor` or `device_tracker`.
    public var component: String
    /// Object id suffix and the key in the vehicle-state JSON.
    public var key: String
    public var name: String
    public var deviceClass: String?
    public var unit: String?
    public var stateClass: String?
    public var precision: Int?
    public var icon: String?
    public var source: Source
}

/// Home Assistant MQTT discovery: a device per vehicle with a `device_tracker`, a `driving`
/// `binary_sensor` and sensors, all read from the retained per-vehicle topics.
///
/// Payloads follow `homeassistant/components/mqtt/` (schemas.py MQTT_ENTITY_COMMON_SCHEMA,
/// sensor.py, binary_sensor.py, device_tracker.py) and the unit/state-class tables of
/// `homeassistant/components/sensor/const.py`; the tests check them field by field.
public enum HADiscovery {
    /// The entities of every vehicle, in publishing order.
    public static let entities: [HAEntitySpec] = [
        HAEntitySpec(component: "device_tracker", key: "location", name: "Location", icon: "mdi:car", source: .live),
        HAEntitySpec(component: "binary_sensor", key: "driving", name: "Driving", deviceClass: "moving", source: .live),
        HAEntitySpec(component: "sensor", key: "speed_kmh", name: "Speed", deviceClass: "speed", unit: "km/h",
                     stateClass: "measurement", precision: 0, source: .live),
        HAEntitySpec(component: "sensor", key: "trip_distance_km", name: "Trip distance", deviceClass: "distance",
                     unit: "km", stateClass: "measurement", precision: 1, source: .live),
        HAEntitySpec(component: "sensor", key: "trip_duration_min", name: "Trip duration", deviceClass: "duration",
                     unit: "min", stateClass: "measurement", precision: 0, source: .live),
        HAEntitySpec(component: "sensor", key: "odometer_km", name: "Odometer (estimate)", deviceClass: "distance",
                     unit: "km", stateClass: "total_increasing", precision: 0, icon: "mdi:counter", source: .journal),
        HAEntitySpec(component: "sensor", key: "logged_km", name: "Distance logged", deviceClass: "distance",
                     unit: "km", stateClass: "total_increasing", precision: 1, source: .journal),
        HAEntitySpec(component: "sensor", key: "last_trip_distance_km", name: "Last trip distance", deviceClass: "distance",
                     unit: "km", stateClass: "measurement", precision: 1, source: .journal),
        HAEntitySpec(component: "sensor", key: "last_trip_duration_min", name: "Last trip duration", deviceClass: "duration",
                     unit: "min", stateClass: "measurement", precision: 0, source: .journal),
        HAEntitySpec(component: "sensor", key: "last_trip_end", name: "Last trip ended", deviceClass: "timestamp",
                     source: .journal),
        // Garage issue (fuel and service entries): defined, published once those fields exist.
        HAEntitySpec(component: "sensor", key: "fuel_economy_l_100km", name: "Fuel economy", unit: "L/100km",
                     stateClass: "measurement", precision: 1, icon: "mdi:gas-station", source: .garage),
        HAEntitySpec(component: "sensor", key: "service_due", name: "Service due", deviceClass: "date",
                     icon: "mdi:wrench-clock", source: .garage),
    ]

    /// What names a vehicle's device.
    public struct VehicleInfo: Sendable, Equatable {
        public var id: String
        public var name: String
        public var make: String?
        public var model: String?
        public init(id: String, name: String, make: String? = nil, model: String? = nil) {
            self.id = id
            self.name = name
            self.make = make
            self.model = model
        }
    }

    /// The retained discovery messages of `vehicle` (empty payloads remove entities; not used).
    public static func messages(
        for vehicle: VehicleInfo, topics: MQTTTopics, discoveryPrefix: String, includeGarage: Bool = false,
        version: String = UplinkVersion.current
    ) -> [MQTTMessage] {
        let node = "logbook_" + MQTTTopics.segment(topics.device)
        let vid = MQTTTopics.segment(vehicle.id)
        let device: JSONValue = .object([
            ("identifiers", .array([.string(node + "_" + vid)])),
            ("name", .string(vehicle.name)),
            ("manufacturer", .string(vehicle.make ?? "Logbook")),
            ("model", .string(vehicle.model ?? "Car with a Logbook recorder")),
            ("sw_version", .string(version)),
            ("serial_number", .string(topics.device + "/" + vehicle.id)),
        ])
        let origin: JSONValue = .object([("name", .string("Logbook")), ("sw_version", .string(version))])
        return entities.filter { includeGarage || $0.source != .garage }.map { e in
            var m: [(String, JSONValue)] = [
                ("name", .string(e.name)),
                ("unique_id", .string(node + "_" + vid + "_" + e.key)),
                ("availability_topic", .string(topics.availability)),
                ("payload_available", .string("online")),
                ("payload_not_available", .string("offline")),
                ("device", device),
                ("origin", origin),
                ("qos", .number(1)),
            ]
            switch e.component {
            case "device_tracker":
                m += [("json_attributes_topic", .string(topics.vehicleLocation(vehicle.id))), ("source_type", .string("gps"))]
            case "binary_sensor":
                m += [("state_topic", .string(topics.vehicleState(vehicle.id))),
                      ("value_template", .string("{{ 'ON' if value_json.\(e.key) else 'OFF' }}")),
                      ("payload_on", .string("ON")), ("payload_off", .string("OFF"))]
            default:
                m += [("state_topic", .string(topics.vehicleState(vehicle.id))),
                      ("value_template", .string("{{ value_json.\(e.key) }}"))]
            }
            if let d = e.deviceClass { m.append(("device_class", .string(d))) }
            if let u = e.unit { m.append(("unit_of_measurement", .string(u))) }
            if let s = e.stateClass { m.append(("state_class", .string(s))) }
            if let p = e.precision { m.append(("suggested_display_precision", .number(Double(p)))) }
            if let i = e.icon { m.append(("icon", .string(i))) }
            let topic = discoveryPrefix + "/" + e.component + "/" + node + "/" + vid + "_" + e.key + "/config"
            return MQTTMessage(topic: topic, payload: JSONValue.object(m).serialized, retain: true)
        }
    }
}

/// The version the uplink reports (HA device `sw_version`, origin).
public enum UplinkVersion {
    public static let current = "0.11.0"
}
