// SPDX-License-Identifier: MIT
import LogbookCore

/// One Home Assistant entity of a vehicle.
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
    /// An `enum` sensor's states.
    public var options: [String]? = nil
    public var source: Source
}

/// Home Assistant MQTT discovery: a device per vehicle with a `device_tracker`, a `driving`
/// `binary_sensor` and sensors, all read from the retained per-vehicle topics.
///
/// Every payload is checked against Home Assistant's own discovery schemas (its MQTT
/// platforms' `DISCOVERY_SCHEMA`, PyPI `homeassistant` in a test venv: `HAValidatorTests`).
/// Two of HA's rules shape them: a non-numeric sensor (timestamp, enum) takes no `None` —
/// such a state is logged as invalid — so "Last trip ended" reads a topic of its own that is
/// published only once the time is known, and "Service due" maps "no task" to `none`.
public enum HADiscovery {
    /// The states the "Service due" sensor shows (the most urgent task's, `none` without one).
    public static let serviceStates = ["ok", "due_soon", "overdue", "none"]

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
        // `total`, not `total_increasing`: a corrected reading or a voided trip may lower them,
        // which HA would take for a meter reset.
        HAEntitySpec(component: "sensor", key: "odometer_km", name: "Odometer", deviceClass: "distance",
                     unit: "km", stateClass: "total", precision: 0, icon: "mdi:counter", source: .garage),
        HAEntitySpec(component: "sensor", key: "logged_km", name: "Distance logged", deviceClass: "distance",
                     unit: "km", stateClass: "total", precision: 1, source: .journal),
        HAEntitySpec(component: "sensor", key: "last_trip_distance_km", name: "Last trip distance", deviceClass: "distance",
                     unit: "km", stateClass: "measurement", precision: 1, source: .journal),
        HAEntitySpec(component: "sensor", key: "last_trip_duration_min", name: "Last trip duration", deviceClass: "duration",
                     unit: "min", stateClass: "measurement", precision: 0, source: .journal),
        HAEntitySpec(component: "sensor", key: "last_trip_end", name: "Last trip ended", deviceClass: "timestamp",
                     source: .journal),
        HAEntitySpec(component: "sensor", key: "fuel_economy_l_100km", name: "Fuel economy", unit: "L/100km",
                     stateClass: "measurement", precision: 1, icon: "mdi:gas-station", source: .garage),
        // No `options`: the MQTT sensor schema of HA 2024.2-2024.3 has none (it drops the key).
        HAEntitySpec(component: "sensor", key: "service_due", name: "Service due", deviceClass: "enum",
                     icon: "mdi:wrench-clock", source: .garage),
        HAEntitySpec(component: "sensor", key: "service_due_km", name: "Service due in (distance)", deviceClass: "distance",
                     unit: "km", stateClass: "measurement", precision: 0, icon: "mdi:wrench-clock", source: .garage),
        HAEntitySpec(component: "sensor", key: "service_due_days", name: "Service due in (time)", deviceClass: "duration",
                     unit: "d", stateClass: "measurement", precision: 0, icon: "mdi:wrench-clock", source: .garage),
        // Stored and pending trouble codes of the OBD source; the codes are its attributes.
        HAEntitySpec(component: "sensor", key: "fault_codes", name: "Fault codes", stateClass: "measurement", precision: 0,
                     icon: "mdi:engine-outline", source: .journal),
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

    /// The discovery topic of one entity.
    public static func topic(_ e: HAEntitySpec, vehicle: String, topics: MQTTTopics, discoveryPrefix: String) -> String {
        discoveryPrefix + "/" + e.component + "/logbook_" + MQTTTopics.segment(topics.device) + "/" + MQTTTopics.segment(vehicle) + "_"
            + e.key + "/config"
    }

    /// The retained discovery messages of `vehicle`.
    public static func messages(
        for vehicle: VehicleInfo, topics: MQTTTopics, discoveryPrefix: String, version: String = UplinkVersion.current
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
        let state = topics.vehicleState(vehicle.id)
        return entities.map { e in
            var m: [(String, JSONValue)] = [("name", .string(e.name)), ("unique_id", .string(node + "_" + vid + "_" + e.key))]
            m += availability(e, topics: topics, vehicle: vehicle.id)
            m += [("device", device), ("origin", origin), ("qos", .number(1))]
            switch (e.component, e.key) {
            case ("device_tracker", _):
                m += [("json_attributes_topic", .string(topics.vehicleLocation(vehicle.id))), ("source_type", .string("gps")),
                      ("state_topic", .string(topics.vehiclePlace(vehicle.id))), ("payload_reset", .string(MQTTTopics.noPlace))]
            case ("binary_sensor", _):
                m += [("state_topic", .string(state)),
                      ("value_template", .string("{{ 'ON' if value_json.\(e.key) else 'OFF' }}")),
                      ("payload_on", .string("ON")), ("payload_off", .string("OFF"))]
            case (_, "last_trip_end"):
                // Its own topic, published once a trip has ended: HA has no "unknown" timestamp.
                let lastTrip = topics.vehicleLastTrip(vehicle.id)
                m += [("state_topic", .string(lastTrip)), ("value_template", .string("{{ value_json.end }}")),
                      ("json_attributes_topic", .string(lastTrip))]
            case (_, "service_due"):
                m += [("state_topic", .string(state)),
                      ("value_template", .string("{{ value_json.service_due if value_json.service_due is not none else 'none' }}")),
                      ("json_attributes_topic", .string(state)),
                      ("json_attributes_template", .string("{{ (value_json.service or {}) | tojson }}"))]
            case (_, "fault_codes"):
                m += [("state_topic", .string(state)), ("value_template", .string("{{ value_json.fault_codes }}")),
                      ("json_attributes_topic", .string(state)),
                      ("json_attributes_template", .string("{{ (value_json.faults or {}) | tojson }}"))]
            default:
                m += [("state_topic", .string(state)), ("value_template", .string("{{ value_json.\(e.key) }}"))]
            }
            if let d = e.deviceClass { m.append(("device_class", .string(d))) }
            if let o = e.options { m.append(("options", .array(o.map(JSONValue.string)))) }
            if let u = e.unit { m.append(("unit_of_measurement", .string(u))) }
            if let s = e.stateClass { m.append(("state_class", .string(s))) }
            if let p = e.precision { m.append(("suggested_display_precision", .number(Double(p)))) }
            if let i = e.icon { m.append(("icon", .string(i))) }
            return MQTTMessage(topic: topic(e, vehicle: vehicle.id, topics: topics, discoveryPrefix: discoveryPrefix),
                               payload: JSONValue.object(m).serialized, retain: true)
        }
    }

    /// The empty retained messages that remove `vehicle`'s entities (a retired vehicle).
    public static func removals(for vehicle: String, topics: MQTTTopics, discoveryPrefix: String) -> [MQTTMessage] {
        entities.map { MQTTMessage(topic: topic($0, vehicle: vehicle, topics: topics, discoveryPrefix: discoveryPrefix), payload: "", retain: true) }
    }

    /// The device's availability; "Last trip ended" is also unavailable once every trip of
    /// the vehicle was voided (its retained time would be stale, and HA takes no `None`).
    static func availability(_ e: HAEntitySpec, topics: MQTTTopics, vehicle: String) -> [(String, JSONValue)] {
        let device: [(String, JSONValue)] = [
            ("topic", .string(topics.availability)), ("payload_available", .string("online")),
            ("payload_not_available", .string("offline")),
        ]
        guard e.key == "last_trip_end" else {
            return [("availability_topic", .string(topics.availability)), ("payload_available", .string("online")),
                    ("payload_not_available", .string("offline"))]
        }
        let withdrawn: [(String, JSONValue)] = [
            ("topic", .string(topics.vehicleState(vehicle))),
            ("value_template", .string("{{ 'offline' if value_json.last_trip_withdrawn else 'online' }}")),
        ]
        return [("availability", .array([.object(device), .object(withdrawn)])), ("availability_mode", .string("all"))]
    }
}

/// The version the uplink reports (HA device `sw_version`, origin).
public enum UplinkVersion {
    public static let current = "0.11.0"
}
