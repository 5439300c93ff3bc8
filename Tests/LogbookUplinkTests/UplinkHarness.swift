// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookTestSupport

/// A `logbook-uplink` child process with its own config file.
struct UplinkRun {
    let config: String
    let process: Child

    static func start(config: String, extra: [String] = []) throws -> UplinkRun {
        UplinkRun(config: config, process: try Child(TestPaths.product("logbook-uplink"), ["--config", config] + extra,
                                                     output: config + ".log"))
    }
}

/// Writes an uplink config; `mqtt` and `postgres` are the tables' bodies (nil: sink off).
func writeUplinkConfig(_ path: String, state: String, journal: String, live: String? = nil, mqtt: String? = nil,
                       postgres: String? = nil, extra: String = "") throws {
    var s = "[uplink]\nstate_dir = \"\(state)\"\nruntime_dir = \"\(state)/run\"\njournal_dir = \"\(journal)\"\n"
    s += "poll_interval_s = 0.2\n"
    if let live { s += "live_file = \"\(live)\"\n" }
    s += extra
    if let mqtt { s += "[uplink.mqtt]\n" + mqtt + "\n" }
    if let postgres { s += "[uplink.postgres]\n" + postgres + "\n" }
    try s.write(toFile: path, atomically: true, encoding: .utf8)
}

/// The `points` messages a subscriber saw, per device: (device, seq) → times received, the
/// order of first arrivals, the points' values, and redeliveries that differ from the first
/// delivery (QoS 1 may deliver a message twice; a consumer keyed on (device_id, seq) then
/// applies it once, unless the two copies disagree).
struct ReceivedPoints {
    var counts: [String: [UInt64: Int]] = [:]
    var order: [String: [UInt64]] = [:]
    var values: [String: [UInt64: (Double, Double)]] = [:]
    var conflicting = 0

    init(_ messages: [(Double, String, String)]) {
        for (_, topic, payload) in messages where topic.hasSuffix("/points") {
            guard let j = try? JSONValue.parse(payload), let d = j["device_id"]?.stringValue, let s = j["seq"]?.doubleValue,
                case .array(let pts)? = j["points"]
            else { continue }
            for (i, p) in pts.enumerated() {
                let seq = UInt64(s) + UInt64(i)
                counts[d, default: [:]][seq, default: 0] += 1
                var value: (Double, Double)?
                if case .array(let f) = p, f.count == 7, let lat = f[1].doubleValue, let lon = f[2].doubleValue {
                    value = (lat, lon)
                }
                if let first = values[d]?[seq] {
                    if value.map({ $0 != first }) ?? true { conflicting += 1 }
                    continue
                }
                order[d, default: []].append(seq)
                if let value { values[d, default: [:]][seq] = value }
            }
        }
    }
}
