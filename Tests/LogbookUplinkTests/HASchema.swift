// SPDX-License-Identifier: MIT
import LogbookCore

/// What Home Assistant's MQTT discovery accepts, as read in `home-assistant/core`
/// (`homeassistant/components/mqtt/`, read through the search tool, Nov 2026):
///
/// - `config.py`: MQTT_BASE_SCHEMA (qos 0–2, encoding), MQTT_RO_SCHEMA (`state_topic`
///   required, `value_template`);
/// - `schemas.py`: MQTT_AVAILABILITY_SCHEMA, MQTT_ENTITY_DEVICE_INFO_SCHEMA (at least one of
///   `identifiers`/`connections`), MQTT_ORIGIN_INFO_SCHEMA (`name` required),
///   MQTT_ENTITY_COMMON_SCHEMA;
/// - `sensor.py` (_PLATFORM_SCHEMA_BASE, validate_sensor_state_and_device_class_config),
///   `binary_sensor.py`, `device_tracker.py` (valid_config: `state_topic` or
///   `json_attributes_topic`; latitude/longitude/gps_accuracy read from the attributes);
/// - `discovery.py` TOPIC_MATCHER; `homeassistant/components/sensor/const.py`
///   (SensorDeviceClass, DEVICE_CLASS_UNITS, DEVICE_CLASS_STATE_CLASSES);
///   `homeassistant/components/binary_sensor/__init__.py` (BinarySensorDeviceClass);
///   device_tracker SourceType.
enum HASchema {
    static let base: Set<String> = ["qos", "encoding", "group"]
    static let readOnly: Set<String> = ["state_topic", "value_template"]
    static let availability: Set<String> = [
        "availability_topic", "availability_template", "payload_available", "payload_not_available",
        "availability_mode", "availability",
    ]
    static let common: Set<String> = [
        "device", "origin", "enabled_by_default", "entity_category", "icon", "json_attributes_topic",
        "json_attributes_template", "object_id", "unique_id",
    ]
    static let platform: [String: Set<String>] = [
        "sensor": ["device_class", "expire_after", "force_update", "last_reset_value_template", "name", "options",
                   "suggested_display_precision", "state_class", "unit_of_measurement"],
        "binary_sensor": ["device_class", "expire_after", "force_update", "name", "off_delay", "payload_off", "payload_on"],
        "device_tracker": ["name", "payload_home", "payload_not_home", "payload_reset", "source_type"],
    ]
    static let deviceKeys: Set<String> = [
        "identifiers", "connections", "manufacturer", "model", "model_id", "name", "hw_version", "serial_number",
        "sw_version", "via_device", "suggested_area", "configuration_url",
    ]
    static let originKeys: Set<String> = ["name", "sw_version", "support_url"]

    static let sensorDeviceClasses: Set<String> = [
        "date", "enum", "timestamp", "apparent_power", "aqi", "area", "atmospheric_pressure", "battery",
        "blood_glucose_concentration", "carbon_monoxide", "carbon_dioxide", "conductivity", "current", "data_rate",
        "data_size", "distance", "duration", "energy", "energy_distance", "energy_storage", "frequency", "gas", "humidity",
        "illuminance", "irradiance", "moisture", "monetary", "nitrogen_dioxide", "nitrogen_monoxide", "nitrous_oxide",
        "ozone", "ph", "pm1", "pm10", "pm25", "power_factor", "power", "precipitation", "precipitation_intensity",
        "pressure", "reactive_power", "signal_strength", "sound_pressure", "speed", "sulphur_dioxide", "temperature",
        "volatile_organic_compounds", "volatile_organic_compounds_parts", "voltage", "volume", "volume_storage",
        "volume_flow_rate", "water", "weight", "wind_direction", "wind_speed",
    ]
    static let nonNumeric: Set<String> = ["date", "enum", "timestamp"]
    static let stateClasses: Set<String> = ["measurement", "measurement_angle", "total", "total_increasing"]
    /// DEVICE_CLASS_UNITS for the classes Logbook uses (nil = no unit).
    static let units: [String: Set<String?>] = [
        "distance": ["mm", "cm", "m", "km", "in", "ft", "yd", "mi", "nmi"],
        "speed": ["Beaufort", "ft/s", "in/d", "in/h", "in/s", "km/h", "kn", "m/s", "mph", "mm/d", "mm/s"],
        "duration": ["d", "h", "min", "s", "ms", "µs"],
        "timestamp": [nil], "date": [nil],
    ]
    /// DEVICE_CLASS_STATE_CLASSES for the classes Logbook uses.
    static let allowedStateClasses: [String: Set<String>] = [
        "distance": stateClasses, "duration": stateClasses, "speed": ["measurement"], "timestamp": [], "date": [],
    ]
    static let binaryDeviceClasses: Set<String> = [
        "battery", "battery_charging", "carbon_monoxide", "cold", "connectivity", "door", "garage_door", "gas", "heat",
        "light", "lock", "moisture", "motion", "moving", "occupancy", "opening", "plug", "power", "presence", "problem",
        "running", "safety", "smoke", "sound", "tamper", "update", "vibration", "window",
    ]
    static let sourceTypes: Set<String> = ["gps", "router", "bluetooth", "bluetooth_le"]

    /// Problems with one discovery message; empty when HA would accept it. `state` is the
    /// payload of the entity's state topic (to check the template's key and value type).
    static func problems(topic: String, payload: String, state: JSONValue?, location: JSONValue?) -> [String] {
        var out: [String] = []
        let parts = topic.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 5, parts[4] == "config", [parts[2], parts[3]].allSatisfy(isID) else {
            return ["topic \(topic) does not match discovery.py TOPIC_MATCHER"]
        }
        let component = parts[1]
        guard let specific = platform[component] else { return ["component \(component) not handled"] }
        guard case .object(let members)? = try? JSONValue.parse(payload) else { return ["payload is not a JSON object"] }
        let allowed = base.union(availability).union(common).union(specific).union(readOnly)
        var seen = Set<String>()
        for (k, v) in members {
            if !seen.insert(k).inserted { out.append("\(k) twice") }
            if !allowed.contains(k) { out.append("\(k): not in the \(component) discovery schema") }
            switch k {
            case "qos": if ![0, 1, 2].contains(v.doubleValue ?? -1) { out.append("qos \(v)") }
            case "state_topic", "availability_topic", "json_attributes_topic":
                if !validTopic(v.stringValue) { out.append("\(k): not a valid subscribe topic") }
            case "device": out += device(v)
            case "origin": out += origin(v)
            case "icon": if !(v.stringValue?.contains(":") ?? false) { out.append("icon: cv.icon needs prefix:name") }
            case "suggested_display_precision", "expire_after":
                if !(v.doubleValue.map { $0 >= 0 && $0 == $0.rounded() } ?? false) { out.append("\(k): cv.positive_int") }
            case "name", "unique_id", "payload_on", "payload_off", "payload_available", "payload_not_available",
                "value_template", "unit_of_measurement":
                if v.stringValue == nil { out.append("\(k): expected a string") }
            default: break
            }
        }
        let m = Dictionary(members, uniquingKeysWith: { a, _ in a })
        switch component {
        case "sensor":
            if m["state_topic"] == nil { out.append("sensor: state_topic is required (MQTT_RO_SCHEMA)") }
            let dc = m["device_class"]?.stringValue
            let unit = m["unit_of_measurement"]?.stringValue
            if let dc {
                if !sensorDeviceClasses.contains(dc) { out.append("device_class \(dc) not a SensorDeviceClass") }
                if let units = units[dc], !units.contains(unit) { out.append("unit \(unit ?? "none") not allowed for \(dc)") }
                if let sc = m["state_class"]?.stringValue, let ok = allowedStateClasses[dc], !ok.contains(sc) {
                    out.append("state_class \(sc) not allowed for \(dc)")
                }
                if nonNumeric.contains(dc), m["state_class"] != nil || unit != nil { out.append("\(dc) takes no unit or state_class") }
            }
            if let sc = m["state_class"]?.stringValue, !stateClasses.contains(sc) { out.append("state_class \(sc)") }
            if m["options"] != nil && dc != "enum" { out.append("options needs device_class enum") }
            out += template(m["value_template"]?.stringValue, state: state, numeric: dc.map { !nonNumeric.contains($0) } ?? (unit != nil),
                            timestamp: dc == "timestamp" || dc == "date")
        case "binary_sensor":
            if m["state_topic"] == nil { out.append("binary_sensor: state_topic is required") }
            if let dc = m["device_class"]?.stringValue, !binaryDeviceClasses.contains(dc) { out.append("device_class \(dc)") }
            let on = m["payload_on"]?.stringValue ?? "ON", off = m["payload_off"]?.stringValue ?? "OFF"
            if let t = m["value_template"]?.stringValue {
                let pattern = "{{ '\(on)' if value_json."
                guard t.hasPrefix(pattern), t.hasSuffix(" else '\(off)' }}") else { return out + ["binary template \(t)"] }
                let key = String(t.dropFirst(pattern.count).prefix { $0 != " " })
                if state?[key]?.boolValue == nil { out.append("state has no boolean \(key)") }
            }
        case "device_tracker":
            if m["state_topic"] == nil && m["json_attributes_topic"] == nil {
                out.append("device_tracker: state_topic or json_attributes_topic required (valid_config)")
            }
            if m["state_topic"] != nil { out.append("state_topic is deprecated for device_tracker") }
            if let s = m["source_type"]?.stringValue, !sourceTypes.contains(s) { out.append("source_type \(s)") }
            if let loc = location {
                if loc["latitude"]?.doubleValue == nil || loc["longitude"]?.doubleValue == nil {
                    out.append("location lacks numeric latitude/longitude")
                }
                if let acc = loc["gps_accuracy"], acc.doubleValue == nil { out.append("gps_accuracy not a number") }
            }
        default: break
        }
        return out
    }

    static func template(_ t: String?, state: JSONValue?, numeric: Bool, timestamp: Bool) -> [String] {
        guard let t else { return ["value_template missing"] }
        guard t.hasPrefix("{{ value_json."), t.hasSuffix(" }}") else { return ["template \(t) not of the form {{ value_json.KEY }}"] }
        let key = String(t.dropFirst("{{ value_json.".count).dropLast(3))
        guard let state else { return [] }
        guard let v = state[key] else { return ["state has no \(key)"] }
        if v.isNull { return [] }  // renders "None": HA's PAYLOAD_NONE, the state becomes unknown
        if numeric && v.doubleValue == nil { return ["\(key) is not numeric in the state"] }
        if timestamp && (v.stringValue.flatMap(ISO8601.parse) == nil) { return ["\(key) is not ISO 8601"] }
        return []
    }

    static func device(_ v: JSONValue) -> [String] {
        guard case .object(let members) = v else { return ["device: not an object"] }
        var out = members.map(\.0).filter { !deviceKeys.contains($0) }.map { "device.\($0): unknown" }
        let ids = v["identifiers"], conns = v["connections"]
        if case .array(let a)? = ids, !a.isEmpty, a.allSatisfy({ $0.stringValue != nil }) {} else if conns == nil {
            out.append("device: needs identifiers or connections")
        }
        for (k, x) in members where k != "identifiers" && k != "connections" && x.stringValue == nil {
            out.append("device.\(k): expected a string")
        }
        return out
    }

    static func origin(_ v: JSONValue) -> [String] {
        guard case .object(let members) = v else { return ["origin: not an object"] }
        var out = members.map(\.0).filter { !originKeys.contains($0) }.map { "origin.\($0): unknown" }
        if v["name"]?.stringValue == nil { out.append("origin.name is required") }
        return out
    }

    static func isID(_ s: String) -> Bool {
        !s.isEmpty && s.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-" }
    }

    static func validTopic(_ s: String?) -> Bool {
        guard let s, !s.isEmpty, s.utf8.count < 65536 else { return false }
        return !s.contains("#") && !s.contains("+") && !s.contains("\0")
    }
}
