// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookTestSupport

/// Home Assistant's own code on what the uplink published: `scripts/ha-discovery-check.py`
/// in a venv with PyPI `homeassistant` (`scripts/ha-venv.sh`). Discovery configs go through
/// the MQTT platforms' `DISCOVERY_SCHEMA`; every state, attributes and availability message
/// goes through HA's entity classes, and anything HA logs or raises fails.
struct HomeAssistantCheck {
    /// The release the tests check against: the newest PyPI has for Debian 12's Python 3.11;
    /// `LOGBOOK_HA_VERSION` picks another (the README's oldest release was found that way).
    static let version = ProcessInfo.processInfo.environment["LOGBOOK_HA_VERSION"] ?? "2024.3.3"

    let status: Int32
    let output: String
    /// What each entity shows after the last message, by `unique_id`.
    let entities: [String: JSONValue]

    /// The `ha-check: …` summary line.
    var summary: String { output.split(separator: "\n").last { $0.hasPrefix("ha-check: ") }.map(String.init) ?? "" }
    /// The `FAIL …` lines.
    var failures: [String] { output.split(separator: "\n").filter { $0.hasPrefix("FAIL ") }.map(String.init) }
    /// Configs HA's schemas accepted.
    var validConfigs: Int { number(before: " configs valid") }
    var invalidConfigs: Int { number(before: " invalid") }

    /// The state HA shows for the entity `unique_id`.
    func state(_ uniqueID: String) -> String? { entities[uniqueID]?["state"]?.stringValue }

    /// Runs the check on `messages` (receive time, topic, payload), in arrival order. Only
    /// discovery and the topics HA's entities read are passed on.
    static func run(_ messages: [(Double, String, String)], directory: String, version: String = version) throws -> HomeAssistantCheck {
        let (venv, venvLog) = try LogbookUplinkTests.run("/bin/bash", [TestPaths.script("ha-venv.sh"), version])
        let python = venvLog.split(separator: "\n").last.map(String.init) ?? ""
        guard venv == 0, python.hasSuffix("/bin/python") else { throw ServerError.failed("ha-venv.sh \(version): \(venvLog)") }
        let input = directory + "/ha-messages-\(version).jsonl", shown = directory + "/ha-shown-\(version).jsonl"
        let relevant = messages.filter { m in
            m.1.hasPrefix("homeassistant/") || m.1.hasSuffix("/availability") || m.1.contains("/vehicle/")
        }
        let lines = relevant.map { JSONValue.object([("topic", .string($0.1)), ("payload", .string($0.2))]).serialized }
        try (lines.joined(separator: "\n") + "\n").write(toFile: input, atomically: true, encoding: .utf8)
        let (status, output) = try LogbookUplinkTests.run(python, [TestPaths.script("ha-discovery-check.py"), input, shown])
        var entities: [String: JSONValue] = [:]
        for line in ((try? String(contentsOfFile: shown, encoding: .utf8)) ?? "").split(separator: "\n") {
            if let j = try? JSONValue.parse(String(line)), let id = j["unique_id"]?.stringValue { entities[id] = j }
        }
        return HomeAssistantCheck(status: status, output: output, entities: entities)
    }

    private func number(before marker: String) -> Int {
        guard let range = summary.range(of: marker) else { return -1 }
        return Int(summary[..<range.lowerBound].split(separator: " ").last ?? "") ?? -1
    }
}
