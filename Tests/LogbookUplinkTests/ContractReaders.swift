// SPDX-License-Identifier: MIT
import Foundation
import LogbookCore
import LogbookTestSupport

/// What every reader shows once the uplink caught up, read once.
struct ContractReaders {
    // The index, through the CLI.
    var trips: [JSONValue] = []
    var stats: JSONValue = .null
    var report: [[String]] = []
    var vehicles: [JSONValue] = []
    var fuel: [JSONValue] = []
    var odometer: [JSONValue] = []
    var service: [JSONValue] = []
    var places: [JSONValue] = []
    /// `fuel pending --all --json`.
    var pendingFills: [JSONValue] = []
    // The web API.
    /// `/api/trips` (voided trips are left out of the list) and `/api/trips/{id}` of each trip.
    var webTrips: [JSONValue] = []
    var webTripDetails: [String: JSONValue] = [:]
    var webStats: JSONValue = .null
    var webGarage: JSONValue = .null
    var webFuel: [JSONValue] = []
    var webReport: [[String]] = []
    // MQTT and Home Assistant.
    var device = ""
    var events: [JSONValue] = []
    var states: [String: JSONValue] = [:]
    var lastTrips: [String: JSONValue] = [:]
    var discovery: [String: JSONValue] = [:]
    var ha = HomeAssistantCheck(status: -1, output: "", entities: [:])
    // PostgreSQL (`|`-separated rows).
    var pgTrips: [String: [String]] = [:]
    var pgVehicles: [String: [String]] = [:]
    var pgEvents: [JSONValue] = []

    /// `ids`: trips to read one by one besides those `trips list` shows.
    static func read(world: ContractWorld, pg: PostgresCluster, messages: [(Double, String, String)], device: String, year: Int, ids: [String])
        throws -> ContractReaders
    {
        var r = ContractReaders()
        r.trips = try world.cliJSON(["trips", "list", "--json"])["trips"]?.arrayValue ?? []
        r.stats = try world.cliJSON(["stats", "--json"])
        r.report = csvRows(try world.cli(["report", "--year", String(year), "--format", "csv"]).1)
        r.vehicles = try world.cliJSON(["vehicles", "list", "--all", "--json"]).arrayValue ?? []
        r.fuel = try world.cliJSON(["fuel", "list", "--json"]).arrayValue ?? []
        r.odometer = try world.cliJSON(["odometer", "list", "--json"]).arrayValue ?? []
        r.service = try world.cliJSON(["service", "list", "--json"]).arrayValue ?? []
        r.places = try world.cliJSON(["places", "list", "--json"]).arrayValue ?? []
        r.pendingFills = try world.cliJSON(["fuel", "pending", "--all", "--json"]).arrayValue ?? []

        r.webTrips = try world.httpJSON("/api/trips?limit=100")["trips"]?.arrayValue ?? []
        for id in r.trips.compactMap({ $0["id"]?.stringValue }) + ids { r.webTripDetails[id] = try? world.httpJSON("/api/trips/\(id)") }
        r.webStats = try world.httpJSON("/api/stats")
        r.webGarage = try world.httpJSON("/api/garage")
        r.webFuel = try world.httpJSON("/api/fuel")["fuel_logs"]?.arrayValue ?? []
        r.webReport = csvRows(try world.http("/api/report?year=\(year)&format=csv"))

        r.device = device
        for (_, topic, payload) in messages {
            guard let json = try? JSONValue.parse(payload) else { continue }
            if topic == "logbook/\(device)/events" { r.events.append(json) }
            let parts = topic.split(separator: "/").map(String.init)
            if parts.count == 5, parts[2] == "vehicle", parts[4] == "state" { r.states[parts[3]] = json }
            if parts.count == 5, parts[2] == "vehicle", parts[4] == "last_trip" { r.lastTrips[parts[3]] = json }
            if topic.hasPrefix("homeassistant/") { r.discovery[topic] = json }
        }
        r.ha = try HomeAssistantCheck.run(messages, directory: world.dir.path)

        for row in try pg.psql("""
            SELECT trip_id, recorded, voided, coalesce(void_reason, ''), coalesce(assigned_vehicle_id, vehicle_id), coalesce(driver, ''),
                coalesce(merged_into::text, ''), coalesce(split_from::text, ''), coalesce(corrected_distance_m, distance_m)
            FROM trips ORDER BY trip_id
            """).split(separator: "\n") {
            let f = row.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            r.pgTrips[f[0]] = f
        }
        for row in try pg.psql("SELECT vehicle_id, name, coalesce(make, ''), coalesce(model, ''), coalesce(registration, ''), retired FROM vehicles")
            .split(separator: "\n") {
            let f = row.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            r.pgVehicles[f[0]] = f
        }
        r.pgEvents = try pg.psql("SELECT body FROM events WHERE kind = 'entry' ORDER BY seq").split(separator: "\n")
            .compactMap { try? JSONValue.parse(String($0)) }
        return r
    }

    /// The CLI's trip `id`.
    func trip(_ id: String) -> JSONValue? { trips.first { $0["id"]?.stringValue == id } }
    /// The web API's trip `id` (`/api/trips/{id}`).
    func webTrip(_ id: String) -> JSONValue? { webTripDetails[id] }
    /// Whether `/api/trips` lists trip `id`.
    func webListed(_ id: String) -> Bool { webTrips.contains { $0["id"]?.stringValue == id } }
    /// The report's row of trip `id`, by column name.
    func reportRow(_ id: String, web: Bool = false) -> [String: String]? {
        let rows = web ? webReport : report
        guard let header = rows.first, let row = rows.first(where: { $0.first == id }) else { return nil }
        return Dictionary(zip(header, row), uniquingKeysWith: { a, _ in a })
    }
    /// The entry event of `type` about `subject` on the events topic (or the fleet store's).
    func event(_ type: String, _ subject: String, pg: Bool = false) -> JSONValue? {
        (pg ? pgEvents : events).last { $0["entry_type"]?.stringValue == type && $0["subject"]?.stringValue == subject }
    }
    /// What Home Assistant's entity `key` of `vehicle` shows.
    func haState(_ vehicle: String, _ key: String) -> String? { ha.state("logbook_\(device)_\(vehicle)_\(key)") }
    /// A vehicle's entry in `stats --json` (or the web's `/api/stats`).
    func statsVehicle(_ id: String, web: Bool = false) -> JSONValue? {
        ((web ? webStats : stats)["vehicles"]?.arrayValue ?? []).first { $0["id"]?.stringValue == id }
    }
}

extension JSONValue {
    /// The elements of an array.
    var arrayValue: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
}
