// SPDX-License-Identifier: MIT
import ArgumentParser
import LogbookCore
import LogbookGarage
import LogbookGarageStore
import LogbookStore

/// `logbook stats [--vehicle ID] [--range week|month|3months|year|all] [--json]`: the
/// dashboard's KPIs from the index.
struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats", abstract: "Distance, fuel, spend, economy and its trend (the dashboard's KPIs).")
    @OptionGroup var paths: PathOptions
    @Option(help: "Only this vehicle.") var vehicle: String?
    @Option(help: "week, month, 3months, year or all (rolling, ending now).") var range = "all"
    @Flag(help: "Print JSON (SI units, money per currency).") var json = false

    func validate() throws {
        guard StatsRange.names.contains(range) else { throw ValidationError("--range must be one of \(StatsRange.names.joined(separator: ", "))") }
    }

    func run() async throws {
        try await withExitCodes {
            let settings = try ReaderSettings.load(paths)
            let now = GarageAccess.wallClock()
            let (stats, allDue) = try Self.compute(settings, range: range, vehicle: vehicle, now: now)
            let due = allDue.filter { vehicle == nil || $0.task.vehicle == vehicle }
            if json {
                guard case .object(let members) = stats.json else { return }
                print(JSONValue.object(members + [("service", .array(due.map(\.json)))]).serialized)
            } else {
                print(StatsText.render(stats, units: settings.units))
                let pending = due.filter { $0.state == .overdue || $0.state == .dueSoon }
                if !pending.isEmpty {
                    print("\nService due:")
                    for d in pending { print("  \(d.task.vehicle)  \(d.task.name)  \(d.state.rawValue)\(d.dueAt.map { " (by " + LocalZone.rules.date($0) + ")" } ?? "")") }
                }
            }
        }
    }

    /// The KPIs and the service tasks' states from the caught-up index, opened once.
    static func compute(_ settings: ReaderSettings, range name: String, vehicle: String?, now: GPSTime) throws -> (GarageStats, [ServiceDue]) {
        guard let range = StatsRange.named(name, now: now) else { throw CLIError.usage("unknown range \(name)") }
        return try IndexAccess.withIndex(settings) { index in
            let garage = try GarageAccess.load(index, settings: settings, types: GarageAccess.withoutClassifications)
            try VehicleFilter.check(vehicle, garage)
            let stats = try GarageStore.stats(index, garage: garage, range: range, vehicle: vehicle)
            return (stats, try GarageStore.serviceDue(index, garage: garage, now: now))
        }
    }
}

/// The text form of `stats`.
enum StatsText {
    static func render(_ s: GarageStats, units: UnitSystem) -> String {
        var lines: [String] = []
        let scope = s.vehicle.map { "vehicle \($0)" } ?? "all vehicles"
        lines.append("Stats, \(scope), range \(s.range.name)\(s.range.since.map { " (since \(TripFormat.dateTimeWithZone($0)))" } ?? "")")
        lines.append("  distance        \(units.distanceText(s.distanceKm * 1000))")
        lines.append("  fill-ups        \(s.fillUps)")
        lines.append("  fuel            \(units.volumeText(s.litres))")
        lines.append("  spend           \(GarageText.money(s.spend))")
        lines.append("  economy         \(economy(s.litresPer100km, units))")
        lines.append(label("cost per \(units.distanceUnit)") + GarageText.money(perUnit(s.costPerKm, units)))
        lines.append(label("cost per \(units == .metric ? "litre" : "gallon")") + GarageText.money(s.costPerLitre.mapValues(units.perVolume)))
        if let f = s.lastFill {
            lines.append("  last fill-up    \(TripFormat.dateTimeWithZone(f.at)) \(f.vehicle), \(units.volumeText(f.litres)) at \(f.station ?? "an unnamed station")")
        }
        if !s.vehicles.isEmpty {
            lines.append("")
            var rows = [["VEHICLE", "DISTANCE", "FILL-UPS", "FUEL", "SPEND", "ECONOMY"]]
            for v in s.vehicles {
                rows.append([v.id, units.distanceText(v.distanceKm * 1000), String(v.fillUps), units.volumeText(v.litres),
                             GarageText.money(v.spend), economy(v.litresPer100km, units)])
            }
            lines.append(GarageText.table(rows))
        }
        if !s.recent.isEmpty {
            lines.append("")
            lines.append("Recent fill-ups:")
            for f in s.recent {
                lines.append("  \(TripFormat.dateTimeWithZone(f.at))  \(f.vehicle)  \(units.volumeText(f.litres))  \(NumberText.fixed(f.price, places: 2)) \(f.currency)\(f.full ? "" : "  partial")")
            }
        }
        if !s.trend.isEmpty {
            lines.append("")
            lines.append("Economy by \(s.range.bucket.rawValue):")
            let values = s.trend.map(\.litresPer100km)
            let low = values.min() ?? 0, high = values.max() ?? 0
            let bars = Array("▁▂▃▄▅▆▇█")
            for p in s.trend {
                let level = high > low ? Int(((p.litresPer100km - low) / (high - low) * 7).rounded()) : 3
                lines.append("  \(p.label)  \(String(repeating: String(bars[level]), count: level + 1))  \(economy(p.litresPer100km, units))")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `  cost per gallon  `: a figure's label, padded to the column the values start in.
    static func label(_ text: String) -> String { "  " + text + String(repeating: " ", count: max(1, 16 - text.count)) }

    static func economy(_ lPer100: Double?, _ units: UnitSystem) -> String {
        guard let lPer100 else { return "-" }
        if units == .imperial { return NumberText.fixed(UnitSystem.mpgUS(litresPer100km: lPer100), places: 1) + " mpg" }
        return NumberText.fixed(lPer100, places: 2) + " L/100 km (" + NumberText.fixed(100 / lPer100, places: 2) + " km/L)"
    }

    static func perUnit(_ perKm: [String: Double], _ units: UnitSystem) -> [String: Double] {
        perKm.mapValues(units.perDistance)
    }
}
